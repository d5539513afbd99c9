import type { Migration } from '../migration';
import { personVersionDigest } from '../person-versions';

// A person's state a refresh saw is found again by a digest kept in memory (store/person-versions.ts), as people and
// queries are, not by a unique index on its text: a refresh's new versions went each to a random page of that index,
// and every call's commit rewrote about a hundred of them (half of what a 100k-row refresh wrote). The versions are
// never removed, and the table is filed by id, so the digests are read back in id order.
export const personVersionsByDigest: Migration = {
  version: 35,
  name: 'person versions found by their digest',
  up(db) {
    // Idempotent, as the steps before it are: a folder set back to an older version by hand runs it again.
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('person_versions');
    if (!columns.includes('digest')) db.exec('ALTER TABLE person_versions ADD COLUMN digest INTEGER');
    // A slice of versions at a time: a statement's rows cannot be written while it is read.
    const versions = db.prepare('SELECT id, scope, slug, company, title, since FROM person_versions WHERE id > ? ORDER BY id LIMIT 5000').raw();
    const setDigest = db.prepare('UPDATE person_versions SET digest = ? WHERE id = ?');
    for (let after = 0; ; ) {
      const slice = versions.all(after) as [number, string, string, string | null, string | null, string | null][];
      if (slice.length === 0) break;
      for (const [id, scope, slug, company, title, since] of slice) setDigest.run(personVersionDigest(scope, slug, company, title, since), id);
      after = slice.at(-1)![0];
    }
    db.exec('DROP INDEX IF EXISTS person_versions_key');
  },
};
