import type { Migration } from '../migration';

// The rows waiting on a query were found through an index on the query's key, a hash: every row of a plan, and every
// row a run settled or moved on, wrote an entry at a random page of it, and at a million rows each commit rewrote
// thousands of its pages (docs/performance.md). Each query of a project now also has a small integer id, in the order
// planning first meets it (runs/query-ids.ts), and the index files rows by that: a sheet's rows land near its end.
// The key stays beside the id: it is the cache's key in lookups, shared by every project.
export const queryIds: Migration = {
  version: 10,
  name: 'query ids in row order; the rows waiting on a query indexed by id',
  up(db) {
    db.exec(`
      ALTER TABLE row_queries ADD COLUMN query_id INTEGER;
      ALTER TABLE row_status ADD COLUMN query_id INTEGER;

      -- Plans on file get ids the same way: per project, every key its rows ask or were settled by, first seen first.
      CREATE TEMP TABLE planned_ids AS
        SELECT project_id, query_key, row_number() OVER (PARTITION BY project_id ORDER BY min(seen)) - 1 AS query_id
        FROM (
          SELECT project_id, query_key, row_index * 16 + step AS seen FROM row_queries
          UNION ALL
          SELECT project_id, query_key, row_index * 16 + 15 FROM row_status WHERE query_key IS NOT NULL
        )
        GROUP BY project_id, query_key;
      CREATE UNIQUE INDEX temp.planned_ids_by_key ON planned_ids (project_id, query_key);
      UPDATE row_queries SET query_id = (
        SELECT p.query_id FROM temp.planned_ids p WHERE p.project_id = row_queries.project_id AND p.query_key = row_queries.query_key
      );
      UPDATE row_status SET query_id = (
        SELECT p.query_id FROM temp.planned_ids p WHERE p.project_id = row_status.project_id AND p.query_key = row_status.query_key
      ) WHERE query_key IS NOT NULL;
      DROP TABLE temp.planned_ids;

      DROP INDEX row_status_by_query;
      CREATE INDEX row_status_by_query ON row_status (project_id, query_id);
    `);
  },
};
