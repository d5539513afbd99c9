import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 24: every long piece of work is a job with its options', () => {
  it('adds the jobs table, whose rows go with their project', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(23));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      expect(migrate(db, upTo(24)).applied).toEqual([24]);
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

  it('gives each stopped run that kept its options a job holding them, which its resume reads', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(23));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      const options = { concurrency: 2, cacheTtlDays: 30, autoAccept: { enabled: true, minConfidence: 0.99, minLead: 0.5 } };
      const insert = db.prepare("INSERT INTO runs (project_id, status, offline, options, counters, started_at, updated_at) VALUES (1, ?, ?, ?, '{}', 't', 't')");
      insert.run('done', 0, JSON.stringify(options));
      insert.run('paused', 1, JSON.stringify(options));
      insert.run('paused', 0, null);
      migrate(db, upTo(24));
      const jobs = db.prepare('SELECT kind, project_id AS projectId, state, options FROM jobs').all() as { options: string }[];
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ kind: 'run', projectId: 1, state: 'paused' });
      expect(JSON.parse(jobs[0].options)).toEqual({ offline: true, runId: 2, settings: options });
    } finally {
      db.close();
    }
  });
});
