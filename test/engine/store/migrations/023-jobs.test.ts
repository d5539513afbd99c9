import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 23: every long piece of work is a job with its options', () => {
  it('adds the jobs table, whose rows go with their project', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(22));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      expect(migrate(db, upTo(23)).applied).toEqual([23]);
      db.prepare("INSERT INTO jobs (kind, project_id, options, state, started_at, updated_at) VALUES ('refresh', 1, '{\"concurrency\":2}', 'paused', 't', 't')").run();
      db.prepare("INSERT INTO jobs (kind, project_id, state, started_at, updated_at) VALUES ('import', NULL, 'done', 't', 't')").run();
      expect(db.prepare('SELECT kind, options, done, total, phase FROM jobs ORDER BY id').all()).toEqual([
        { kind: 'refresh', options: '{"concurrency":2}', done: 0, total: 0, phase: '' },
        { kind: 'import', options: '{}', done: 0, total: 0, phase: '' },
      ]);
      db.prepare('DELETE FROM projects WHERE id = 1').run();
      expect(db.prepare('SELECT kind FROM jobs').pluck().all()).toEqual(['import']);
    } finally {
      db.close();
    }
  });
});
