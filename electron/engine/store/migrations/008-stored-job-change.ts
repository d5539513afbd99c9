import type { Migration } from '../migration';

// Two indexes made cheaper, measured on a 30,000-row run (npm run bench and a CPU profile):
// - The job change as a VIRTUAL generated column: SQLite never reads an index on one as covering, so counting the
//   matched rows per job change read every row's decision at every review page (seconds in a large project).
//   It becomes a plain column that every writer of a decision sets (rows/row-status.ts jobChangeOf), read by a
//   covering index.
// - The confidence index over every row: each settled row moved its entry (a third of the cost of settling it).
//   Only the rows waiting for review are sorted and accepted by confidence, so only they are indexed.
export const storedJobChange: Migration = {
  version: 8,
  name: 'the job change stored beside the decision; the confidence index on rows to review only',
  up(db) {
    db.exec(`
      DROP INDEX row_status_by_job_change;
      ALTER TABLE row_status DROP COLUMN job_change;
      ALTER TABLE row_status ADD COLUMN job_change TEXT;
      UPDATE row_status SET job_change = json_extract(chosen, '$.jobChange.status')
        WHERE state IN ('auto', 'accepted') AND chosen IS NOT NULL;
      CREATE INDEX row_status_by_job_change ON row_status (project_id, job_change);

      DROP INDEX row_status_by_confidence;
      CREATE INDEX row_status_to_review_by_confidence ON row_status (project_id, confidence) WHERE state = 'to_review';
    `);
  },
};
