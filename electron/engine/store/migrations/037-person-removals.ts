import type { Migration } from '../migration';

// A run finds a person version's id by its digest in memory (store/digest-ids.ts). Each hit was checked against
// `person_digests`, in case clearing the cache removed the row meanwhile: at a million rows three in five of a
// reply's people are stored already, and each check read a page of that table. Removals are counted instead, as
// queries' are (migration 31), whatever removes them: a hit read at a write transaction's start needs no check while
// the count stands.
export const personRemovals: Migration = {
  version: 37,
  name: "person versions' removals counted",
  up(db) {
    // Idempotent, as the steps before it are: a folder set back to an older version by hand runs it again.
    db.exec(`
      CREATE TABLE IF NOT EXISTS person_removals (removed INTEGER NOT NULL);
      INSERT INTO person_removals (removed) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM person_removals);
      CREATE TRIGGER IF NOT EXISTS person_digests_removed AFTER DELETE ON person_digests BEGIN
        UPDATE person_removals SET removed = removed + 1;
      END;
    `);
  },
};
