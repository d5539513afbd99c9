import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate, openDatabase } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo1 = ALL_MIGRATIONS.filter((m) => m.version <= 1);
const columns = (db: Database.Database, table: string) =>
  (db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[]).map((c) => [c.name, c.type, c.notnull, c.pk]);

describe('migration 1: profiles, settings, lookups', () => {
  it('creates the three tables and the fetched_at index, and sets user_version 1', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      expect(migrate(db, upTo1).applied).toEqual([1]);
      expect(db.pragma('user_version', { simple: true })).toBe(1);
      expect(columns(db, 'settings')).toEqual([
        ['key', 'TEXT', 0, 1],
        ['value', 'TEXT', 1, 0],
      ]);
      expect(columns(db, 'profiles')).toEqual([
        ['id', 'TEXT', 0, 1],
        ['name', 'TEXT', 1, 0],
        ['base_url', 'TEXT', 1, 0],
        ['org_id', 'TEXT', 1, 0],
        ['kind', 'TEXT', 1, 0],
        ['login', 'TEXT', 0, 0],
        ['created_at', 'TEXT', 1, 0],
      ]);
      expect(columns(db, 'lookups')).toEqual([
        ['query_key', 'TEXT', 0, 1],
        ['query', 'TEXT', 1, 0],
        ['fetched_at', 'INTEGER', 1, 0],
        ['status', 'TEXT', 1, 0],
        ['candidates', 'TEXT', 0, 0],
        ['error', 'TEXT', 0, 0],
      ]);
      const indexed = db.pragma('index_list(lookups)') as { name: string }[];
      const byFetchedAt = indexed.filter((i) => (db.pragma(`index_info(${i.name})`) as { name: string }[]).some((c) => c.name === 'fetched_at'));
      expect(byFetchedAt).toHaveLength(1);
    } finally {
      db.close();
    }
  });

  it('checks credential kinds and lookup statuses', () => {
    const db = new Database(':memory:');
    try {
      migrate(db, upTo1);
      expect(() =>
        db.prepare("INSERT INTO profiles VALUES ('p', 'n', 'u', 'o', 'oauth', NULL, 't')").run(),
      ).toThrow(/CHECK constraint/);
      expect(() => db.prepare("INSERT INTO lookups VALUES ('k', '{}', 1, 'maybe', NULL, NULL)").run()).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });

  it('has no column that could hold a secret', () => {
    const db = new Database(':memory:');
    try {
      migrate(db, upTo1);
      const names = ['settings', 'profiles', 'lookups'].flatMap((t) => columns(db, t).map((c) => String(c[0])));
      expect(names.filter((n) => /secret|password|token|api_?key/i.test(n))).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('is idempotent: running again or reopening changes nothing and keeps the rows', () => {
    const file = join(tempFolder(), 'm.db');
    const db = new Database(file);
    migrate(db, upTo1);
    db.prepare("INSERT INTO settings (key, value) VALUES ('cacheTtlDays', '7')").run();
    expect(migrate(db, upTo1).applied).toEqual([]);
    db.close();

    const reopened = openDatabase(file, { migrations: upTo1 });
    try {
      expect(reopened.pragma('user_version', { simple: true })).toBe(1);
      expect(reopened.prepare('SELECT value FROM settings WHERE key = ?').pluck().get('cacheTtlDays')).toBe('7');
    } finally {
      reopened.close();
    }
  });
});
