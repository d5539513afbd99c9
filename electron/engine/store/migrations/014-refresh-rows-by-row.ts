import type { Migration } from '../migration';

// A refresh asks for its people first and then brings their rows up to date in sheet order (refresh/refresh-rows.ts):
// a call's 100 people have rows anywhere in the project, and writing them as each call landed wrote several pages a
// row at random in a large project (docs/performance.md, "Refresh"). The walk in sheet order reads the
// refresh's listed rows by row, and each row's person's fresh facts by position: refreshed_people, keyed by profile,
// keeps ~1 KB rows in a WITHOUT ROWID b-tree ~8 levels deep, and a large refresh's rows looking their person up there
// was a large part of its time.
export const refreshRowsByRow: Migration = {
  version: 14,
  name: "a refresh's listed rows by row, and the facts of the people it found",
  up(db) {
    db.exec(`
      CREATE INDEX refresh_rows_by_row ON refresh_rows (refresh_id, row_index);

      -- The fresh facts of each person a refresh found (matching/candidate-facts.ts storedPersonFacts), in the order
      -- their answers landed; refresh_people.found_id points here. Let go with the refresh's list of rows.
      CREATE TABLE refresh_found (
        id INTEGER PRIMARY KEY,
        refresh_id INTEGER NOT NULL REFERENCES refreshes (id) ON DELETE CASCADE,
        facts TEXT NOT NULL
      );
      CREATE INDEX refresh_found_by_refresh ON refresh_found (refresh_id);
      ALTER TABLE refresh_people ADD COLUMN found_id INTEGER;
    `);
  },
};
