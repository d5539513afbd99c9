import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 37: person versions' removals counted", () => {
  it('counts every person version removed, by any statement, and runs again on a folder set back by hand', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(36));
      const add = db.prepare('INSERT INTO person_digests (id, digest) VALUES (?, ?)');
      for (const id of [1, 2, 3, 4]) add.run(id, id * 1000);
      expect(migrate(db, upTo(37)).applied).toEqual([37]);
      const removed = () => db.prepare('SELECT removed FROM person_removals').pluck().all();
      expect(removed()).toEqual([0]);
      db.prepare('DELETE FROM person_digests WHERE id = 4').run();
      db.prepare('DELETE FROM person_digests WHERE id < 3').run();
      expect(removed()).toEqual([3]);
      // An insert or an update is not a removal.
      add.run(5, 5000);
      db.prepare('UPDATE person_digests SET digest = 0 WHERE id = 3').run();
      expect(removed()).toEqual([3]);

      db.pragma('user_version = 36');
      expect(migrate(db, upTo(37)).applied).toEqual([37]);
      expect(removed()).toEqual([3]);
      db.prepare('DELETE FROM person_digests').run();
      expect(removed()).toEqual([5]);
    } finally {
      db.close();
    }
  });
});
