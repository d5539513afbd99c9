import type { Migration } from '../migration';

// Rows of a project asking the same query were found by an index (project_id, query_id) over row_status. Planning
// meets a repeated query's rows at random places of it: at a million rows most of the pages each commit wrote were
// that index, and a row the run moved on to its next step moved its entry too. Only the queries more than one row of a
// project plans (at any step) are kept now, with those rows, written sorted once a plan is saved
// (runs/shared-queries.ts); a row's current query is always one of its plan's. A row may plan one query at two steps
// (folders planned before migration 28 do): it is one row, kept once.
export const sharedQueries: Migration = {
  version: 32,
  name: "rows sharing a query kept by the plan, row_status's query index dropped",
  up(db) {
    db.exec(`
      DROP INDEX IF EXISTS row_status_by_query;
      CREATE TABLE shared_queries (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        query_id INTEGER NOT NULL,
        row_index INTEGER NOT NULL,
        PRIMARY KEY (project_id, query_id, row_index)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO shared_queries (project_id, query_id, row_index)
        SELECT project_id, query_id, row_index FROM row_queries
        WHERE project_id IN (SELECT id FROM projects)
          AND (project_id, query_id) IN (SELECT project_id, query_id FROM row_queries GROUP BY project_id, query_id HAVING min(row_index) < max(row_index))
        ORDER BY project_id, query_id, row_index;
    `);
  },
};
