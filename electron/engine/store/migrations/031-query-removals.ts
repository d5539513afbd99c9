import type { Migration } from '../migration';

// Planning finds a query's id by its digest in memory (store/digest-ids.ts) and checked each hit against `queries`,
// in case the row was removed meanwhile: at a million rows half the queries planned are repeats, and each check read a
// random page of the table. Removals are counted instead, by any connection or process, whatever removes them; the
// ids in memory are read again when the count has moved.
export const queryRemovals: Migration = {
  version: 31,
  name: "queries' removals counted",
  up(db) {
    db.exec(`
      CREATE TABLE query_removals (removed INTEGER NOT NULL);
      INSERT INTO query_removals (removed) VALUES (0);
      CREATE TRIGGER queries_removed AFTER DELETE ON queries BEGIN
        UPDATE query_removals SET removed = removed + 1;
      END;
    `);
  },
};
