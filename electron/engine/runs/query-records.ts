import type { Database } from 'better-sqlite3';
import type { FindQuery, Strategy } from '../../../shared/model';

export interface PlannedQueryRecord {
  key: string;
  query: FindQuery;
  strategy: Strategy;
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
    if (!found.has(key)) found.set(key, { key, query: JSON.parse(query) as FindQuery, strategy });
  }
  return found;
}

/** The query a row asks at one of its steps, as planned. */
export function plannedQuery(db: Database, projectId: number, rowIndex: number, key: string): FindQuery | null {
  const text = db.prepare('SELECT query FROM row_queries WHERE project_id = ? AND row_index = ? AND query_key = ?').pluck().get(projectId, rowIndex, key) as string | undefined;
  return text === undefined ? null : (JSON.parse(text) as FindQuery);
}

/** A query in words for lists of failures: "email_address = jane@acme.com; company.name = Acme". */
export function describeQuery(query: FindQuery): string {
  return query.fields.map((f) => `${f.field_name} = ${f.search_term}`).join('; ');
}
