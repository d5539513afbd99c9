import type { Database } from 'better-sqlite3';
import type { ReviewPage, ReviewRow } from '../../../shared/contract';
import { JOB_CHANGES, ROW_STATES, type JobChangeStatus, type RowState } from '../../../shared/model';
import { lowerBound } from '../lower-bound';
import type { ListWalker } from '../runs/reading-thread';
import { ROW_STATUS_COLUMNS, jobChangeOf, rowStatusColumns, stateCounts, toRowStatus, withStateMoves, type ChosenPerson, type RowStatusRow, type StateMove } from '../rows/row-status';
import { CHANGED_AT_REFRESH, changedRowsQuery } from './changed-rows';
import { fillRowTextIndex, rowTextMatch } from './row-text-index';
import { topCandidates } from './top-candidates';
import { withRowAt, withoutRowAt } from './row-list-edits';
import { StampedCache, dataStamp } from '../store/data-stamp';
import { lastRefreshOf } from '../store/refresh-tables';
import { sheetRowNumber } from '../rows/project-record';
import { repeated, statement } from '../store/statements';

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
export async function reviewPage(db: Database, projectId: number, req: ReviewPageRequest, elsewhere: { changed?: ChangedCount; walk?: ListWalker } = {}): Promise<ReviewPage> {
  const states = req.states && req.states.length > 0 ? [...new Set(req.states)].filter((s) => ROW_STATES.includes(s)) : null;
  const text = req.text?.trim() ?? '';
  const match = text ? rowTextMatch(text) : null;
  if (match) await fillRowTextIndex(db, projectId);
  const jobChanges = req.jobChanges && req.jobChanges.length > 0 ? [...new Set(req.jobChanges)].filter((j) => JOB_CHANGES.includes(j)) : null;
  const { counts, jobChanges: jobChangesNow, changedAtLastRefresh } = reviewFigures(db, projectId, elsewhere.changed);
  const lastRefresh = lastRefreshOf(db, projectId);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const changedIn = req.changedAtLastRefresh ? (lastRefresh?.id ?? -1) : null;
  const filter: StatusFilter = { projectId, states, jobChanges, changedIn, order: req.order ?? 'file', offset: req.offset, limit: req.limit };
  // A list sorted by confidence of a large project takes seconds to walk, in which the engine would answer nothing.
  if (elsewhere.walk && !text) await walkedElsewhere(db, filter, elsewhere.walk);
  const matching = jobChanges || changedIn !== null ? statusList(db, filter).rows.length : states ? states.reduce((n, s) => n + counts[s], 0) : total;
  const { rows, found } = match
    ? indexedTextPage(db, filter, match, total)
    : text
      ? scannedTextPage(db, filter, text, matching, total)
      : { rows: filter.order === 'file' ? statePage(db, filter, matching, total) : confidencePage(db, filter), found: matching };

  const page = reviewRowsOf(db, projectId, rows);
  return {
    rows: page,
    total: found,
    counts,
    jobChanges: jobChangesNow,
    changedAtLastRefresh,
    lastRefreshAt: lastRefresh?.startedAt ?? null,
  };
}

