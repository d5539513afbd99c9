import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { EvidenceField, EvidenceItem, RowState, Strategy } from '../../../shared/model';
import type { ExportCell, ExportRows } from '../export';
import { assessRow, rowFacts, rowInput } from '../matching';
import { sheetRowNumber, type ProjectRecord } from '../rows/project-record';
import { answerFacts } from './answer-facts';
import { BLANK_ROW, parseCells } from '../rows/row-cells';
import { chosenColumns, chosenPersonJoin, chosenSlugOf, decidedAtOf, exportedChoice, exportedSlug, type ChosenColumns, type ExportedChoice } from '../rows/row-status';
import { ExportSummaries } from './export-summaries';
import { lastRefreshOf } from '../store/refresh-tables';
import { statement } from '../store/statements';

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
  rows: ExportRows;
}

export interface ExportPaging {
  /** Rows per read from SQLite (PAGE_ROWS when not given). */
  pageRows?: number;
  /** Only the rows from `from` up to `to` (row indexes, both included; the whole project when not given). */
  rows?: RowRange;
  /** Told after each page is written: the project's rows gone through so far (filtered out ones included). */
  onPage?: (rowsDone: number) => void;
}

/** Row indexes from `from` to `to`, both included. */
export interface RowRange {
  from: number;
  to: number;
}

const EVERY_ROW: RowRange = { from: 0, to: Number.MAX_SAFE_INTEGER };

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
export function matchExport(db: Database, project: ProjectRecord, scope: ExportScope, { pageRows = PAGE_ROWS, rows = EVERY_ROW, onPage }: ExportPaging = {}, width = originalWidth(db, project)): ExportTable {
  const headers = [...project.headers];
  for (let i = headers.length; i < width; i++) headers.push(`Column ${i + 1}`);
  headers.push(...MATCH_COLUMNS);

  // Handed over a page at a time (export/row-pages.ts).
  async function* lines(): AsyncGenerator<ExportCell[][]> {
    const fetchTimes = new FetchTimes();
    const summaries = await summariesOf(db, project.id, scope, rows);
    for (const page of pages(db, project.id, scope, pageRows, summaries, rows)) {
      yield page.map((row) => matchLine(row, width, fetchTimes));
      onPage?.(page.at(-1)!.rowIndex + 1);
      await nextTurn();
    }
  }
  return { headers, rows: { pages: lines() } };
}

/**
 * A row of the matches export: its cells padded to `width`, then the match columns, in an array made at its length
 * (pushed onto the parsed cells, it was copied twice as it grew).
 */
function matchLine({ cells, result }: ExportRow, width: number, fetchTimes: FetchTimes): ExportCell[] {
  const line = new Array<ExportCell>(width + MATCH_COLUMNS.length);
  const parsed = parseCells(cells);
  for (let i = 0; i < width; i++) line[i] = i < parsed.length ? parsed[i]! : '';
  if (!result) {
    line[width] = BLANK_STATUS;
    return line.fill('', width + 1);
  }
  const { state, outcome, chosen, refresh } = result;
  const answered = ANSWERED.includes(outcome);
  // A matched row says how sure the model was of the person chosen; any other row with candidates, of its best one.
  const confidence = chosen ? chosen.confidence : result.verdict?.confidence;
  const reason = chosen ? chosen.reason : result.verdict?.reason;
  const summary = chosen?.summary;
  // In MATCH_COLUMNS' order.
  let at = width;
  line[at++] = state;
  line[at++] = result.source ?? '';
  line[at++] = summary?.id ?? '';
  line[at++] = summary?.name ?? '';
  line[at++] = summary?.title ?? '';
  line[at++] = summary?.company ?? '';
  line[at++] = chosen?.jobChange?.status ?? '';
  line[at++] = chosen?.jobChange?.date ?? '';
  line[at++] = summary?.social ?? '';
  line[at++] = summary?.location ?? '';
  line[at++] = chosen?.score ?? '';
  line[at++] = confidence === undefined ? '' : Math.round(confidence * 1000) / 1000;
  line[at++] = reason ?? '';
  line[at++] = chosen?.rank ?? '';
  line[at++] = answered ? (result.strategy ?? '') : '';
  line[at++] = answered && result.fetchedAt !== null ? fetchTimes.text(result.fetchedAt) : '';
  line[at++] = result.decidedAt ?? '';
  line[at++] = outcome === 'error' ? (result.error ?? UNEXPLAINED_ERROR) : '';
  // What the last refresh found, for the person the row still has: another decision since makes it moot.
  line[at++] = chosen ? (refresh?.changed ? 'yes' : 'no') : '';
  line[at++] = chosen && refresh ? (refresh.previousCompany ?? '') : '';
  return line;
}

