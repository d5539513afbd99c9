import type { Database } from 'better-sqlite3';
import type { ProjectRecord } from '../rows/project-record';
import { statement } from '../store/statements';

/**
 * The queries more than one row of a project plans, at any step, each with those rows (table shared_queries,
 * migration 32): how the rows asking a row's query are found (the review's count, a decision for identical rows). A
 * row's current query (row_status.query_id) is always one of its plan's steps, so a query kept here with its rows
 * names every row that can be asking it, and one not kept has only the row asking it. An index by query over
 * row_status had a repeated query's row written beside its earlier rows: random pages, most of what planning wrote.
 */

/**
 * Keeps the project's shared queries for its plan as saved: all of them again, sorted, so the entries append. In the
 * caller's transaction, the one that marks the plan whole.
 */
export function saveSharedQueries(db: Database, projectId: number): void {
  db.prepare('DELETE FROM shared_queries WHERE project_id = ?').run(projectId);
  db.prepare(
    // A row planning one query at two steps is one row, kept once.
    `INSERT OR IGNORE INTO shared_queries (project_id, query_id, row_index)
     SELECT @project, query_id, row_index FROM row_queries
     WHERE project_id = @project AND query_id IN (SELECT query_id FROM row_queries WHERE project_id = @project GROUP BY query_id HAVING min(row_index) < max(row_index))
     ORDER BY query_id, row_index`,
  ).run({ project: projectId });
}

/**
 * FROM and WHERE of a statement on the rows (`s`, row_status) of project `@project` whose current query is `@query`.
 * A plan cut off (plan_scope NULL, redone before the next run) may have left the kept rows behind: its rows are walked.
 */
function sameQuery(project: ProjectRecord): string {
  return project.planScope === null
    ? 'row_status AS s WHERE s.project_id = @project AND s.query_id = @query'
    : `shared_queries AS q JOIN row_status AS s ON s.project_id = q.project_id AND s.row_index = q.row_index
       WHERE q.project_id = @project AND q.query_id = @query AND s.query_id = @query`;
}

/** How many rows of the project ask this query now (a row asking it is one). */
export function rowsAskingCount(db: Database, project: ProjectRecord, queryId: number): number {
  const n = statement(db, `SELECT count(*) FROM ${sameQuery(project)}`).pluck().get({ project: project.id, query: queryId }) as number;
  // A query no other row plans is this row's alone: it is kept with no rows.
  return project.planScope === null ? n : Math.max(n, 1);
}

/** The rows of the project asking this query now that also meet `where` (on `s`, with its own named parameters), in row order. */
export function rowsAsking(db: Database, project: ProjectRecord, queryId: number, where: string, params: Record<string, unknown>): number[] {
  // In the kept rows' order: ordered by row_status's key, SQLite walked the whole project instead (0.5 s at 1M).
  const order = project.planScope === null ? 's' : 'q';
  return statement(db, `SELECT s.row_index FROM ${sameQuery(project)} AND ${where} ORDER BY ${order}.row_index`)
    .pluck()
    .all({ ...params, project: project.id, query: queryId }) as number[];
}
