import type { Database } from 'better-sqlite3';
import type { FindQuery, Strategy } from '../../../shared/model';

export interface PlannedQueryRecord {
  key: string;
  query: FindQuery;
  strategy: Strategy;
}

/**
 * How row_queries.query holds a query: its terms as [field_name, search_term] pairs, in order. Planning writes one
 * per step of every row (130,000 for 100,000 rows), and this is half the bytes of the FindQuery JSON (measured:
 * about a third less to commit). Rows planned before hold that JSON; both read back the same.
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

/**
 * The distinct queries the undecided rows of a project wait on now (each row's current step), read in row
 * order through the primary keys: one pass however many rows ask the same query.
 */
export function pendingQueries(db: Database, projectId: number): Map<string, PlannedQueryRecord> {
  const rows = db
    .prepare(
      `SELECT rq.query_key AS key, rq.query, rq.strategy FROM row_status rs
       JOIN row_queries rq ON rq.project_id = rs.project_id AND rq.row_index = rs.row_index AND rq.step = rs.step
       WHERE rs.project_id = ? AND rs.state = 'pending'`,
    )
    .raw()
    .iterate(projectId) as IterableIterator<[string, string, Strategy]>;
  const found = new Map<string, PlannedQueryRecord>();
  for (const [key, query, strategy] of rows) {
    if (!found.has(key)) found.set(key, { key, query: queryFromStored(query), strategy });
  }
  return found;
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
