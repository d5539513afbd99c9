import type { Migration } from '../migration';

// A preview's time counted the calls only. At a million rows the engine's own work (reading, assessing and writing each
// row) is most of a run against a fast service and all of a run the cache answers, so a cached re-run or a refresh
// took several times what its preview said. What a row took on this machine where no call was in it is kept for each
// kind of work, as call_timings keeps what a call took.
export const rowTimings: Migration = {
  version: 15,
  name: "the engine's own time a row takes, by kind of work",
  up(db) {
    db.exec(`
      CREATE TABLE row_timings (
        -- rows/row-timing.ts RowWork: a matching run's rows, or a refresh's matched rows.
        work TEXT PRIMARY KEY CHECK (work IN ('run', 'refresh')),
        seconds_per_row REAL NOT NULL,
        updated_at TEXT NOT NULL
      );
    `);
  },
};
