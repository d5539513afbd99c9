import type { Migration } from '../migration';

// A row's decision kept its chosen person's whole JSON (summary, score, confidence, reason, job change) "so it
// outlives a cleared cache": three quarters of a row. People are stored once and append-only (migration 25), so a
// decision now keeps numbers: the chosen version's `people` id, its score, the model's confidence in it and the job
// change's date and reason beside the job change; its reason only where it is not the row's. Clearing the cache keeps every
// person a row or the decision log names (store/lookups.ts clearCache). A decision written before keeps its JSON in
// `chosen` and reads as it did (rows/row-status.ts): both forms read at every point, so nothing waits on a move.
// So does one taken from a refresh's record found before this version (which names no `people` row).
export const slimRowResults: Migration = {
  version: 27,
  name: "a row's decision as numbers, its person by id",
  up(db) {
    db.exec(`
      ALTER TABLE row_status ADD COLUMN chosen_person INTEGER;
      ALTER TABLE row_status ADD COLUMN chosen_score REAL;
      ALTER TABLE row_status ADD COLUMN chosen_confidence REAL;
      -- NULL: the row's own reason.
      ALTER TABLE row_status ADD COLUMN chosen_reason TEXT;
      ALTER TABLE row_status ADD COLUMN job_change_date TEXT;
      -- Why, against the sheet's company: worked out again, it cost the review's pages a read of each row's cells.
      ALTER TABLE row_status ADD COLUMN job_change_reason TEXT;

      -- The \`people\` row of a person as a refresh found them (its answer stores them there): a decision taken from it
      -- names them too. NULL for those found before.
      ALTER TABLE refreshed_people ADD COLUMN person INTEGER;
      ALTER TABLE refresh_found ADD COLUMN person INTEGER;
    `);
  },
};
