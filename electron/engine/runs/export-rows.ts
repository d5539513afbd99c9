import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { EvidenceField, EvidenceItem, RowState } from '../../../shared/model';
import type { ExportCell } from '../export';
import { assessRow, rowFacts, rowInput } from '../matching';
import { sheetRowNumber, type ProjectRecord } from '../rows/project-record';
import { answerFacts } from './answer-facts';
import { BLANK_ROW, parseCells } from '../rows/row-cells';
import { chosenSlugSql, rowStatusColumns, toRowStatus, type RowStatusRecord, type RowStatusRow } from '../rows/row-status';
import { lastRefreshOf } from '../store/refresh-tables';

/** changed: the matched rows whose person's job changed at the project's last refresh. */
export type ExportScope = 'all' | 'matched' | 'changed';

export const MATCH_COLUMNS = [
  'match_status',
  'match_source',
  'match_person_id',
  'match_name',
  'match_title',
  'match_company',
  'match_job_change',
  'match_job_change_date',
  'match_social',
  'match_location',
  'match_score',
  'match_confidence',
  'match_reason',
  'match_rank',
  'match_strategy',
  'match_fetched_at',
  'match_decided_at',
  'match_error',
  'match_changed_since_refresh',
  'match_previous_company',
] as const;

export const CANDIDATE_COLUMNS = [
  'row',
  'rank',
  'person_id',
  'name',
  'title',
  'company',
  'social',
  'location',
  'score',
  'confidence',
  'reason',
  'strategy',
  'evidence_email',
  'evidence_social',
  'evidence_name',
  'evidence_company',
] as const;

export interface ExportTable {
  headers: string[];
  rows: AsyncGenerator<ExportCell[]>;
}

export interface ExportPaging {
  /** Rows per read from SQLite (PAGE_ROWS when not given). */
  pageRows?: number;
  /** Told after each page is written: the project's rows gone through so far (filtered out ones included). */
  onPage?: (rowsDone: number) => void;
}

/** Rows per read from SQLite, unless the caller asks for other: the candidates' answers are read a page at a time too. */
const PAGE_ROWS = 2000;
/**
 * An export's page of matches. A page stays alive until its last row is written, and the app's Node processes run
 * with V8's young generation capped at 8 MB semi-spaces (bin/matchdesk.mjs): a page of 2,000 rows (the rows as read
 * plus their parsed cells and status, a few MB) outlived one or two scavenges, so scavenges kept copying it, promoted
 * it, and the old generation filled with dead pages for mark-compacts to clear. 100 rows are written before a
 * scavenge comes, so mark-compacts all but stop and scavenges copy far less; 200 rows still promoted pages
 * (docs/performance.md, "Export"). Matchdesk's own XLSX writer also takes less CPU at 100 rows than at 2,000.
 */
export const EXPORT_PAGE_ROWS = 100;
/** An errored row whose stored error has no message (or whose lookup is gone): still says it failed, in words. */
const UNEXPLAINED_ERROR = 'The lookup failed without a message from the service.';
const MATCHED: readonly RowState[] = ['auto', 'accepted'];
/** match_status of a blank row of the sheet: nothing was asked for it. */
export const BLANK_STATUS = 'blank';
/** Outcomes with an answer on file: their strategy and fetch time mean something. */
const ANSWERED: readonly RowState[] = ['to_review', 'no_candidates', 'error'];

/**
 * The sheet as imported, every original column in its original order, then the match columns. Rows longer than
 * the header row (ragged files) get "Column N" headers so no cell is dropped and the match columns line up. The whole
 * project's export has the sheet's rows in its order, its blank rows too (match_status `blank`, the other columns
 * empty), so its match columns can be pasted beside the original. Read a page at a time from SQLite: the sheet is
 * never in memory as a whole.
 */
