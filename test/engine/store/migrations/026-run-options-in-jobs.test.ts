import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { latestRun } from '../../../../electron/engine/runs/run-records';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);
const OPTIONS = { concurrency: 2, cacheTtlDays: 30, autoAccept: { enabled: true, minConfidence: 0.99, minLead: 0.5 } };

describe("migration 26: a run's options kept once, in its job", () => {
  it('gives each run that kept options and has no job one holding them, ended as the run ended, and drops the column', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(23));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('a', 'ready', 't', 't'), ('b', 'ready', 't', 't'), ('c', 'ready', 't', 't')").run();
      const insert = db.prepare("INSERT INTO runs (project_id, status, offline, options, counters, started_at, updated_at) VALUES (?, ?, ?, ?, '{}', 't', 't')");
      insert.run(1, 'done', 0, JSON.stringify(OPTIONS));
      // Paused: migration 24 gave it a job already.
      insert.run(1, 'paused', 1, JSON.stringify({ ...OPTIONS, concurrency: 3 }));
      insert.run(2, 'cancelled', 0, JSON.stringify(OPTIONS));
      insert.run(3, 'done', 0, null);
      migrate(db, upTo(24));
      expect(migrate(db, upTo(26)).applied).toEqual([25, 26]);

      expect(db.prepare("SELECT name FROM pragma_table_info('runs')").pluck().all()).not.toContain('options');
      const jobs = (db.prepare('SELECT project_id AS projectId, state, options FROM jobs ORDER BY id').all() as { projectId: number; state: string; options: string }[]).map(
        (j) => ({ ...j, options: JSON.parse(j.options) }),
      );
      expect(jobs).toEqual([
        { projectId: 1, state: 'paused', options: { offline: true, runId: 2, settings: { ...OPTIONS, concurrency: 3 } } },
        { projectId: 1, state: 'done', options: { offline: false, runId: 1, settings: OPTIONS } },
        { projectId: 2, state: 'cancelled', options: { offline: false, runId: 3, settings: OPTIONS } },
      ]);
      // Each run reads its own job's options, however the jobs are ordered; one that kept none reads none.
      expect(latestRun(db, 1)).toMatchObject({ id: 2, status: 'paused', settings: { ...OPTIONS, concurrency: 3 } });
      expect(latestRun(db, 2)).toMatchObject({ id: 3, settings: OPTIONS });
      expect(latestRun(db, 3)).toMatchObject({ id: 4, settings: null });
    } finally {
      db.close();
    }
  });

  it('refuses options it cannot read rather than resume a run under other ones', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(26));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('a', 'ready', 't', 't')").run();
      db.prepare("INSERT INTO runs (project_id, status, offline, counters, started_at, updated_at) VALUES (1, 'paused', 0, '{}', 't', 't')").run();
      db.prepare("INSERT INTO jobs (kind, project_id, options, state, started_at, updated_at) VALUES ('run', 1, ?, 'paused', 't', 't')").run(
        JSON.stringify({ offline: false, runId: 1, settings: { concurrency: 2 } }),
      );
      expect(() => latestRun(db, 1)).toThrow(/options stored with a run cannot be read/);
    } finally {
      db.close();
    }
  });
});
