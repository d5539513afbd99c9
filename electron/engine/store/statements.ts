import type { Database, Statement } from 'better-sqlite3';

const prepared = new WeakMap<Database, Map<string, Statement>>();

/**
 * The database's statement for `sql`, prepared once. Preparing parses the SQL against the schema, several
 * times what a keyed read or write then costs: code that runs one per row (a decision's reads and write, "accept
 * confident rows" over thousands of rows) takes its statements from here. Only for get, run and all: an iterating
 * statement is busy until its iterator ends, and pluck/raw would change the statement for every other caller.
 */
export function statement(db: Database, sql: string): Statement {
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = new Map()));
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s;
}
