import type { Database } from 'better-sqlite3';
import type { ReviewPage, ReviewRow } from '../../../shared/contract';
import { JOB_CHANGES, ROW_STATES, type JobChangeStatus, type RowState } from '../../../shared/model';
import { answerFacts } from '../runs/answer-facts';
import { ROW_STATUS_COLUMNS, stateCounts, toRowStatus, type RowStatusRow } from '../runs/row-status';
import { fillRowTextIndex, rowTextMatch } from './row-text-index';

export type ReviewOrder = 'file' | 'confidence_desc' | 'confidence_asc';

export interface ReviewPageRequest {
  states?: RowState[];
  text?: string;
  /** File order (the default), or by the best candidate's confidence. */
  order?: ReviewOrder;
  /** Only matched rows whose person has this job change against the sheet's company. */
  jobChanges?: JobChangeStatus[];
  /** Only matched rows whose person's job changed at the project's last refresh. */
  changedAtLastRefresh?: boolean;
  offset: number;
  limit: number;
}

/**
 * One page of a project's rows in file order, filtered by state and by text in the row's label or cells.
 * The state filter walks the (project_id, state, row_index) index, so a page of a 100,000-row project stays
 * in milliseconds; counts per state are always for the whole project. A text of three characters or more is
 * looked up in the project's text index (filled on the first such filter: seconds for 100,000 rows, once), and
 * matches ignoring case and accents; a shorter one scans the rows with LIKE (letter case of a-z only, accents kept).
 */
export async function reviewPage(db: Database, projectId: number, req: ReviewPageRequest): Promise<ReviewPage> {
  const states = req.states && req.states.length > 0 ? [...new Set(req.states)].filter((s) => ROW_STATES.includes(s)) : null;
  const text = req.text?.trim() ?? '';
  const match = text ? rowTextMatch(text) : null;
  if (match) await fillRowTextIndex(db, projectId);
  const jobChanges = req.jobChanges && req.jobChanges.length > 0 ? [...new Set(req.jobChanges)].filter((j) => JOB_CHANGES.includes(j)) : null;
  const counts = stateCounts(db, projectId);
  const jobChangeCounts = jobChangeCountsOf(db, projectId);
  const lastRefresh = db.prepare('SELECT id, started_at FROM refreshes WHERE project_id = ? ORDER BY id DESC LIMIT 1').get(projectId) as
    | { id: number; started_at: string }
    | undefined;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const changedIn = req.changedAtLastRefresh ? (lastRefresh?.id ?? -1) : null;
  const filter: StatusFilter = { projectId, states, jobChanges, changedIn, order: req.order ?? 'file', offset: req.offset, limit: req.limit };
  const matching = jobChanges || changedIn !== null ? countMatching(db, filter) : states ? states.reduce((n, s) => n + counts[s], 0) : total;
  const { rows, found } = match
    ? indexedTextPage(db, filter, match, total)
    : text
      ? scannedTextPage(db, filter, text, matching, total)
      : { rows: filter.order === 'file' ? statePage(db, filter, matching, total) : confidencePage(db, filter), found: matching };

  const statuses = rows.map(toRowStatus);
  const keys = statuses.filter((s) => !s.chosen && s.outcome === 'to_review' && s.queryKey).map((s) => s.queryKey!);
  const facts = keys.length > 0 ? answerFacts(db, keys, Number.MIN_SAFE_INTEGER) : new Map<string, never[]>();
  const page: ReviewRow[] = statuses.map((s) => {
    let top = s.chosen?.summary ?? null;
    let topScore = s.chosen?.score ?? null;
    if (!top && s.outcome === 'to_review' && s.queryKey) {
      const candidates = facts.get(s.queryKey) ?? [];
      const best = candidates.find((c) => c.rank === s.verdict?.bestRank) ?? candidates[0];
      if (best) {
        top = best.summary;
        topScore = best.score;
      }
    }
    const chosenVerdict = s.chosen?.confidence !== undefined;
    return {
      rowIndex: s.rowIndex,
      state: s.state,
      label: s.label,
      top,
      topScore,
      confidence: chosenVerdict ? s.chosen!.confidence! : (s.verdict?.confidence ?? null),
      reason: chosenVerdict ? (s.chosen!.reason ?? null) : (s.verdict?.reason ?? null),
      bestRank: s.verdict?.bestRank ?? null,
      jobChange: s.state === 'auto' || s.state === 'accepted' ? (s.chosen?.jobChange ?? null) : null,
      strategy: s.strategy,
      candidateCount: s.candidateCount,
      chosenRank: s.chosenRank,
    };
  });
  return {
    rows: page,
    total: found,
    counts,
    jobChanges: jobChangeCounts,
    changedAtLastRefresh: lastRefresh ? changedAtRefresh(db, projectId, lastRefresh.id) : 0,
    lastRefreshAt: lastRefresh?.started_at ?? null,
  };
}

