import type { Migration } from '../migration';

// Export showed when each row's answer was fetched by joining lookups on the row's query key: a probe into the
// cache's hash-ordered key index and a read of the answer's row (1.7 KB of candidates on average) per exported row,
// a large share of a big export's time (docs/performance.md, "SQLite"). The row now keeps the time of the answer
// that settled it.
// The job change index holds only rows that have one: every row a run settled rewrote its entry under NULL, a
// seventh of the cost of settling a row, for an index only ever read for a job change (= or IN, or IS NOT NULL).
export const rowFetchedAt: Migration = {
  version: 11,
  name: 'row_status keeps when the answer that settled a row was fetched; job changes indexed only where there is one',
  up(db) {
    db.exec(`
      ALTER TABLE row_status ADD COLUMN fetched_at INTEGER;
      UPDATE row_status SET fetched_at = (SELECT l.fetched_at FROM lookups AS l WHERE l.query_key = row_status.query_key)
        WHERE query_key IS NOT NULL AND outcome IN ('to_review', 'no_candidates', 'error');
      DROP INDEX row_status_by_job_change;
      CREATE INDEX row_status_by_job_change ON row_status (project_id, job_change) WHERE job_change IS NOT NULL;
    `);
  },
};
