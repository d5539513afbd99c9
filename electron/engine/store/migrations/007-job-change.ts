import type { Migration } from '../migration';

// Where each matched person is now against the sheet's company (matching/job-change.ts) travels inside the decision
// (row_status.chosen, so undo and the decision log carry it too); this column reads it out for counts and filters
// without parsing every decision: "412 moved, 58 left, 3,120 still there" over a million rows.
export const jobChangeColumn: Migration = {
  version: 7,
  name: "the matched person's job change, readable and indexed",
  up(db) {
    db.exec(`
      ALTER TABLE row_status ADD COLUMN job_change TEXT GENERATED ALWAYS AS (
        CASE WHEN state IN ('auto', 'accepted') THEN json_extract(chosen, '$.jobChange.status') END
      ) VIRTUAL;
      CREATE INDEX row_status_by_job_change ON row_status (project_id, job_change) WHERE job_change IS NOT NULL;
    `);
  },
};