/**
 * A matched row changed at a refresh when that refresh asked for the person the row still has and found them
 * elsewhere (refresh/refreshed-choice.ts jobChanged). Over the index of changed rows, then each row's status.
 */
const CHANGED_AT_REFRESH = `EXISTS (SELECT 1 FROM row_refreshes AS rr WHERE rr.project_id = rs.project_id AND rr.row_index = rs.row_index
  AND rr.refresh_id = ? AND rr.changed = 1 AND rr.slug = json_extract(rs.chosen, '$.summary.social'))`;

/** Matched rows whose person's job changed at the refresh `refreshId`. */
export function changedAtRefresh(db: Database, projectId: number, refreshId: number): number {
  return db
    .prepare(
      `SELECT count(*) FROM row_refreshes AS rr INDEXED BY row_refreshes_changed
       JOIN row_status AS rs ON rs.project_id = rr.project_id AND rs.row_index = rr.row_index
       WHERE rr.project_id = ? AND rr.refresh_id = ? AND rr.changed = 1
         AND rs.state IN ('auto', 'accepted') AND rr.slug = json_extract(rs.chosen, '$.summary.social')`,
    )
    .pluck()
    .get(projectId, refreshId) as number;
}

export function noJobChanges(): Record<JobChangeStatus, number> {
  return Object.fromEntries(JOB_CHANGES.map((j) => [j, 0])) as Record<JobChangeStatus, number>;
}

/** Matched rows per job change, for the whole project: a walk over the job-change index. */
export function jobChangeCountsOf(db: Database, projectId: number): Record<JobChangeStatus, number> {
  const counts = noJobChanges();
  const rows = db
    .prepare('SELECT job_change AS j, count(*) AS n FROM row_status WHERE project_id = ? AND job_change IS NOT NULL GROUP BY job_change')
    .all(projectId) as { j: JobChangeStatus; n: number }[];
  for (const { j, n } of rows) if (j in counts) counts[j] = n;
  return counts;
}

function countMatching(db: Database, f: StatusFilter): number {
  const where = stateWhere(f);
  return db.prepare(`SELECT count(*) FROM row_status AS rs WHERE rs.project_id = ?${where.sql}`).pluck().get(f.projectId, ...where.params) as number;
}

interface StatusFilter {
  projectId: number;
  states: RowState[] | null;
  jobChanges: JobChangeStatus[] | null;
  /** Only rows changed at this refresh (the project's last); null without that filter. */
  changedIn: number | null;
  order: ReviewOrder;
  offset: number;
  limit: number;
}

const STATUS_COLUMNS = ROW_STATUS_COLUMNS.split(', ')
  .map((c) => `rs.${c}`)
  .join(', ');

/** The state (and job-change) condition on row_status (alias rs) and its parameters; none without a filter. */
function stateWhere(f: StatusFilter, column = 'rs.state'): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.states) {
    parts.push(` AND ${column} IN (${f.states.map(() => '?').join(', ')})`);
    params.push(...f.states);
  }
  if (f.jobChanges) {
    parts.push(` AND rs.job_change IN (${f.jobChanges.map(() => '?').join(', ')})`);
    params.push(...f.jobChanges);
  }
  if (f.changedIn !== null) {
    parts.push(` AND rs.state IN ('auto', 'accepted') AND ${CHANGED_AT_REFRESH}`);
    params.push(f.changedIn);
  }
  return { sql: parts.join(''), params };
}

// A rare state is found fastest through the state index; a common one by walking rows in order until the page is
// full. SQLite has no statistics to choose by, so the counts at hand decide.
function stateHint(f: StatusFilter, matching: number, total: number): string {
  return f.states && matching * 20 < total ? 'INDEXED BY row_status_by_state' : '';
}

function statePage(db: Database, f: StatusFilter, matching: number, total: number): RowStatusRow[] {
  const where = stateWhere(f);
  return db
    .prepare(
      `SELECT ${STATUS_COLUMNS} FROM row_status AS rs ${stateHint(f, matching, total)}
       WHERE rs.project_id = ?${where.sql} ORDER BY rs.row_index LIMIT ? OFFSET ?`,
    )
    .all(f.projectId, ...where.params, f.limit, f.offset) as RowStatusRow[];
}

