import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 31: queries' removals counted", () => {
  it('counts every query removed, by any statement, and none a rolled-back removal', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(30));
      const insert = db.prepare('INSERT INTO queries (digest, query) VALUES (?, ?)');
      for (let i = 1; i <= 5; i++) insert.run(i * 11, `[["email_address","q${i}@example.com"]]`);
      expect(migrate(db, upTo(31)).applied).toEqual([31]);
      const removed = () => db.prepare('SELECT removed FROM query_removals').pluck().get();
      expect(removed()).toBe(0);

      db.prepare('DELETE FROM queries WHERE id = 2').run();
      expect(removed()).toBe(1);
      db.prepare('DELETE FROM queries WHERE id > 3').run();
      expect(removed()).toBe(3);
      expect(() =>
        db.transaction(() => {
          db.prepare('DELETE FROM queries').run();
          throw new Error('stopped');
        })(),
      ).toThrow('stopped');
      expect(removed()).toBe(3);
      expect(db.prepare('SELECT id FROM queries ORDER BY id').pluck().all()).toEqual([1, 3]);
    } finally {
      db.close();
    }
  });
});
