import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 19: a run keeps the options it started with', () => {
  it('adds a column for them, empty on the runs made before (they resume under the settings)', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(18));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      db.prepare("INSERT INTO runs (project_id, status, offline, counters, started_at, updated_at) VALUES (1, 'paused', 0, '{}', 't', 't')").run();

      expect(migrate(db, upTo(19)).applied).toEqual([19]);
      expect(db.prepare('SELECT options FROM runs').pluck().all()).toEqual([null]);
      // Since migration 26 they are kept with the run's job instead (026-run-options-in-jobs.test.ts).
    } finally {
      db.close();
    }
  });
});
