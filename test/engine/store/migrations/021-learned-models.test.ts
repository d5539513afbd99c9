import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 21: what a project learned from its reviewer's decisions", () => {
  it('adds an empty table beside the projects there were, one state a project, gone with its project', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(20));
      const project = Number(
        db.prepare("INSERT INTO projects (name, headers, row_count, status, created_at, updated_at) VALUES ('old', '[\"Name\"]', 1, 'ready', 't', 't')").run().lastInsertRowid,
      );
      expect(migrate(db, upTo(21)).applied).toEqual([21]);
      expect(db.prepare('SELECT count(*) FROM learned_models').pluck().get()).toBe(0);
      const learn = db.prepare("INSERT INTO learned_models (project_id, model_version, patterns, labels, rows_lifted, learned_at) VALUES (?, 3, '{}', 0, 0, 't')");
      learn.run(project);
      expect(() => learn.run(project)).toThrow(/UNIQUE|PRIMARY KEY/u);
      db.prepare('DELETE FROM projects WHERE id = ?').run(project);
      expect(db.prepare('SELECT count(*) FROM learned_models').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
