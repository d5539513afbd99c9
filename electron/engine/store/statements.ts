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

/**
 * Statements of one kind that differ only in how many values they take (an IN list, a multi-row INSERT): each count's
 * prepared once per database from `sql(count)`. Kept apart from `statement`'s, so their callers may use pluck or raw.
 */
export class CountedStatements {
  private readonly prepared = new WeakMap<Database, Map<number, Statement>>();

  constructor(private readonly sql: (count: number) => string) {}

  of(db: Database, count: number): Statement {
    let byCount = this.prepared.get(db);
    if (!byCount) this.prepared.set(db, (byCount = new Map()));
    let s = byCount.get(count);
    if (!s) byCount.set(count, (s = db.prepare(this.sql(count))));
    return s;
  }
}

/** `count` copies of a row's placeholders, `(?, ?)`, for a statement's VALUES or IN list. */
export function repeated(row: string, count: number): string {
  return new Array<string>(count).fill(row).join(', ');
}
