import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate, openDatabase } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

function addProject(db: Database.Database): number {
  return Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
}

const documentsOf = (db: Database.Database, projectId: number) =>
  db.prepare('SELECT rowid & 4294967295 FROM row_text WHERE rowid BETWEEN (? << 32) AND (? << 32) + 4294967295 ORDER BY rowid').pluck().all(projectId, projectId);

describe('migration 4: the text index of the rows', () => {
  it('runs after migrations 1 to 3 and sets user_version 4, keeping existing projects', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(3));
      const id = addProject(db);
      expect(migrate(db, upTo(4)).applied).toEqual([4]);
      expect(db.pragma('user_version', { simple: true })).toBe(4);
      expect(db.prepare('SELECT id FROM projects').pluck().all()).toEqual([id]);
      expect((db.pragma('table_info(row_text_state)') as { name: string }[]).map((c) => c.name)).toEqual(['project_id', 'signature', 'next_row', 'done']);
      expect(db.prepare("SELECT v FROM row_text_config WHERE k = 'automerge'").pluck().get()).toBe(16);
    } finally {
      db.close();
    }
  });

  it('finds substrings ignoring case and accents, and drops a project’s documents with the project only', () => {
    const db = openDatabase(':memory:', { migrations: upTo(4) });
    try {
      const [a, b] = [addProject(db), addProject(db)];
      const put = db.prepare('INSERT INTO row_text (rowid, text) VALUES ((? << 32) | ?, ?)');
      for (const id of [a, b]) {
        db.prepare("INSERT INTO row_text_state (project_id, signature, done) VALUES (?, 's', 1)").run(id);
        put.run(id, 0, 'María García');
        put.run(id, 7, 'garcia@example.com');
        put.run(id, 9, 'Somebody Else');
      }
      const find = (id: number, phrase: string) =>
        db.prepare('SELECT rowid & 4294967295 FROM row_text WHERE row_text MATCH ? AND rowid BETWEEN (? << 32) AND (? << 32) + 4294967295').pluck().all(phrase, id, id);
      expect(find(a, '"GARCÍA"')).toEqual([0, 7]);
      expect(find(b, '"rcia@ex"')).toEqual([7]);

      db.prepare('DELETE FROM projects WHERE id = ?').run(a);
      expect(documentsOf(db, a)).toEqual([]);
      expect(documentsOf(db, b)).toEqual([0, 7, 9]);
      expect(db.prepare('SELECT project_id FROM row_text_state').pluck().all()).toEqual([b]);
    } finally {
      db.close();
    }
  });
});
