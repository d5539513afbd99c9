import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 22: watches, person history, important rows and the inbox', () => {
  it('adds the tables to a database of the version before, keeps one version per person state, and lets a project go with its watch', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(21));
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      expect(migrate(db, upTo(22)).applied).toEqual([22]);

      const watch = db.prepare("INSERT INTO watches (project_id, every_days, weekday, profile_id, next_due_at, created_at) VALUES (1, ?, ?, 'p1', 't', 't')");
      expect(() => watch.run(null, null), 'a schedule is needed').toThrow(/CHECK/);
      expect(() => watch.run(30, 1), 'one schedule, not two').toThrow(/CHECK/);
      watch.run(30, null);

      const version = db.prepare("INSERT INTO person_versions (scope, slug, company, title, since) VALUES ('s', 'ann', ?, 'CTO', NULL)");
      version.run('Globex');
      expect(() => version.run('Globex'), 'the same state twice').toThrow(/UNIQUE/);
      version.run(null);
      expect(() => version.run(null), 'no company, twice').toThrow(/UNIQUE/);

      db.prepare('DELETE FROM projects WHERE id = 1').run();
      expect(db.prepare('SELECT count(*) FROM watches').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
