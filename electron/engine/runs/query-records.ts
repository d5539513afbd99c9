import type { Database, Statement } from 'better-sqlite3';
import type { FindQuery, Strategy } from '../../../shared/model';
import { IdBits } from '../id-bits';
import { stateRowsHint } from '../rows/row-status';
import { statement } from '../store/statements';

export { queryFromStored, storedQuery } from '../store/query-text';

/** A row waiting on a query (state 'pending'), as a run walks them: the query of its current step, and its cells. */
export interface PendingRow {
  rowIndex: number;
  /** The step of the row's waterfall this query is (row_queries.step). */
  step: number;
  /** The query's id in `queries` (runs/query-ids.ts). */
  queryId: number;
  /**
   * As `queries` stores it (queryFromStored reads it); null when the walk did not read it (pendingRowsAfter's
   * `textAbove`): storedQueryText reads it if the query is to be asked.
   */
  query: string | null;
  strategy: Strategy;
  cells: string;
}

/**
 * The rows of a project waiting on a query, in row order, a page at a time: the page after `afterRow`. Walked
 * through the (project_id, state, row_index) index and the primary keys, so each page is a few neighbouring pages of
 * each table, and what a run settles from it is written in row order too.
 *
 * A query's text is read only for ids above `textAbove` (the highest a run's walk has met; -1: every one). Ids
 * follow the order planning met the queries, so a page's new queries are above it and read from neighbouring pages
 * of `queries`; a query below it, met earlier, is a sheet's repeat, mostly answered or on its way already, and its
 * look-up went to a random page of `queries` (at 1M rows half the walk's reading).
 */
export function pendingRowsAfter(db: Database, projectId: number, afterRow: number, limit: number, textAbove = -1): PendingRow[] {
  const rows = pendingPage(db).all(textAbove, projectId, afterRow, limit) as [number, number, number, string | null, Strategy, string][];
  // By index: destructuring a row took an iterator's result for each of its values (a run reads every row so).
  return rows.map((r) => ({ rowIndex: r[0], step: r[1], queryId: r[2], query: r[3], strategy: r[4], cells: r[5] }));
}

/**
 * A query's stored text by its id, for one pendingRowsAfter did not read (or found no text for); null when `queries`
 * does not hold it: its rows are not asked, and wait, as those of a step with no query do (nextStep).
 */
export function storedQueryText(db: Database, queryId: number): string | null {
  return (statement(db, 'SELECT query FROM queries WHERE id = ?').get(queryId) as { query: string } | undefined)?.query ?? null;
}

/** A row at its next step, if it has one (as the run would walk it once moved on). */
export function nextStep(db: Database, projectId: number, row: Pick<PendingRow, 'rowIndex' | 'step' | 'cells'>): (PendingRow & { query: string }) | null {
  const found = nextStepStatement(db).get(projectId, row.rowIndex, row.step + 1) as [number, string, Strategy, 1 | null] | undefined;
  // A step whose query is not in `queries` is none, as a join would have it.
  return found && found[3] !== null ? { rowIndex: row.rowIndex, step: row.step + 1, queryId: found[0], query: found[1], strategy: found[2], cells: row.cells } : null;
}

const nextStepStatements = new WeakMap<Database, Statement>();

function nextStepStatement(db: Database): Statement {
  let statement = nextStepStatements.get(db);
  if (!statement) {
    // The query by subqueries, not a join: the join took three to four times as long a row (a first run asks this of
    // every row an answer found nobody for).
    const query = '(SELECT q.query FROM queries AS q WHERE q.id = rq.query_id)';
    const known = '(SELECT 1 FROM queries AS q WHERE q.id = rq.query_id)';
    statement = db.prepare(`SELECT rq.query_id, ${query}, rq.strategy, ${known} FROM row_queries AS rq WHERE rq.project_id = ? AND rq.row_index = ? AND rq.step = ?`).raw();
    nextStepStatements.set(db, statement);
  }
  return statement;
}

const pendingPages = new WeakMap<Database, Statement>();

function pendingPage(db: Database): Statement {
  let statement = pendingPages.get(db);
  if (!statement) {
    statement = db
      .prepare(
        `SELECT rs.row_index, rs.step, rq.query_id, CASE WHEN rq.query_id > ? THEN (SELECT q.query FROM queries AS q WHERE q.id = rq.query_id) END,
           rq.strategy, r.cells
         FROM row_status AS rs INDEXED BY row_status_by_state
         JOIN row_queries AS rq ON rq.project_id = rs.project_id AND rq.row_index = rs.row_index AND rq.step = rs.step
         JOIN rows AS r ON r.project_id = rs.project_id AND r.row_index = rs.row_index
         WHERE rs.project_id = ? AND rs.state = 'pending' AND rs.row_index > ?
         ORDER BY rs.row_index LIMIT ?`,
      )
      .raw();
    pendingPages.set(db, statement);
  }
  return statement;
}

/**
 * How many distinct queries the rows waiting now ask (each row's current step), counted in one pass without a sort;
 * those in `counted` (the run's copy counted them) are not.
 */
export function pendingQueryCount(db: Database, projectId: number, counted?: IdBits): number {
  const hint = stateRowsHint(db, projectId, 'pending');
  const ids = db.prepare(`SELECT query_id FROM row_status ${hint} WHERE project_id = ? AND state = 'pending'`).pluck().iterate(projectId) as IterableIterator<number>;
  const distinct = new IdBits();
  for (const id of ids) if (!counted?.has(id)) distinct.add(id);
  return distinct.size;
}

/** A query in words for lists of failures: "email_address = jane@acme.com; company.name = Acme". */
export function describeQuery(query: FindQuery): string {
  return query.fields.map((f) => `${f.field_name} = ${f.search_term}`).join('; ');
}
