import type { Migration } from '../migration';

// Planning finds a query's id by its digest in memory (store/digest-ids.ts). Checking each hit against `queries`, in
// case the row was removed meanwhile, read a random page of it, and at a million rows half the queries planned are
// repeats. Removals are counted instead, whatever removes them (any statement, connection or process): the ids in
// memory are read again when the count has moved.
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
