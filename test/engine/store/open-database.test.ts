import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALL_MIGRATIONS,
  DatabaseNeedsUpgrade,
  DatabaseTooNew,
  DatabaseUnreadable,
  getProfile,
  latestVersion,
  migrate,
  openDatabase,
  saveProfile,
} from '../../../electron/engine/store';
import { tempFolder } from './temp-folder';
import { skipBecause } from '../../support/skips';

const posixSkipped = skipBecause('the owner-only file permission tests', process.platform === 'win32' ? 'Windows has no POSIX file modes' : null);
const mode = (p: string) => statSync(p).mode & 0o777;
const fingerprint = (p: string) => ({
  sha256: createHash('sha256').update(readFileSync(p)).digest('hex'),
  mtimeMs: statSync(p).mtimeMs,
  size: statSync(p).size,
});

describe('openDatabase', () => {
  it('creates missing folders and the file, sets WAL, foreign keys, synchronous NORMAL and a busy timeout', () => {
    const file = join(tempFolder(), 'a', 'b', 'matchdesk.db');
    const db = openDatabase(file);
    try {
      expect(existsSync(file)).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(30000);
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
    } finally {
      db.close();
    }
  });

  it('gives a new file 4 KB pages and leaves an existing file its own', () => {
    const folder = tempFolder();
    const made = openDatabase(join(folder, 'new.db'));
    try {
      expect(made.pragma('page_size', { simple: true })).toBe(4096);
      expect(made.pragma('auto_vacuum', { simple: true })).toBe(2);
    } finally {
      made.close();
    }
    // A folder an earlier version made with 2 KB pages and half its migrations: brought up to date, pages unchanged.
    const file = join(folder, 'old.db');
    const old = new Database(file);
    old.pragma('page_size = 2048');
    old.pragma('journal_mode = WAL');
    migrate(old, ALL_MIGRATIONS.slice(0, 20));
    saveProfile(old, { id: 'p1', name: 'Work', baseUrl: 'https://x.test', orgId: 'o', kind: 'api_key', login: null, createdAt: '2026-01-01T00:00:00.000Z' });
    old.close();
    const again = openDatabase(file);
    try {
      expect(again.pragma('page_size', { simple: true })).toBe(2048);
      expect(again.pragma('user_version', { simple: true })).toBe(latestVersion());
      expect(getProfile(again, 'p1')?.name).toBe('Work');
      expect(again.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      again.close();
    }
  });

  it.skipIf(posixSkipped)('makes the file, its WAL sidecars and the folders it creates owner-only', () => {
    const root = tempFolder();
    chmodSync(root, 0o755);
    const file = join(root, 'new', 'nested', 'matchdesk.db');
    const db = openDatabase(file);
    try {
      db.prepare("INSERT INTO settings (key, value) VALUES ('probe', '1')").run();
      expect(mode(file)).toBe(0o600);
      for (const sidecar of [`${file}-wal`, `${file}-shm`]) {
        expect(existsSync(sidecar)).toBe(true);
        expect(mode(sidecar)).toBe(0o600);
      }
      expect(mode(join(root, 'new'))).toBe(0o700);
      expect(mode(join(root, 'new', 'nested'))).toBe(0o700);
      // A folder that already existed is the user's: its permissions are not ours to change.
      expect(mode(root)).toBe(0o755);
    } finally {
      db.close();
    }
  });

  it.skipIf(posixSkipped)('tightens an existing data file that others could read', () => {
    const file = join(tempFolder(), 'matchdesk.db');
    openDatabase(file).close();
    chmodSync(file, 0o644);
    openDatabase(file).close();
    expect(mode(file)).toBe(0o600);
  });

  it('keeps data across reopen and runs no migration twice', () => {
    const file = join(tempFolder(), 'matchdesk.db');
    const first = openDatabase(file);
    saveProfile(first, { id: 'p1', name: 'Work', baseUrl: 'https://x.test', orgId: 'o', kind: 'api_key', login: null, createdAt: '2026-01-01T00:00:00.000Z' });
    first.close();
    const again = openDatabase(file);
    try {
      expect(getProfile(again, 'p1')?.name).toBe('Work');
      expect(again.pragma('user_version', { simple: true })).toBe(latestVersion());
    } finally {
      again.close();
    }
  });

  it('refuses a file written by a newer Matchdesk and leaves it untouched', () => {
    const file = join(tempFolder(), 'matchdesk.db');
    openDatabase(file).close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    const before = fingerprint(file);

    let error: unknown;
    try {
      openDatabase(file).close();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseTooNew);
    const tooNew = error as DatabaseTooNew;
    expect(tooNew.fileVersion).toBe(99);
    expect(tooNew.supportedVersion).toBe(latestVersion());
    expect(tooNew.message).toContain(file);
    expect(tooNew.message).toContain('newer Matchdesk');
    expect(tooNew.message).toContain('version 99');
    expect(tooNew.message).toContain(`version ${latestVersion()}`);
    expect(fingerprint(file)).toEqual(before);
  });

  it('reports a file that is not a database as DatabaseUnreadable and leaves it untouched', () => {
    const file = join(tempFolder(), 'people.db');
    writeFileSync(file, 'name,email\nAda Lovelace,ada@example.com\n'.repeat(200));
    const before = fingerprint(file);
    let error: unknown;
    try {
      openDatabase(file).close();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseUnreadable);
    expect((error as DatabaseUnreadable).reason).toBe('not_a_database');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/not a Matchdesk database or is damaged/);
    expect(fingerprint(file).sha256).toBe(before.sha256);
  });

  it('reports a folder where the file should be as DatabaseUnreadable', () => {
    const file = join(tempFolder(), 'matchdesk.db');
    mkdirSync(file);
    expect(() => openDatabase(file)).toThrow(DatabaseUnreadable);
    expect(statSync(file).isDirectory()).toBe(true);
  });

  it('opens read-only without writing, and refuses a read-only open that would need migrating', () => {
    const folder = tempFolder();
    const file = join(folder, 'matchdesk.db');
    const writable = openDatabase(file);
    saveProfile(writable, { id: 'p1', name: 'Work', baseUrl: 'https://x.test', orgId: 'o', kind: 'password', login: 'me', createdAt: '2026-01-01T00:00:00.000Z' });
    writable.close();

    const reader = openDatabase(file, { readonly: true });
    try {
      expect(getProfile(reader, 'p1')?.login).toBe('me');
      expect(() => reader.prepare("INSERT INTO settings (key, value) VALUES ('k', '1')").run()).toThrow(/readonly/i);
    } finally {
      reader.close();
    }

    const empty = join(folder, 'empty.db');
    writeFileSync(empty, '');
    expect(() => openDatabase(empty, { readonly: true })).toThrow(DatabaseNeedsUpgrade);
    expect(() => openDatabase(join(folder, 'missing.db'), { readonly: true })).toThrow(DatabaseUnreadable);
    expect(existsSync(join(folder, 'missing.db'))).toBe(false);
  });

  it('knows every migration in order', () => {
    expect(ALL_MIGRATIONS.map((m) => m.version)).toEqual(ALL_MIGRATIONS.map((_, i) => i + 1));
  });
});