/** The review list's rows for these row statuses: each with its label, its best or chosen person and its verdict. */
export function reviewRowsOf(db: Database, projectId: number, rows: readonly RowStatusRow[]): ReviewRow[] {
  const statuses = rows.map(toRowStatus);
  const firstRow = (statement(db, 'SELECT first_row FROM projects WHERE id = ?').pluck().get(projectId) as number | undefined) ?? 1;
  const waiting = statuses.filter((s) => !s.chosen && s.outcome === 'to_review' && s.queryId !== null).map((s) => ({ queryId: s.queryId!, bestRank: s.verdict?.bestRank }));
  const shown = waiting.length > 0 ? topCandidates(db, waiting) : () => undefined;
  const page: ReviewRow[] = statuses.map((s) => {
    let top = s.chosen?.summary ?? null;
    let topScore = s.chosen?.score ?? null;
    if (!top && s.outcome === 'to_review' && s.queryId !== null) {
      const best = shown({ queryId: s.queryId, bestRank: s.verdict?.bestRank });
      if (best) {
        top = best.summary;
        topScore = best.score;
      }
    }
    const chosenVerdict = s.chosen?.confidence !== undefined;
    return {
      rowIndex: s.rowIndex,
      rowNumber: sheetRowNumber({ firstRow }, s.rowIndex),
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
  return page;
}

/**
 * How a figure of rows changed at a refresh is had: walked on the spot (changedAtRefresh, the default), or null while
 * a worker walks it (changed-count.ts ChangedRowsCounter: the engine's).
 */
export type ChangedCount = (projectId: number, refreshId: number) => number | null;

/** The figures every review page shows for the whole project, as kept (and brought through decisions). */
export function reviewFigures(db: Database, projectId: number, changed?: ChangedCount): Pick<ReviewPage, 'counts' | 'jobChanges' | 'changedAtLastRefresh'> {
  return { counts: stateCounts(db, projectId), jobChanges: jobChangeCountsOf(db, projectId), changedAtLastRefresh: changedAtLastRefresh(db, projectId, changed) };
}

/**
 * Rows changed at the project's last refresh (0 when it was never refreshed), had the way `changed` says: walked here
 * without it. `lastRefresh`: the project's, when the caller read it already.
 */
export function changedAtLastRefresh(db: Database, projectId: number, changed?: ChangedCount, lastRefresh = lastRefreshOf(db, projectId)): number | null {
  if (!lastRefresh) return 0;
  return changed ? changed(projectId, lastRefresh.id) : changedAtRefresh(db, projectId, lastRefresh.id);
}

/**
 * Matched rows whose person's job changed at the refresh `refreshId`: the length of that filter's list, which is kept
 * until the data changes and brought through decisions (withReviewMoves), as every review page shows the count and the
 * filter's first page needs the list. Walking it reads each changed row's chosen person from its JSON, which in a large
 * project takes seconds, far longer when the file is not in the OS's cache.
 */
export function changedAtRefresh(db: Database, projectId: number, refreshId: number): number {
  return statusList(db, changedFilter(projectId, refreshId)).rows.length;
}

/** The count of rows changed at refresh `refreshId` if their list is kept (nothing written since it was walked), else null. */
export function keptChangedAtRefresh(db: Database, projectId: number, refreshId: number): number | null {
  return statusLists.peek(db, statusKey(changedFilter(projectId, refreshId)))?.rows.length ?? null;
}

/** The statement that walks the rows changed at refresh `refreshId`, for a worker to walk it (keepChangedRows keeps what it finds). */
export function changedRowsWalk(db: Database, projectId: number, refreshId: number): { sql: string; params: unknown[] } {
  const { sql, params } = statusListWalk(db, changedFilter(projectId, refreshId));
  return { sql, params };
}

/**
 * Keeps the rows changed at refresh `refreshId` as walked elsewhere (changedRowsWalk, on another
 * connection) from the data as it was at `stamp` (data-stamp.ts dataStamp), as if walked here: true when nothing was
 * written since, false when the list is out of date and was not kept.
 */
export function keepChangedRows(db: Database, projectId: number, refreshId: number, stamp: string, rows: Uint32Array): boolean {
  return offerList(db, statusListWalk(db, changedFilter(projectId, refreshId)), stamp, rows);
}

/** Keeps a list walked elsewhere from the data as it was at `stamp`, as if walked here: only when nothing was written since. */
function offerList(db: Database, w: ListWalk, stamp: string, ks: Uint32Array): boolean {
  return w.lists.offer(db, w.key, stamp, { projectId: w.projectId, rows: ks, holds: w.holds, place: w.place });
}

/** Projects of up to this many rows have their lists walked on the engine's thread: their sorts are short enough. */
export const LISTS_WALKED_HERE = 100_000;

/**
 * The lists a page of `f` reads (a filter by job change or refresh counts its rows by its list), walked by `walker`
 * and kept, those not kept already. A list walked while the data changed is not kept: the page then walks it here.
 */
async function walkedElsewhere(db: Database, f: StatusFilter, walker: ListWalker): Promise<void> {
  const needed: ListWalk[] = [];
  if (f.jobChanges || f.changedIn !== null || (f.order === 'file' && f.states && f.offset >= FIRST_ROWS)) needed.push(statusListWalk(db, f));
  const byConfidence = f.order === 'file' ? null : confidenceListWalk(db, f);
  if (byConfidence) needed.push(byConfidence);
  for (const w of needed) {
    if (w.lists.peek(db, w.key)) continue;
    const stamp = dataStamp(db);
    const rows = await walker(w.sql, w.params)?.catch(() => null);
    if (rows) offerList(db, w, stamp, rows);
  }
}

function changedFilter(projectId: number, refreshId: number): ListFilter {
  return { projectId, states: null, jobChanges: null, changedIn: refreshId };
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

/**
 * A filtered list of a project's rows, walked once and kept until the data changes: the index of every row it holds,
 * in row order (4 bytes a row), so any page is a slice and its length the count. Walking a large project's list costs
 * far more than a page, the rows changed at a refresh most of all; a decision brings the lists through
 * (withReviewMoves) instead of having them walked again.
 */
interface RowList {
  projectId: number;
  rows: Uint32Array;
  /** Whether one row is in the list now; null when a decision cannot change that (a text filter alone). */
  holds: ((rowIndex: number) => boolean) | null;
  /** Where a row is in `rows`, or would go: lists in row order by a binary search of the index (lowerBound). */
  place: (rows: Uint32Array, rowIndex: number) => number;
}

/**
 * Lists of a status filter in row order: twelve, as a reviewer's filters go and come back (by state, job change, the
 * last refresh's changes); at most 48 MB for a 1M-row project whose twelve lists each hold every row.
 */
const statusLists = new StampedCache<RowList>(12);
/** Lists of a status filter by confidence: six, both ways of three filters; at most 24 MB at 1M rows. */
const confidenceLists = new StampedCache<RowList>(6);
/**
 * Lists of a text filter, alone or with a status filter. FTS5 reads a phrase's position lists from their start whatever
 * rowid a query starts at (a page deep in a common text's list pays for every entry before it), so the list is walked
 * once. Eight, so the bench's six text filters in turn each find their own kept (with four, its text pages walked their
 * lists again). At most 32 MB.
 */
const textLists = new StampedCache<RowList>(8, true);

/** A state's rows before this offset are read straight from the table, without walking its whole list. */
const FIRST_ROWS = 200;

/**
 * A list the review keeps, and how it is walked: the statement giving its rows' indexes (`k`) in the list's order, with
 * where it is kept and how a decision's rows are checked and placed in it. A page walks it here (keptList) unless it is
 * kept; in a large project the engine walks it on a worker first (reviewPage's `walk`).
 */
interface ListWalk extends Omit<RowList, 'rows'> {
  lists: StampedCache<RowList>;
  key: string;
  sql: string;
  params: unknown[];
  /** `sql` from a row on, `LIMIT` rows (its params, then the last row walked and the limit): walked in slices here. */
  sliced?: string;
}

function keptList(db: Database, w: ListWalk): RowList {
  return w.lists.get(db, w.key, () => ({ projectId: w.projectId, rows: walkList(db, w), holds: w.holds, place: w.place }));
}

/** Rows a slice of a list walked on the engine's thread reads in one call. */
export const LIST_SLICE = 65_536;

/**
 * A list's rows. All in one call rather than stepping an iterator, which more than doubled a common text's walk;
 * sorted in one array rather than through window functions, which sorted them again in a temporary B-tree, several
 * times slower. A list in the order of an index (`sliced`) is read a slice at a time into a typed array: one call's
 * array of a million numbers, then copied, held the process 10 MB higher (docs/performance.md, "Memory").
 */
function walkList(db: Database, w: ListWalk): Uint32Array {
  if (!w.sliced) return Uint32Array.from(db.prepare(w.sql).pluck().all(...w.params) as number[]);
  const slice = statement(db, w.sliced).pluck();
  let rows = new Uint32Array(LIST_SLICE);
  let length = 0;
  for (let after = -1; ; ) {
    const got = slice.all(...w.params, after, LIST_SLICE) as number[];
    if (length + got.length > rows.length) {
      const larger = new Uint32Array(rows.length * 2);
      larger.set(rows.subarray(0, length));
      rows = larger;
    }
    rows.set(got, length);
    length += got.length;
    if (got.length < LIST_SLICE) return rows.slice(0, length);
    after = got[got.length - 1]!;
  }
}

/** How the rows a status filter (states, job changes, changed at a refresh) holds are walked, in row order. */
function statusListWalk(db: Database, f: ListFilter): ListWalk {
  const where = stateWhere(f);
  // The rows changed at a refresh from its index of changed rows: walking every matched row of the project to look
  // each up took seconds a page in a large project.
  const { sql, params } =
    f.changedIn === null
      ? { sql: `SELECT rs.row_index AS k FROM row_status AS rs WHERE rs.project_id = ?${where.sql}`, params: [f.projectId, ...where.params] }
      : changedRowsQuery(f.projectId, f.changedIn, stateWhere({ ...f, changedIn: null }));
  // By state or job change, the rows come in row order from an index (the table's key, or by state or job change).
  const sliced = f.changedIn === null ? `${sql} AND rs.row_index > ? ORDER BY k LIMIT ?` : undefined;
  return { lists: statusLists, key: statusKey(f), projectId: f.projectId, sql: `${sql} ORDER BY k`, params, sliced, holds: statusHolds(db, f), place: lowerBound };
}

/** The rows a status filter holds, kept. */
function statusList(db: Database, f: ListFilter): RowList {
  return keptList(db, statusListWalk(db, f));
}

function statusKey(f: ListFilter): string {
  return `state ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn}`;
}

function hasStatusFilter(f: ListFilter): boolean {
  return !!f.states || !!f.jobChanges || f.changedIn !== null;
}

/** Whether one row passes the filter's status part now (a decision may have changed that); null without one. */
function statusHolds(db: Database, f: ListFilter): RowList['holds'] {
  if (!hasStatusFilter(f)) return null;
  const where = stateWhere(f);
  const sql = `SELECT 1 FROM row_status AS rs WHERE rs.project_id = ? AND rs.row_index = ?${where.sql}`;
  return (rowIndex) => statement(db, sql).get(f.projectId, rowIndex, ...where.params) !== undefined;
}

/** What a decision about a row is to the review's figures: its state and the person it holds. */
export interface Decided {
  state: RowState;
  chosen: ChosenPerson | null;
}

/** Rows one write of a decision may change and still have the kept lists brought through: more, they are walked again. */
const ROWS_CARRIED = 100;

/**
 * What a decision (review/decisions.ts) does to the figures and lists the review keeps, tallied row by row as it
 * writes them: every page shows the project's counts per state and job change and of rows changed at its last
 * refresh, which in a large project would be a walk of every row to count again. A reviewer's every key is a decision
 * and then a page.
 */
export class ReviewMoves {
  readonly states = new MoveTally();
  private readonly jobChanges = new Map<JobChangeStatus, number>();
  private readonly rows: number[] = [];

  constructor(readonly projectId: number) {}

  /** Row `rowIndex` goes from `before` to `after`: called as it is written, in the decision's transaction. */
  add(rowIndex: number, before: Decided, after: Decided): void {
    this.states.add(before.state, after.state);
    const from = jobChangeOf(before.state, before.chosen);
    const to = jobChangeOf(after.state, after.chosen);
    if (from !== to) {
      if (from) this.jobChanges.set(from, (this.jobChanges.get(from) ?? 0) - 1);
      if (to) this.jobChanges.set(to, (this.jobChanges.get(to) ?? 0) + 1);
    }
    if (this.rows.length <= ROWS_CARRIED) this.rows.push(rowIndex);
  }

  jobChangesAfter(counts: Record<JobChangeStatus, number>): Record<JobChangeStatus, number> {
    const after = { ...counts };
    for (const [j, n] of this.jobChanges) after[j] += n;
    return after;
  }

  /** A kept list as the decision left it: each row written looked up in it again; undefined to walk it again. */
  listAfter(list: RowList): RowList | undefined {
    if (list.projectId !== this.projectId || !list.holds) return list;
    if (this.rows.length > ROWS_CARRIED) return undefined;
    let rows = list.rows;
    for (const rowIndex of this.rows) {
      const at = list.place(rows, rowIndex);
      const held = rows[at] === rowIndex;
      const holds = list.holds(rowIndex);
      if (held && !holds) rows = withoutRowAt(rows, at);
      else if (!held && holds) rows = withRowAt(rows, at, rowIndex);
    }
    return rows === list.rows ? list : { ...list, rows };
  }
}

/**
 * Runs a decision's `write`, which tallies what it does in `moves` as it goes, and brings the figures and lists the
 * review keeps for the project through it instead of counting them again (data-stamp.ts StampedCache.through).
 */
export function withReviewMoves<R>(db: Database, moves: ReviewMoves, write: () => R): R {
  const { projectId } = moves;
  // Each cache wraps the next, the write innermost: every one reads its stamp before the write and after it.
  const listAfter = (_key: string, list: RowList) => moves.listAfter(list);
  const texts = () => textLists.throughAll(db, write, listAfter);
  const byConfidence = () => confidenceLists.throughAll(db, texts, listAfter);
  const lists = () => statusLists.throughAll(db, byConfidence, listAfter);
  const jobChanges = () => jobChangeCounts.through(db, String(projectId), lists, (counts) => moves.jobChangesAfter(counts));
  return withStateMoves(db, projectId, moves.states, jobChanges);
}

/** How many rows moved between each pair of states: a few entries whatever the number of rows. */
class MoveTally implements Iterable<StateMove> {
  private readonly counts = new Map<string, StateMove & { rows: number }>();

  add(from: RowState, to: RowState): void {
    const key = `${from} ${to}`;
    const move = this.counts.get(key);
    if (move) move.rows++;
    else this.counts.set(key, { from, to, rows: 1 });
  }

  [Symbol.iterator](): Iterator<StateMove> {
    return this.counts.values();
  }
}

/** The state (and job-change) condition on row_status (alias rs) and its parameters; none without a filter. */
export function stateWhere(f: Omit<ListFilter, 'projectId'>, column = 'rs.state'): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.states) {
    parts.push(` AND ${column} IN (${repeated('?', f.states.length)})`);
    params.push(...f.states);
  }
  if (f.jobChanges) {
    parts.push(` AND rs.job_change IN (${repeated('?', f.jobChanges.length)})`);
    params.push(...f.jobChanges);
  }
  if (f.changedIn !== null) {
    parts.push(` AND rs.state IN ('auto', 'accepted') AND ${CHANGED_AT_REFRESH}`);
    params.push(f.changedIn);
  }
  return { sql: parts.join(''), params };
}

/** Which of a project's rows a list holds: by state, by job change, changed at a refresh. */
interface ListFilter {
  projectId: number;
  states: RowState[] | null;
  jobChanges: JobChangeStatus[] | null;
  /** Only rows changed at this refresh (the project's last); null without that filter. */
  changedIn: number | null;
}

interface StatusFilter extends ListFilter {
  order: ReviewOrder;
  offset: number;
  limit: number;
}

const STATUS_COLUMNS = rowStatusColumns('rs');

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
  // A state's first pages are read straight from the table; a filter by job change or refresh is counted by its list.
  if (f.offset < FIRST_ROWS && !f.jobChanges && f.changedIn === null) return select(0, f.offset, stateHint(f, matching, total));
  return statusesOf(db, f.projectId, Array.from(statusList(db, f).rows.subarray(f.offset, f.offset + f.limit)));
}

/**
 * Rows by their best candidate's confidence, rows without candidates last, file order among equals. The first pages of
 * the queue of rows to review are read straight off its confidence index (equals then in file order going up, the other
 * way going down); any other filter's rows, and the queue's further down, are sorted once and the order kept: sorted
 * again at each page, a large project's sort would hold every page. A decision changes no row's confidence, only which
 * rows a filter by state holds.
 */
function confidencePage(db: Database, f: StatusFilter): RowStatusRow[] {
  const w = confidenceListWalk(db, f);
  if (!w) {
    const direction = f.order === 'confidence_asc' ? 'ASC' : 'DESC';
    return db
      .prepare(
        `SELECT ${STATUS_COLUMNS} FROM row_status AS rs INDEXED BY row_status_to_review_by_confidence
         WHERE rs.project_id = ? AND rs.state = 'to_review' ORDER BY rs.confidence ${direction}, rs.row_index ${direction} LIMIT ? OFFSET ?`,
      )
      .all(f.projectId, f.limit, f.offset) as RowStatusRow[];
  }
  const page = Array.from(keptList(db, w).rows.subarray(f.offset, f.offset + f.limit));
  const byRow = new Map(statusesOf(db, f.projectId, page).map((r) => [r.row_index, r]));
  return page.map((rowIndex) => byRow.get(rowIndex)).filter((r): r is RowStatusRow => r !== undefined);
}

/**
 * How the list of a filter by confidence is walked; null for the queue's first pages, read straight off its index.
 * Deeper in the queue, OFFSET stepped over every earlier entry of the index, so a page cost more the further down.
 */
function confidenceListWalk(db: Database, f: StatusFilter): ListWalk | null {
  const direction = f.order === 'confidence_asc' ? 'ASC' : 'DESC';
  const queue = f.states?.length === 1 && f.states[0] === 'to_review' && !f.jobChanges && f.changedIn === null;
  if (queue && f.offset < FIRST_ROWS) return null;
  // The queue's equals go in file order going up, the other way going down, as its index reads them.
  const rowOrder = queue ? direction : 'ASC';
  const where = stateWhere(f);
  return {
    lists: confidenceLists,
    key: `confidence ${direction} ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn}`,
    projectId: f.projectId,
    // The queue's list straight off its index too: sorting it from the table read the whole project.
    sql: queue
      ? `SELECT rs.row_index AS k FROM row_status AS rs INDEXED BY row_status_to_review_by_confidence
         WHERE rs.project_id = ? AND rs.state = 'to_review' ORDER BY rs.confidence ${direction}, rs.row_index ${direction}`
      : `SELECT rs.row_index AS k FROM row_status AS rs WHERE rs.project_id = ?${where.sql} ORDER BY (rs.confidence IS NULL), rs.confidence ${direction}, rs.row_index`,
    params: [f.projectId, ...(queue ? [] : where.params)],
    holds: statusHolds(db, f),
    place: confidencePlace(db, f.projectId, direction, rowOrder),
  };
}

/**
 * Where a row is, or would go, in a list sorted by confidence (rows without one last, then by row index, `rowOrder`):
 * a binary search that reads the confidence of each row it compares with (~20 at a million rows).
 */
function confidencePlace(db: Database, projectId: number, direction: 'ASC' | 'DESC', rowOrder: 'ASC' | 'DESC'): RowList['place'] {
  const confidence = (rowIndex: number) =>
    (statement(db, 'SELECT confidence FROM row_status WHERE project_id = ? AND row_index = ?').get(projectId, rowIndex) as { confidence: number | null } | undefined)?.confidence ?? null;
  const sign = direction === 'ASC' ? 1 : -1;
  const rowSign = rowOrder === 'ASC' ? 1 : -1;
  return (rows, rowIndex) => {
    const own = confidence(rowIndex);
    // Whether `other` comes before the row in the list's order.
    const before = (other: number) => {
      const theirs = confidence(other);
      if ((theirs === null) !== (own === null)) return own === null;
      if (theirs !== null && own !== null && theirs !== own) return sign * (theirs - own) < 0;
      return rowSign * (other - rowIndex) < 0;
    };
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(rows[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
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
  // Each match as its row index, in rowid order (the index's own, no sort): read as whole rowids, a common text's
  // matches were each a number beyond 32 bits for JavaScript to box and cut down.
  const rowIndex = 'd.rowid & 4294967295';
  const matches = join
    ? `SELECT ${rowIndex} AS k FROM row_text AS d CROSS JOIN row_status AS rs ON rs.project_id = ? AND rs.row_index = ${rowIndex}
       WHERE ${documents}${where.sql}`
    : `SELECT ${rowIndex} AS k FROM row_text AS d WHERE ${documents}`;
  const inStatus = statusHolds(db, f);
  // The rowid bound as an integer (a BigInt): FTS5 (SQLite 3.54) takes `rowid = ?` with a number, which better-sqlite3
  // binds as a real, as no condition at all and answers every match.
  const document = 'SELECT 1 FROM row_text AS d WHERE d.row_text MATCH ? AND d.rowid = ?';
  const holds = inStatus && ((rowIndex: number) => inStatus(rowIndex) && statement(db, document).get(match, (BigInt(f.projectId) << 32n) + BigInt(rowIndex)) !== undefined);
  const key = `text ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn} ${join} ${match}`;
  const list = keptList(db, {
    lists: textLists,
    key,
    projectId: f.projectId,
    sql: `${matches} ORDER BY d.rowid`,
    params: join ? [f.projectId, ...params, ...where.params] : params,
    holds,
    place: lowerBound,
  }).rows;
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
  const inStatus = statusHolds(db, f);
  const cells = `SELECT 1 FROM row_status AS rs JOIN rows AS r ON r.project_id = rs.project_id AND r.row_index = rs.row_index
       WHERE rs.project_id = ? AND rs.row_index = ? AND (rs.label LIKE ? ESCAPE '\\' OR r.cells LIKE ? ESCAPE '\\')`;
  const holds = inStatus && ((rowIndex: number) => inStatus(rowIndex) && statement(db, cells).get(f.projectId, rowIndex, pattern, cellPattern) !== undefined);
  const key = `scan ${f.projectId} ${JSON.stringify(f.states)} ${JSON.stringify(f.jobChanges)} ${f.changedIn} ${text}`;
  const list = keptList(db, { lists: textLists, key, projectId: f.projectId, sql: `${matches} ORDER BY k`, params: [f.projectId, ...where.params, pattern, cellPattern], holds, place: lowerBound }).rows;
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
