import type { Database } from 'better-sqlite3';
import type { ReviewPage, ReviewRow } from '../../../shared/contract';
import { JOB_CHANGES, ROW_STATES, type JobChangeStatus, type RowState } from '../../../shared/model';
import { answerFacts } from '../runs/answer-facts';
import { ROW_STATUS_COLUMNS, stateCounts, toRowStatus, type RowStatusRow } from '../runs/row-status';
import { fillRowTextIndex, rowTextMatch } from './row-text-index';
import { StampedCache } from '../store/data-stamp';
import { lastRefreshOf } from '../store/refresh-tables';

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
  const jobChangesNow = jobChangeCountsOf(db, projectId);
  const lastRefresh = lastRefreshOf(db, projectId);
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
    jobChanges: jobChangesNow,
    changedAtLastRefresh: lastRefresh ? changedAtRefresh(db, projectId, lastRefresh.id) : 0,
    lastRefreshAt: lastRefresh?.startedAt ?? null,
  };
}

/**
 * A matched row changed at a refresh when that refresh asked for the person the row still has and found them
 * elsewhere (refresh/refreshed-choice.ts jobChanged). Over the index of changed rows, then each row's status.
 */
const CHANGED_AT_REFRESH = `EXISTS (SELECT 1 FROM row_refreshes AS rr WHERE rr.project_id = rs.project_id AND rr.row_index = rs.row_index
  AND rr.refresh_id = ? AND rr.changed = 1 AND rr.slug = json_extract(rs.chosen, '$.summary.social'))`;

const changedCounts = new StampedCache<number>();

/**
 * Matched rows whose person's job changed at the refresh `refreshId`: kept until the data changes, as every review
 * page shows it (each changed row's chosen person is read from its JSON: ~90 ms a page at 100k rows, 14k changed).
 */
export function changedAtRefresh(db: Database, projectId: number, refreshId: number): number {
  return changedCounts.get(db, `${projectId}:${refreshId}`, () => db
    .prepare(
      `SELECT count(*) FROM row_refreshes AS rr INDEXED BY row_refreshes_changed
       JOIN row_status AS rs ON rs.project_id = rr.project_id AND rs.row_index = rr.row_index
       WHERE rr.project_id = ? AND rr.refresh_id = ? AND rr.changed = 1
         AND rs.state IN ('auto', 'accepted') AND rr.slug = json_extract(rs.chosen, '$.summary.social')`,
    )
    .pluck()
    .get(projectId, refreshId) as number);
}

export function noJobChanges(): Record<JobChangeStatus, number> {
  return Object.fromEntries(JOB_CHANGES.map((j) => [j, 0])) as Record<JobChangeStatus, number>;
}

const jobChangeCounts = new StampedCache<Record<JobChangeStatus, number>>();

/** Matched rows per job change, for the whole project: a walk over the job-change index, kept until the data changes. */
export function jobChangeCountsOf(db: Database, projectId: number): Record<JobChangeStatus, number> {
  return {
    ...jobChangeCounts.get(db, String(projectId), () => {
      const counts = noJobChanges();
      const rows = db
        .prepare('SELECT job_change AS j, count(*) AS n FROM row_status WHERE project_id = ? AND job_change IS NOT NULL GROUP BY job_change')
        .all(projectId) as { j: JobChangeStatus; n: number }[];
      for (const { j, n } of rows) if (j in counts) counts[j] = n;
      return counts;
    }),
  };
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

/** Every STRIDE-th match of a filtered list is remembered, so a page starts at most STRIDE - 1 rows from its own. */
const STRIDE = 200;

/** A filtered list, walked once: how many rows it has, and the sort key (row index or document id) of every STRIDE-th. */
interface ListMarks {
  total: number;
  marks: number[];
}
const listMarks = new StampedCache<ListMarks>(16);

/**
 * Walks the `ordered` query (its one column: the sort key) once in key order, keeping the count and every STRIDE-th
 * key, instead of stepping over every earlier row again for each page (OFFSET 900000 reads 900,000 index entries:
 * ~100 ms for a million rows). The keys come back in one array rather than through window functions, which sorted
 * them again in a temporary B-tree: at 1M rows, 826k "auto" rows took 747 ms that way and 95 ms this way.
 */
function marksOf(db: Database, key: string, ordered: string, params: unknown[]): ListMarks {
  return listMarks.get(db, key, () => {
    const keys = db.prepare(`${ordered} ORDER BY k`).pluck().all(...params) as number[];
    const marks: number[] = [];
    for (let i = 0; i < keys.length; i += STRIDE) marks.push(keys[i]!);
    return { total: keys.length, marks };
  });
}

/**
 * The row indexes a text filter matches, in row order: 4 bytes a match, so at most 32 MB for eight lists of a 1M-row
 * project that each match every row. Four were too few: the bench's six filters in turn found none kept, and at 1M its
 * text pages took p50 20 ms / p95 113 ms walking their lists again.
 */
const textMatches = new StampedCache<Uint32Array>(8);

/**
 * Every row a text filter matches, walked once and kept until the data changes. FTS5 reads a phrase's position
 * lists from their start whatever rowid a query starts at, so at 1M rows a page of "engineer" 90% down took
 * 35 ms in the index query alone (4 ms 10% down); from the kept list any page is a slice.
 */
function matchList(db: Database, key: string, ordered: string, params: unknown[], rowIndexOf: (k: number) => number): Uint32Array {
  // All rows in one call rather than stepping an iterator: at 1M rows "engineer" (122k matches) took 111 ms stepped
  // and 44 ms at once, of which FTS5's own walk is ~34 ms.
  return textMatches.get(db, key, () => Uint32Array.from(db.prepare(`${ordered} ORDER BY k`).pluck().all(...params) as number[], rowIndexOf));
}

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
  const select = (from: number, skip: number, hint: string) =>
    db
      .prepare(
        `SELECT ${STATUS_COLUMNS} FROM row_status AS rs ${hint}
         WHERE rs.project_id = ? AND rs.row_index >= ?${where.sql} ORDER BY rs.row_index LIMIT ? OFFSET ?`,
      )
      .all(f.projectId, from, ...where.params, f.limit, skip) as RowStatusRow[];
  if (!f.states && !f.jobChanges && f.changedIn === null) {
    // Row indexes run 0..n-1 once every row has a status (imports number rows densely): a page is a range of them.
    const last = db.prepare('SELECT max(row_index) FROM row_status WHERE project_id = ?').pluck().get(f.projectId) as number | null;
    if (last !== null && last + 1 === total) return select(f.offset, 0, '');
  }
  if (f.offset < STRIDE) return select(0, f.offset, stateHint(f, matching, total));
  const marks = marksOf(
    db,
    `state ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn}`,
    `SELECT rs.row_index AS k FROM row_status AS rs WHERE rs.project_id = ?${where.sql}`,
    [f.projectId, ...where.params],
  );
  if (f.offset >= marks.total) return [];
  const i = Math.floor(f.offset / STRIDE);
  // Read from the mark on, a page is found by walking rows in order whatever the state: no index hint.
  return select(marks.marks[i]!, f.offset - i * STRIDE, '');
}

