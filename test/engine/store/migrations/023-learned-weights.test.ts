import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 23: the model's figures a project's learning estimated from its sheet", () => {
  it('keeps what projects learned before, with no figures, and stores them beside the labels after', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(22));
      const project = Number(
        db.prepare("INSERT INTO projects (name, headers, row_count, status, created_at, updated_at) VALUES ('old', '[\"Name\"]', 1, 'ready', 't', 't')").run().lastInsertRowid,
      );
      db.prepare("INSERT INTO learned_models (project_id, model_version, patterns, labels, rows_lifted, learned_at) VALUES (?, 3, '{\"a\":{\"accepted\":1,\"rejected\":0}}', 1, 0, 't')").run(project);
      expect(migrate(db, upTo(23)).applied).toEqual([23]);
      expect(db.prepare('SELECT patterns, weights FROM learned_models WHERE project_id = ?').get(project)).toEqual({ patterns: '{"a":{"accepted":1,"rejected":0}}', weights: null });
      db.prepare("UPDATE learned_models SET weights = '{}' WHERE project_id = ?").run(project);
      expect(db.prepare('SELECT weights FROM learned_models').pluck().get()).toBe('{}');
    } finally {
      db.close();
    }
  });
});