/**
 * Rows by their best candidate's confidence, rows without candidates last, file order among equals. With a state
 * filter each state's slice of the confidence index is read in order and merged; without one it is the whole index.
 */
function confidencePage(db: Database, f: StatusFilter): RowStatusRow[] {
  const where = stateWhere(f);
  const direction = f.order === 'confidence_asc' ? 'ASC' : 'DESC';
  return db
    .prepare(
      `SELECT ${STATUS_COLUMNS} FROM row_status AS rs
       WHERE rs.project_id = ?${where.sql}
       ORDER BY rs.confidence IS NULL, rs.confidence ${direction}, rs.row_index LIMIT ? OFFSET ?`,
    )
    .all(f.projectId, ...where.params, f.limit, f.offset) as RowStatusRow[];
}

/**
 * The index yields matching rows in row order (rowid = project << 32 | row), so a page is read straight off it.
 * With a state filter (or while some rows have no status yet) each match is checked against its status in one
 * pass, the index staying the outer loop (CROSS JOIN), and the count and the page both come from that pass.
 */
function indexedTextPage(db: Database, f: StatusFilter, match: string, statuses: number): { rows: RowStatusRow[]; found: number } {
  const documents = 'd.row_text MATCH ? AND d.rowid BETWEEN (? << 32) AND (? << 32) + 4294967295';
  const params = [match, f.projectId, f.projectId];
  // Once every row has a status (all but during a project's first plan), the documents are counted without a join.
  const rowCount = db.prepare('SELECT row_count FROM projects WHERE id = ?').pluck().get(f.projectId) as number | undefined;
  if (!f.states && statuses >= (rowCount ?? 0)) {
    const found = db.prepare(`SELECT count(*) FROM row_text AS d WHERE ${documents}`).pluck().get(...params) as number;
    const rowIndexes = db
      .prepare(`SELECT d.rowid & 4294967295 FROM row_text AS d WHERE ${documents} ORDER BY d.rowid LIMIT ? OFFSET ?`)
      .pluck()
      .all(...params, f.limit, f.offset) as number[];
    return { rows: statusesOf(db, f.projectId, rowIndexes), found };
  }
  // "+": each match reads its status by primary key; through the state index it was twice as slow (one probe per state).
  const where = stateWhere(f, '+rs.state');
  const rowIndexes = db
    .prepare(
      `SELECT rs.row_index FROM row_text AS d CROSS JOIN row_status AS rs ON rs.project_id = ? AND rs.row_index = d.rowid & 4294967295
       WHERE ${documents}${where.sql} ORDER BY d.rowid`,
    )
    .pluck()
    .all(f.projectId, ...params, ...where.params) as number[];
  return { rows: statusesOf(db, f.projectId, rowIndexes.slice(f.offset, f.offset + f.limit)), found: rowIndexes.length };
}

/** One pass over the rows finds every match: the count and the page come from it. */
function scannedTextPage(db: Database, f: StatusFilter, text: string, matching: number, total: number): { rows: RowStatusRow[]; found: number } {
  const where = stateWhere(f);
  const pattern = `%${escapeLike(text)}%`;
  // Cells are stored as JSON: a quote or backslash in the search is escaped the way JSON writes it.
  const cellPattern = `%${escapeLike(JSON.stringify(text).slice(1, -1))}%`;
  const rowIndexes = db
    .prepare(
      `SELECT rs.row_index FROM row_status AS rs ${stateHint(f, matching, total)}
       JOIN rows AS r ON r.project_id = rs.project_id AND r.row_index = rs.row_index
       WHERE rs.project_id = ?${where.sql} AND (rs.label LIKE ? ESCAPE '\\' OR r.cells LIKE ? ESCAPE '\\')
       ORDER BY rs.row_index`,
    )
    .pluck()
    .all(f.projectId, ...where.params, pattern, cellPattern) as number[];
  return { rows: statusesOf(db, f.projectId, rowIndexes.slice(f.offset, f.offset + f.limit)), found: rowIndexes.length };
}

function statusesOf(db: Database, projectId: number, rowIndexes: number[]): RowStatusRow[] {
  if (rowIndexes.length === 0) return [];
  return db
    .prepare(`SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? AND row_index IN (SELECT value FROM json_each(?)) ORDER BY row_index`)
    .all(projectId, JSON.stringify(rowIndexes)) as RowStatusRow[];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