export function matchExport(db: Database, project: ProjectRecord, scope: ExportScope, { pageRows = PAGE_ROWS, onPage }: ExportPaging = {}): ExportTable {
  const width = originalWidth(db, project);
  const headers = [...project.headers];
  for (let i = headers.length; i < width; i++) headers.push(`Column ${i + 1}`);
  headers.push(...MATCH_COLUMNS);

  async function* rows(): AsyncGenerator<ExportCell[]> {
    for (const page of pages(db, project.id, scope, pageRows)) {
      for (const { cells, status, fetchedAt, error, refresh } of page) {
        const padded: ExportCell[] = cells.slice(0, width);
        while (padded.length < width) padded.push('');
        if (!status) {
          padded.push(BLANK_STATUS);
          while (padded.length < headers.length) padded.push('');
          yield padded;
          continue;
        }
        const chosen = MATCHED.includes(status.state) ? status.chosen : null;
        const answered = ANSWERED.includes(status.outcome);
        // A matched row says how sure the model was of the person chosen; any other row with candidates, of its best one.
        const confidence = chosen ? chosen.confidence : status.verdict?.confidence;
        const reason = chosen ? chosen.reason : status.verdict?.reason;
        padded.push(
          status.state,
          status.source ?? '',
          chosen?.summary.id ?? '',
          chosen?.summary.name ?? '',
          chosen?.summary.title ?? '',
          chosen?.summary.company ?? '',
          chosen?.jobChange?.status ?? '',
          chosen?.jobChange?.date ?? '',
          chosen?.summary.social ?? '',
          chosen?.summary.location ?? '',
          chosen?.score ?? '',
          confidence === undefined ? '' : Math.round(confidence * 1000) / 1000,
          reason ?? '',
          chosen?.rank ?? '',
          answered ? (status.strategy ?? '') : '',
          answered && fetchedAt !== null ? new Date(fetchedAt).toISOString() : '',
          status.decidedAt ?? '',
          status.outcome === 'error' ? (error ?? UNEXPLAINED_ERROR) : '',
          // What the last refresh found, for the person the row still has: another decision since makes it moot.
          chosen ? (refresh?.changed ? 'yes' : 'no') : '',
          chosen && refresh ? (refresh.previousCompany ?? '') : '',
        );
        yield padded;
      }
      onPage?.(page.at(-1)!.rowIndex + 1);
      await nextTurn();
    }
  }
  return { headers, rows: rows() };
}

/** Every candidate of every exported row that has candidates, one line each, with the evidence per input field. */
export function candidatesExport(db: Database, project: ProjectRecord, scope: ExportScope, { pageRows = PAGE_ROWS, onPage }: ExportPaging = {}): ExportTable {
  async function* rows(): AsyncGenerator<ExportCell[]> {
    for (const page of pages(db, project.id, scope, pageRows)) {
      const withCandidates = page.filter((r): r is ExportRow & { status: RowStatusRecord } => r.status?.outcome === 'to_review' && !!r.status.queryKey);
      const facts = answerFacts(
        db,
        withCandidates.map((r) => r.status.queryKey!),
        Number.MIN_SAFE_INTEGER,
      );
      for (const { cells, status } of withCandidates) {
        const candidates = facts.get(status.queryKey!);
        if (!candidates || candidates.length === 0) continue;
        const assessment = assessRow(rowFacts(rowInput(cells, project.mapping)), candidates, status.strategy);
        // Best first, as the review screen lists them; `rank` stays the service's.
        for (const [i, judged] of assessment.candidates.entries()) {
          const s = candidates.find((c) => c.rank === judged.rank)!;
          const mark = (field: EvidenceField) => markOf(judged.evidence, field);
          yield [
            sheetRowNumber(project, status.rowIndex), judged.rank, s.summary.id ?? '', s.summary.name ?? '', s.summary.title ?? '', s.summary.company ?? '', s.summary.social ?? '',
            s.summary.location ?? '', s.score ?? '', Math.round(judged.confidence * 1000) / 1000, i === 0 ? assessment.reason : judged.reason, status.strategy ?? '',
            mark('email'), mark('profile'), mark('name'), mark('company'),
          ];
        }
      }
      onPage?.(page.at(-1)!.rowIndex + 1);
      await nextTurn();
    }
  }
  return { headers: [...CANDIDATE_COLUMNS], rows: rows() };
}

function markOf(evidence: EvidenceItem[], field: EvidenceField): string {
  return evidence.find((e) => e.field === field)?.mark ?? 'missing';
}

interface ExportRow {
  rowIndex: number;
  cells: string[];
  /** Null for a blank row of the sheet (rows/row-cells.ts BLANK_ROW), which has none. */
  status: RowStatusRecord | null;
  fetchedAt: number | null;
  /** What the service said when the row's lookup failed. */
  error: string | null;
  /** The project's last refresh asked for the row's person: what it changed. Null otherwise. */
  refresh: { changed: boolean; previousCompany: string | null } | null;
}

