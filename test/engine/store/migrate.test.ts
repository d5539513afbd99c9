import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, DatabaseTooNew, MigrationFailed, migrate, openDatabase, type Migration } from '../../../electron/engine/store';
import { tempFolder } from './temp-folder';

const tableNames = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

const first = ALL_MIGRATIONS[0];

describe('migrate', () => {
  it('applies every pending migration and reports what it did', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      const outcome = migrate(db);
      expect(outcome).toEqual({ from: 0, to: ALL_MIGRATIONS.length, applied: ALL_MIGRATIONS.map((m) => m.version) });
      expect(migrate(db)).toEqual({ from: ALL_MIGRATIONS.length, to: ALL_MIGRATIONS.length, applied: [] });
    } finally {
      db.close();
    }
  });

  it('rolls a failed upgrade back entirely, including earlier steps of the same run', () => {
    const file = join(tempFolder(), 'm.db');
    const broken: Migration = {
      version: 2,
      name: 'broken on purpose',
      up(db) {
        db.exec('CREATE TABLE half_done (x)');
        throw new Error('disk on fire');
      },
    };
    let error: unknown;
    try {
      openDatabase(file, { migrations: [first, broken] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MigrationFailed);
    expect((error as MigrationFailed).version).toBe(2);
    expect((error as Error).message).toContain('disk on fire');
    expect((error as Error).message).toContain(file);

    const raw = new Database(file);
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(0);
      expect(tableNames(raw)).toEqual([]);
    } finally {
      raw.close();
    }
  });

  it('keeps a migrated file and its data as they were when the next step fails', () => {
    const file = join(tempFolder(), 'm.db');
    const db = openDatabase(file, { migrations: [first] });
    db.prepare("INSERT INTO settings (key, value) VALUES ('concurrency', '8')").run();
    const broken: Migration = {
      version: 2,
      name: 'adds a column then fails',
      up(inner) {
        inner.exec("ALTER TABLE settings ADD COLUMN note TEXT; UPDATE settings SET value = '1'");
        inner.exec('THIS IS NOT SQL');
      },
    };
    expect(() => migrate(db, [first, broken])).toThrow(MigrationFailed);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(1);
      expect(db.prepare('SELECT * FROM settings').all()).toEqual([{ key: 'concurrency', value: '8' }]);
    } finally {
      db.close();
    }
  });

  it('refuses a database newer than its newest migration', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma(`user_version = ${ALL_MIGRATIONS.length + 1}`);
      expect(() => migrate(db)).toThrow(DatabaseTooNew);
      expect(tableNames(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('refuses a migration list with gaps or out of order', () => {
    const db = new Database(':memory:');
    try {
      const third: Migration = { version: 3, name: 'skips two', up: () => {} };
      expect(() => migrate(db, [first, third])).toThrow(/expected 2/);
      expect(db.pragma('user_version', { simple: true })).toBe(0);
    } finally {
      db.close();
    }
  });
});
