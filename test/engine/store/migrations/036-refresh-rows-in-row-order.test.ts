import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 36: a refresh's listed rows filed by row", () => {
  it('keeps every listed row, files them by row with no index by person, and counts each person its rows', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(35));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      const refresh = db.prepare("INSERT INTO refreshes (id, project_id, scope, status, started_at, updated_at) VALUES (?, 1, 's', 'paused', 't', 't')");
      for (const id of [1, 2]) refresh.run(id);
      const person = db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) VALUES (?, ?, 'pending')");
      const row = db.prepare('INSERT INTO refresh_rows (refresh_id, slug, row_index) VALUES (?, ?, ?)');
      const listed: [number, string, number][] = [
        [1, 'ann', 7],
        [1, 'ann', 2],
        [1, 'bob', 5],
        [2, 'ann', 3],
      ];
      for (const [id, slug] of [[1, 'ann'], [1, 'bob'], [1, 'cy'], [2, 'ann']] as const) person.run(id, slug);
      for (const entry of listed) row.run(...entry);

      expect(migrate(db, upTo(36)).applied).toEqual([36]);
      const key = db.prepare("SELECT name FROM pragma_table_info('refresh_rows') WHERE pk > 0 ORDER BY pk").pluck().all();
      expect(key).toEqual(['refresh_id', 'row_index']);
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'refresh_rows' AND sql IS NOT NULL").pluck().all()).toEqual([]);
      expect(db.prepare('SELECT refresh_id, row_index, slug FROM refresh_rows').raw().all()).toEqual([
        [1, 2, 'ann'],
        [1, 5, 'bob'],
        [1, 7, 'ann'],
        [2, 3, 'ann'],
      ]);
      // A person whose rows were let go already counts none.
      expect(db.prepare('SELECT refresh_id, slug, rows FROM refresh_people ORDER BY refresh_id, slug').raw().all()).toEqual([
        [1, 'ann', 2],
        [1, 'bob', 1],
        [1, 'cy', 0],
        [2, 'ann', 1],
      ]);
      // Deleting a refresh still takes its rows with it.
      db.prepare('DELETE FROM refreshes WHERE id = 1').run();
      expect(db.prepare('SELECT count(*) FROM refresh_rows').pluck().get()).toBe(1);

      // Run again on a folder set back by hand: nothing changes.
      db.pragma('user_version = 35');
      expect(migrate(db, upTo(36)).applied).toEqual([36]);
      expect(db.prepare('SELECT refresh_id, row_index, slug FROM refresh_rows').raw().all()).toEqual([[2, 3, 'ann']]);
      expect(db.prepare('SELECT rows FROM refresh_people WHERE refresh_id = 2').pluck().all()).toEqual([1]);
    } finally {
      db.close();
    }
  });
});
