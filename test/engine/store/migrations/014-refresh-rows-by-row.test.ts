import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 14: a refresh's listed rows by row", () => {
  it('reads the rows listed before it in sheet order, through the new index, and keeps the facts of the people found', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(13));
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const refresh = Number(db.prepare("INSERT INTO refreshes (project_id, scope, status, started_at, updated_at) VALUES (?, 's', 'paused', 't', 't')").run(project).lastInsertRowid);
      const list = db.prepare('INSERT INTO refresh_rows (refresh_id, slug, row_index) VALUES (?, ?, ?)');
      for (const [slug, row] of [['b', 0], ['a', 3], ['b', 2], ['a', 1]] as const) list.run(refresh, slug, row);

      expect(migrate(db, upTo(14)).applied).toEqual([14]);
      const inOrder = 'SELECT row_index, slug FROM refresh_rows INDEXED BY refresh_rows_by_row WHERE refresh_id = ? AND row_index > ? ORDER BY row_index';
      expect(db.prepare(inOrder).raw().all(refresh, 0)).toEqual([[1, 'a'], [2, 'b'], [3, 'a']]);
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${inOrder}`).all(refresh, 0) as { detail: string }[];
      expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE/);

      // The people found keep their facts by position; they go with their refresh.
      db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) VALUES (?, 'a', 'pending')").run(refresh);
      const found = Number(db.prepare("INSERT INTO refresh_found (refresh_id, facts) VALUES (?, '{}')").run(refresh).lastInsertRowid);
      db.prepare("UPDATE refresh_people SET state = 'found', found_id = ? WHERE refresh_id = ? AND slug = 'a'").run(found, refresh);
      expect(db.prepare('SELECT f.facts FROM refresh_people AS p JOIN refresh_found AS f ON f.id = p.found_id').pluck().all()).toEqual(['{}']);
      db.prepare('DELETE FROM refreshes WHERE id = ?').run(refresh);
      expect(db.prepare('SELECT count(*) FROM refresh_found').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
