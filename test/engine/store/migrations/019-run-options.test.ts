import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { latestRun } from '../../../../electron/engine/runs/run-records';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 19: a run keeps the options it started with', () => {
  it('leaves the runs made before without options (they resume under the settings) and refuses options it cannot read', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(18));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      db.prepare("INSERT INTO runs (project_id, status, offline, counters, started_at, updated_at) VALUES (1, 'paused', 0, '{}', 't', 't')").run();

      expect(migrate(db, upTo(19)).applied).toEqual([19]);
      expect(latestRun(db, 1)).toMatchObject({ status: 'paused', settings: null });

      const options = { concurrency: 2, cacheTtlDays: 30, autoAccept: { enabled: true, minConfidence: 0.99, minLead: 0.5 } };
      db.prepare('UPDATE runs SET options = ?').run(JSON.stringify(options));
      expect(latestRun(db, 1)!.settings).toEqual(options);

      db.prepare('UPDATE runs SET options = ?').run('{"concurrency":2}');
      expect(() => latestRun(db, 1)).toThrow(/options stored with a run cannot be read/);
    } finally {
      db.close();
    }
  });
});
