import type { Database, Statement } from 'better-sqlite3';
import type { FindQuery, Strategy } from '../../../shared/model';
import { stateRowsHint } from '../rows/row-status';

export interface PlannedQueryRecord {
  key: string;
  query: FindQuery;
  strategy: Strategy;
}

/**
 * How row_queries.query holds a query: its terms as [field_name, search_term] pairs, in order. Planning writes one
 * per step of every row (130,000 for 100,000 rows), and this is half the bytes of the FindQuery JSON (about
 * a third less to commit). Rows planned before hold that JSON; both read back the same.
 */
export function storedQuery(query: FindQuery): string {
  const fields = query.fields;
  return JSON.stringify(fields.length === 1 ? [[fields[0]!.field_name, fields[0]!.search_term]] : fields.map((f) => [f.field_name, f.search_term]));
}

/** A query as stored by storedQuery, or as the FindQuery JSON rows planned before it hold. */
export function queryFromStored(text: string): FindQuery {
  const parsed = JSON.parse(text) as FindQuery | [string, string][];
  return Array.isArray(parsed) ? { fields: parsed.map(([field_name, search_term]) => ({ field_name, search_term })) } : parsed;
}

/** The stored form of a query, whichever form it was stored in: what plans compare steps by. */
export function storedForm(text: string): string {
  return text.startsWith('[') ? text : storedQuery(queryFromStored(text));
}

/** A row waiting on a query (state 'pending'), as a run walks them: the query of its current step, and its cells. */
export interface PendingRow {
  rowIndex: number;
  /** The step of the row's waterfall this query is (row_queries.step). */
  step: number;
  key: string;
  /** The query's id within the project; null only for a plan made before ids (then the key stands in). */
  queryId: number | null;
  /** As row_queries stores it (queryFromStored reads it). */
  query: string;
  strategy: Strategy;
  cells: string;
}

/**
 * The rows of a project waiting on a query, in row order, a page at a time: the page after `afterRow`. Walked
 * through the (project_id, state, row_index) index and the primary keys, so each page is a few neighbouring pages of
 * each table, and what a run settles from it is written in row order too.
 */
export function pendingRowsAfter(db: Database, projectId: number, afterRow: number, limit: number): PendingRow[] {
  const rows = pendingPage(db).all(projectId, afterRow, limit) as [number, number, string, number | null, string, Strategy, string][];
  return rows.map(([rowIndex, step, key, queryId, query, strategy, cells]) => ({ rowIndex, step, key, queryId, query, strategy, cells }));
}

/** Each row at its next step, for rows that have one (as the run would walk them once moved on). */
export function nextSteps(db: Database, projectId: number, rows: readonly PendingRow[]): PendingRow[] {
  const statement = nextStepStatement(db);
  const next: PendingRow[] = [];
  for (const row of rows) {
    const found = statement.get(projectId, row.rowIndex, row.step + 1) as [string, number | null, string, Strategy] | undefined;
    if (found) next.push({ rowIndex: row.rowIndex, step: row.step + 1, key: found[0], queryId: found[1], query: found[2], strategy: found[3], cells: row.cells });
  }
  return next;
}

const nextStepStatements = new WeakMap<Database, Statement>();

function nextStepStatement(db: Database): Statement {
  let statement = nextStepStatements.get(db);
  if (!statement) {
    statement = db.prepare('SELECT query_key, query_id, query, strategy FROM row_queries WHERE project_id = ? AND row_index = ? AND step = ?').raw();
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
        `SELECT rs.row_index, rs.step, rq.query_key, rq.query_id, rq.query, rq.strategy, r.cells
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

/** How many distinct queries the rows waiting now ask (each row's current step), counted in one pass without a sort. */
export function pendingQueryCount(db: Database, projectId: number): number {
  const hint = stateRowsHint(db, projectId, 'pending');
  const rows = db.prepare(`SELECT query_id, query_key FROM row_status ${hint} WHERE project_id = ? AND state = 'pending'`).raw().iterate(projectId) as IterableIterator<[number | null, string]>;
  const distinct = new DistinctQueries();
  for (const [id, key] of rows) distinct.add(id, key);
  return distinct.size;
}

/** Distinct queries of one project by id, a bit each (a round's queries were a Map of ~200 MB at a million rows). */
export class DistinctQueries {
  private seen = new Uint8Array(1024);
  /** Queries planned before ids, by key. */
  private unkeyed: Set<string> | null = null;
  size = 0;

  /** True when the query is new to the set. */
  add(id: number | null, key: string): boolean {
    if (id === null) {
      this.unkeyed ??= new Set();
      if (this.unkeyed.has(key)) return false;
      this.unkeyed.add(key);
    } else {
      if (id >= this.seen.length * 8) {
        const grown = new Uint8Array(Math.max(this.seen.length * 2, (id >> 3) + 1));
        grown.set(this.seen);
        this.seen = grown;
      }
      const bit = 1 << (id & 7);
      if (this.seen[id >> 3]! & bit) return false;
      this.seen[id >> 3]! |= bit;
    }
    this.size++;
    return true;
  }
}

/** The query a row asks at one of its steps, as planned. */
export function plannedQuery(db: Database, projectId: number, rowIndex: number, key: string): FindQuery | null {
  const text = db.prepare('SELECT query FROM row_queries WHERE project_id = ? AND row_index = ? AND query_key = ?').pluck().get(projectId, rowIndex, key) as string | undefined;
  return text === undefined ? null : queryFromStored(text);
}

/** A query in words for lists of failures: "email_address = jane@acme.com; company.name = Acme". */
export function describeQuery(query: FindQuery): string {
  return query.fields.map((f) => `${f.field_name} = ${f.search_term}`).join('; ');
}