/**
 * Rows by their best candidate's confidence, rows without candidates last, file order among equals. The queue of rows
 * to review alone is read straight off its confidence index (equals then in file order going up, the other way
 * going down); any other filter sorts the rows it matches.
 */
function confidencePage(db: Database, f: StatusFilter): RowStatusRow[] {
  const direction = f.order === 'confidence_asc' ? 'ASC' : 'DESC';
  if (f.states?.length === 1 && f.states[0] === 'to_review' && !f.jobChanges && f.changedIn === null) {
    return db
      .prepare(
        `SELECT ${STATUS_COLUMNS} FROM row_status AS rs INDEXED BY row_status_to_review_by_confidence
         WHERE rs.project_id = ? AND rs.state = 'to_review' ORDER BY rs.confidence ${direction}, rs.row_index ${direction} LIMIT ? OFFSET ?`,
      )
      .all(f.projectId, f.limit, f.offset) as RowStatusRow[];
  }
  const where = stateWhere(f);
  return db
    .prepare(
      `SELECT ${STATUS_COLUMNS} FROM row_status AS rs
       WHERE rs.project_id = ?${where.sql}
       ORDER BY rs.confidence IS NULL, rs.confidence ${direction}, rs.row_index LIMIT ? OFFSET ?`,
    )
    .all(f.projectId, ...where.params, f.limit, f.offset) as RowStatusRow[];
}

/**
 * The index yields matching rows in row order (rowid = project << 32 | row). With a state filter (or while some rows
 * have no status yet) each match is checked against its status in the same walk, the index staying the outer loop
 * (CROSS JOIN).
 */
function indexedTextPage(db: Database, f: StatusFilter, match: string, statuses: number): { rows: RowStatusRow[]; found: number } {
  const documents = 'd.row_text MATCH ? AND d.rowid BETWEEN (? << 32) AND (? << 32) + 4294967295';
  const params = [match, f.projectId, f.projectId];
  // Once every row has a status (all but during a project's first plan), the documents are read without a join.
  const rowCount = db.prepare('SELECT row_count FROM projects WHERE id = ?').pluck().get(f.projectId) as number | undefined;
  const join = !!f.states || !!f.jobChanges || f.changedIn !== null || statuses < (rowCount ?? 0);
  // "+": each match reads its status by primary key; through the state index it was twice as slow (one probe per state).
  const where = stateWhere(f, '+rs.state');
  const matches = join
    ? `SELECT d.rowid AS k FROM row_text AS d CROSS JOIN row_status AS rs ON rs.project_id = ? AND rs.row_index = d.rowid & 4294967295
       WHERE ${documents}${where.sql}`
    : `SELECT d.rowid AS k FROM row_text AS d WHERE ${documents}`;
  const list = matchList(db, `text ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn} ${join} ${match}`, matches, join ? [f.projectId, ...params, ...where.params] : params, (k) => k % 2 ** 32);
  return { rows: statusesOf(db, f.projectId, Array.from(list.subarray(f.offset, f.offset + f.limit))), found: list.length };
}

/** Texts too short for the index scan the rows, once per filter until the data changes. */
function scannedTextPage(db: Database, f: StatusFilter, text: string, matching: number, total: number): { rows: RowStatusRow[]; found: number } {
  const where = stateWhere(f);
  const pattern = `%${escapeLike(text)}%`;
  // Cells are stored as JSON: a quote or backslash in the search is escaped the way JSON writes it.
  const cellPattern = `%${escapeLike(JSON.stringify(text).slice(1, -1))}%`;
  const matches = `SELECT rs.row_index AS k FROM row_status AS rs ${stateHint(f, matching, total)}
       JOIN rows AS r ON r.project_id = rs.project_id AND r.row_index = rs.row_index
       WHERE rs.project_id = ?${where.sql} AND (rs.label LIKE ? ESCAPE '\\' OR r.cells LIKE ? ESCAPE '\\')`;
  const list = matchList(db, `scan ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn} ${text}`, matches, [f.projectId, ...where.params, pattern, cellPattern], (k) => k);
  return { rows: statusesOf(db, f.projectId, Array.from(list.subarray(f.offset, f.offset + f.limit))), found: list.length };
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