/** A million-row sheet's first run makes about 6,000 calls, so its fetch times all stay (a few hundred kB). */
const FETCH_TIMES_KEPT = 16_384;

/**
 * Fetch times' ISO texts, each made once: a call's answers share one fetch time, and the rows of a page come from
 * a few calls. Forgotten past FETCH_TIMES_KEPT, so a sheet of a million calls does not keep them all.
 */
class FetchTimes {
  private readonly texts = new Map<number, string>();
  // A call's rows mostly follow one another: the last text is tried before the map (a lookup by a time's double).
  private lastMs = Number.NaN;
  private lastText = '';

  text(ms: number): string {
    if (ms === this.lastMs) return this.lastText;
    let text = this.texts.get(ms);
    if (text === undefined) {
      if (this.texts.size >= FETCH_TIMES_KEPT) this.texts.clear();
      text = new Date(ms).toISOString();
      this.texts.set(ms, text);
    }
    this.lastMs = ms;
    this.lastText = text;
    return text;
  }
}

/** Every candidate of every exported row that has candidates, one line each, with the evidence per input field. */
export function candidatesExport(db: Database, project: ProjectRecord, scope: ExportScope, { pageRows = PAGE_ROWS, onPage }: ExportPaging = {}): ExportTable {
  async function* rows(): AsyncGenerator<ExportCell[]> {
    for (const page of pages(db, project.id, scope, pageRows, null)) {
      const withCandidates = page.filter((r): r is ExportRow & { result: RowResult & { queryId: number } } => r.result?.outcome === 'to_review' && r.result.queryId !== null);
      const facts = answerFacts(
        db,
        withCandidates.map((r) => r.result.queryId),
        Number.MIN_SAFE_INTEGER,
      );
      for (const { rowIndex, cells, result } of withCandidates) {
        const candidates = facts.get(result.queryId);
        if (!candidates || candidates.length === 0) continue;
        const assessment = assessRow(rowFacts(rowInput(parseCells(cells), project.mapping)), candidates, result.strategy);
        // Best first, as the review screen lists them; `rank` stays the service's.
        for (const [i, judged] of assessment.candidates.entries()) {
          const s = candidates.find((c) => c.rank === judged.rank)!;
          const mark = (field: EvidenceField) => markOf(judged.evidence, field);
          yield [
            sheetRowNumber(project, rowIndex), judged.rank, s.summary.id ?? '', s.summary.name ?? '', s.summary.title ?? '', s.summary.company ?? '', s.summary.social ?? '',
            s.summary.location ?? '', s.score ?? '', Math.round(judged.confidence * 1000) / 1000, i === 0 ? assessment.reason : judged.reason, result.strategy ?? '',
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
  /** The row's cells as stored (rows/row-cells.ts): parsed only when the row is written. */
  cells: string;
  /** Null for a blank row of the sheet (rows/row-cells.ts BLANK_ROW), which has none. */
  result: RowResult | null;
}

/** A row that has no status yet: what a first plan gives it. */
const NOT_PLANNED: RowResult = { state: 'pending', outcome: 'pending', source: null, strategy: null, queryId: null, fetchedAt: null, decidedAt: null, verdict: null, chosen: null, error: null, refresh: null };

/** What an export writes of a row's result: its row_status, the person it has and what the last refresh found. */
interface RowResult {
  state: RowState;
  outcome: RowState;
  source: 'auto' | 'manual' | null;
  strategy: Strategy | null;
  /** Read only for a row with candidates (the candidates' export reads their answer by it): the rest write none. */
  queryId: number | null;
  /** When the answer that settled the row was fetched (ms). */
  fetchedAt: number | null;
  decidedAt: string | null;
  /** The model's view of the row's best candidate, when it has candidates. */
  verdict: { confidence: number; reason: string } | null;
  /** The person of a matched row (auto or accepted); null for any other. */
  chosen: ExportedChoice | null;
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
  const { lastRefresh, statusFrom } = scopeOf(db, projectId, scope);
  return db
    .prepare(`SELECT coalesce(sum(rs.candidate_count), 0) ${statusFrom} AND rs.outcome = 'to_review' AND rs.query_id IS NOT NULL`)
    .pluck()
    .get({ projectId, lastRefresh }) as number;
}

/**
 * Rows of `rows` the matches' export of `scope` (not the whole sheet's) writes: those of its status, as pages reads
 * them. An Excel export's second half numbers its rows on from the first half's count (runs/export-halves.ts).
 */
export function scopeRowCount(db: Database, projectId: number, scope: Exclude<ExportScope, 'all'>, rows: RowRange): number {
  const { lastRefresh, statusFrom } = scopeOf(db, projectId, scope);
  return db
    .prepare(`SELECT count(*) ${statusFrom} AND rs.row_index BETWEEN @from AND @to`)
    .pluck()
    .get({ projectId, lastRefresh, from: rows.from, to: rows.to }) as number;
}

/**
 * The project's last refresh (-1: none); the join of a row_status `rs`, its chosen person's `people` row joined as `p`
 * (chosenPersonJoin), to what the last refresh found (`rr`), whose columns `refresh` names, needed only to pick the
 * changed rows (pages reads the rest a page at a time); and the condition that picks the scope's rows. A row's refresh
 * state counts when it is the last refresh's and about the person the row still has. `statusFrom` is the FROM and WHERE
 * of the scope's row_status rows (`@projectId`, `@lastRefresh`), for more conditions to follow with AND.
 */
function scopeOf(db: Database, projectId: number, scope: ExportScope): { lastRefresh: number; refresh: string; refreshJoin: string; statusFrom: string } {
  const lastRefresh = lastRefreshOf(db, projectId)?.id ?? -1;
  const matched = `AND rs.state IN ('auto', 'accepted')`;
  const of = (refreshJoin: string, refresh: string, filter: string) => ({
    lastRefresh,
    refresh,
    refreshJoin,
    statusFrom: `FROM row_status rs ${refreshJoin && `${chosenPersonJoin('rs', 'p')} ${refreshJoin}`} WHERE rs.project_id = @projectId ${filter}`,
  });
  if (scope !== 'changed') return of('', 'NULL, NULL', scope === 'matched' ? matched : '');
  if (lastRefresh === -1) return of('', 'NULL, NULL', 'AND 0');
  const refreshJoin = `LEFT JOIN row_refreshes rr ON rr.project_id = rs.project_id AND rr.row_index = rs.row_index AND rr.refresh_id = @lastRefresh
       AND rr.slug = ${chosenSlugOf('rs', 'p')}`;
  return of(refreshJoin, 'rr.changed, rr.previous_company', `${matched} AND rr.changed = 1`);
}

/**
 * The rows an export goes through, a page at a time in row order: the one read of a row's result. A page's row_status
 * and its cells are read by two statements walking their tables side by side (a join looked each row's status up
 * again), as arrays of their columns, not objects. A matched row's person comes from `summaries` (export-summaries.ts);
 * without them (the candidates' export, which writes none) its summary is left empty.
 */
function* pages(db: Database, projectId: number, scope: ExportScope, pageRows: number, summaries: ExportSummaries | null, rows = EVERY_ROW): Generator<ExportRow[]> {
  const { lastRefresh, refreshJoin, refresh, statusFrom } = scopeOf(db, projectId, scope);
  // When the row's answer was fetched is kept with the row: only a failed row's message is read from the cache (a
  // probe into its hash-ordered key index per row was most of a 1M-row export, docs/performance.md).
  const statusColumns = `rs.row_index, rs.state, rs.outcome, rs.source, rs.strategy, CASE WHEN rs.outcome = 'to_review' THEN rs.query_id END,
            rs.fetched_at, rs.decided_at,
            CASE WHEN rs.best_rank IS NOT NULL THEN rs.confidence END, rs.reason,
            CASE WHEN rs.outcome = 'error' THEN (SELECT json_extract(l.error, '$.message') FROM lookups AS l WHERE l.query_id = rs.query_id AND l.status = 'error') END,
            ${refresh}, ${chosenColumns('rs')}`;
  type StatusRow = [
    rowIndex: number,
    state: RowState,
    outcome: RowState,
    source: RowResult['source'],
    strategy: Strategy | null,
    queryId: number | null,
    fetchedAt: number | null,
    decidedAt: string | null,
    confidence: number | null,
    reason: string | null,
    error: string | null,
    refreshChanged: number | null,
    refreshPreviousCompany: string | null,
    ...chosen: ChosenColumns,
  ];
  /** Where a StatusRow's ChosenColumns begin. */
  const CHOSEN_AT = 13;
  // The whole project's export goes through the sheet's rows, a page at a time, with the status of those that have one;
  // a scope's rows are found by their status first, a page at a time, and their cells read after.
  const whole = scope === 'all';
  const statusPage = db
    .prepare(
      whole
        ? `SELECT ${statusColumns} ${statusFrom} AND rs.row_index BETWEEN @from AND @to ORDER BY rs.row_index`
        : `SELECT ${statusColumns} ${statusFrom} AND rs.row_index BETWEEN @from AND @last ORDER BY rs.row_index LIMIT @limit`,
    )
    .raw();
  const cellsPage = whole
    ? statement(db, 'SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index BETWEEN ? AND ? ORDER BY row_index LIMIT ?').raw()
    : statement(db, 'SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index BETWEEN ? AND ? ORDER BY row_index').raw();
  const cellsOf = statement(db, 'SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index = ?').raw();
  // What the last refresh found, read a page's span at a time rather than probed for each row, and
  // matched with each row's person in JavaScript; the changed rows' export joins it, to pick them.
  const pageRefreshes = lastRefresh === -1 || refreshJoin ? null : statement(db, PAGE_REFRESHES_SQL).raw();
  for (let from = rows.from; from <= rows.to; ) {
    let cells: [rowIndex: number, cells: string][];
    let status: StatusRow[];
    if (whole) {
      cells = cellsPage.all(projectId, from, rows.to, pageRows) as typeof cells;
      if (cells.length === 0) return;
      status = statusPage.all({ projectId, from, to: cells[cells.length - 1]![0], lastRefresh }) as StatusRow[];
    } else {
      status = statusPage.all({ projectId, from, last: rows.to, limit: pageRows, lastRefresh }) as StatusRow[];
      if (status.length === 0) return;
      const first = status[0]![0];
      const last = status[status.length - 1]![0];
      // A scope's rows lie close together (the matched ones) or far apart (the changed ones): a span read whole, or
      // each row's cells found by its key.
      if (last - first < 4 * pageRows) {
        cells = cellsPage.all(projectId, first, last) as typeof cells;
      } else {
        cells = [];
        for (const [rowIndex] of status) {
          const found = cellsOf.get(projectId, rowIndex) as [number, string] | undefined;
          if (found) cells.push(found);
        }
      }
    }
    const to = whole ? cells[cells.length - 1]![0] : status[status.length - 1]![0];
    const refreshes = new Map<number, PageRefresh>();
    if (pageRefreshes) {
      for (const found of pageRefreshes.all(projectId, lastRefresh, from, to) as PageRefresh[]) refreshes.set(found[0], found);
    }
    const page: ExportRow[] = [];
    let next = 0;
    // Rows read by index, not destructured: destructuring an array goes through an iterator, an object or more a row.
    for (let i = 0; i < cells.length; i++) {
      const rowIndex = cells[i]![0];
      const rowCells = cells[i]![1];
      while (next < status.length && status[next]![0] < rowIndex) next++;
      const row = status[next];
      if (row === undefined || row[0] !== rowIndex) {
        // All of the rows, each at its place: a blank row (which has no status) as blank, one not planned yet (a run
        // following the project's first plan goes on) as pending.
        if (whole) page.push({ rowIndex, cells: rowCells, result: rowCells === BLANK_ROW ? null : NOT_PLANNED });
        continue;
      }
      next++;
      const state = row[1];
      const fetchedAt = row[6];
      const reason = row[9];
      const changed = row[11];
      const columns = row.slice(CHOSEN_AT) as ChosenColumns;
      const personId = columns[1];
      const matched = state === 'auto' || state === 'accepted';
      const chosen = matched ? exportedChoice(columns, reason, personId === null || !summaries ? null : summaries.summaryOf(personId)) : null;
      let refresh = changed === null ? null : { changed: changed === 1, previousCompany: row[12] };
      const found = refreshes.get(rowIndex);
      if (found && chosen && found[1] === exportedSlug(personId !== null && summaries !== null && summaries.fromRecord(personId), chosen)) {
        refresh = { changed: found[2] === 1, previousCompany: found[3] };
      }
      page.push({
        rowIndex,
        cells: rowCells,
        result: {
          state,
          outcome: row[2],
          source: row[3],
          strategy: row[4],
          queryId: row[5],
          fetchedAt,
          decidedAt: decidedAtOf(row[7], fetchedAt),
          verdict: row[8] === null ? null : { confidence: row[8], reason: reason ?? '' },
          chosen,
          error: row[10],
          refresh,
        },
      });
    }
    if (page.length > 0) yield page;
    from = to + 1;
  }
}

/** The people chosen by the rows of `rows` an export of `scope` goes through (ExportSummaries). */
function summariesOf(db: Database, projectId: number, scope: ExportScope, rows: RowRange): Promise<ExportSummaries> {
  const { lastRefresh, statusFrom } = scopeOf(db, projectId, scope);
  return ExportSummaries.read(db, statusFrom, { projectId, lastRefresh }, { span: rows });
}

/** A page's rows that the last refresh asked about: row_index, the profile it asked for, changed, previous_company. */
type PageRefresh = [rowIndex: number, slug: string, changed: number, previousCompany: string | null];
const PAGE_REFRESHES_SQL = `SELECT row_index, slug, changed, previous_company FROM row_refreshes
  WHERE project_id = ? AND refresh_id = ? AND row_index BETWEEN ? AND ?`;

export function originalWidth(db: Database, project: ProjectRecord): number {
  // The import warns of any row whose width is not the header's (sheets/table-scan.ts): without that warning no row
  // is wider, and the rows need not be read through for their widths.
  if (!project.warnings.some((w) => w.code === 'ragged_rows')) return project.headers.length;
  const widest = db.prepare('SELECT max(json_array_length(cells)) FROM rows WHERE project_id = ?').pluck().get(project.id) as number | null;
  return Math.max(project.headers.length, widest ?? 0);
}
