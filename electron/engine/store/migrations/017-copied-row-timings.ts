import type { Migration } from '../migration';

// A run that copies its rows' verdicts from another project of the same sheet (runs/copied-verdicts.ts) takes about
// three quarters of what one that works them out from the cache takes, and both were
// timed as the one figure 'run': a re-run with nothing to copy was estimated by the last copied one, and the other way
// round. A copied run's rows are now timed as work of their own. SQLite cannot change a CHECK: the table is made anew.
export const copiedRowTimings: Migration = {
  version: 17,
  name: "a copied run's rows timed apart from a run's",
  up(db) {
    db.exec(`
      CREATE TABLE row_timings_new (
        -- rows/row-timing.ts RowWork: a matching run's rows worked out, or copied, or a refresh's matched rows.
        work TEXT PRIMARY KEY CHECK (work IN ('run', 'copy', 'refresh')),
        seconds_per_row REAL NOT NULL,
        updated_at TEXT NOT NULL
      );
      INSERT INTO row_timings_new (work, seconds_per_row, updated_at) SELECT work, seconds_per_row, updated_at FROM row_timings;
      DROP TABLE row_timings;
      ALTER TABLE row_timings_new RENAME TO row_timings;
    `);
  },
};