/**
 * Lines the candidates' export of `scope` takes at most, one per row and candidate (a row whose answers were since
 * cleared from the cache has fewer): counted before writing, since an Excel sheet holds only so many.
 */
export function candidateLineCount(db: Database, projectId: number, scope: ExportScope): number {
  const { lastRefresh, filter } = scopeOf(db, projectId, scope);
  return db
    .prepare(
      `SELECT coalesce(sum(rs.candidate_count), 0) FROM row_status rs ${REFRESH_JOIN}
       WHERE rs.project_id = @projectId AND rs.outcome = 'to_review' AND rs.query_key IS NOT NULL ${filter}`,
    )
    .pluck()
    .get({ projectId, lastRefresh }) as number;
}

/** A row's refresh state counts when it is the last refresh's and about the person the row still has. */
const REFRESH_JOIN = `LEFT JOIN row_refreshes rr ON rr.project_id = rs.project_id AND rr.row_index = rs.row_index AND rr.refresh_id = @lastRefresh
       AND rr.slug = ${chosenSlugSql('rs')}`;

/** The project's last refresh (-1: none) and the condition on `rs` (row_status) and `rr` (REFRESH_JOIN) that picks the scope's rows. */
function scopeOf(db: Database, projectId: number, scope: ExportScope): { lastRefresh: number; filter: string } {
  const lastRefresh = lastRefreshOf(db, projectId)?.id ?? -1;
  const filter =
    scope === 'matched'
      ? `AND rs.state IN ('auto', 'accepted')`
      : scope === 'changed'
        ? `AND rs.state IN ('auto', 'accepted') AND rr.changed = 1`
        : '';
  return { lastRefresh, filter };
}

function* pages(db: Database, projectId: number, scope: ExportScope, pageRows = PAGE_ROWS): Generator<ExportRow[]> {
  const { lastRefresh, filter } = scopeOf(db, projectId, scope);
  // All of the rows are the planned ones and the blank rows between them (which have no status), each at its place.
  const blank = scope === 'all' ? `AND (rs.row_index IS NOT NULL OR r.cells = '${BLANK_ROW}')` : '';
  // When the row's answer was fetched is kept with the row: only a failed row's message is read from the cache (a
  // probe into its hash-ordered key index per row was most of a 1M-row export, docs/performance.md).
  const page = db.prepare(
    `SELECT r.row_index AS r_row_index, r.cells, ${rowStatusColumns('rs')},
            CASE WHEN rs.outcome = 'error' THEN (SELECT json_extract(l.error, '$.message') FROM lookups AS l WHERE l.query_key = rs.query_key AND l.status = 'error') END AS error_message,
            rr.changed AS refresh_changed, rr.previous_company AS refresh_previous_company
     FROM rows r
     LEFT JOIN row_status rs ON rs.project_id = r.project_id AND rs.row_index = r.row_index
     ${REFRESH_JOIN}
     WHERE r.project_id = @projectId AND r.row_index >= @from ${filter} ${blank}
     ORDER BY r.row_index LIMIT @limit`,
  );
  type PageRow = RowStatusRow & { r_row_index: number; cells: string; fetched_at: number | null; error_message: string | null; refresh_changed: number | null; refresh_previous_company: string | null };
  for (let from = 0; ; ) {
    const rows = page.all({ projectId, from, limit: pageRows, lastRefresh }) as PageRow[];
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      rowIndex: r.r_row_index,
      cells: parseCells(r.cells),
      status: r.row_index === null ? null : toRowStatus(r),
      fetchedAt: r.fetched_at,
      error: r.error_message,
      refresh: r.refresh_changed === null ? null : { changed: r.refresh_changed === 1, previousCompany: r.refresh_previous_company },
    }));
    from = rows[rows.length - 1]!.r_row_index + 1;
  }
}

function originalWidth(db: Database, project: ProjectRecord): number {
  const widest = db.prepare('SELECT max(json_array_length(cells)) FROM rows WHERE project_id = ?').pluck().get(project.id) as number | null;
  return Math.max(project.headers.length, widest ?? 0);
}
