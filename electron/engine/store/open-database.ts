import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { guarded, watchForDamage } from './damage-watch';
import { DatabaseNeedsUpgrade, DatabaseTooNew, DatabaseUnreadable } from './errors';
import { latestVersion, migrate, migrateInSlices, schemaVersion, type MigrateOptions } from './migrate';
import { createPrivateFolders } from './private-folder';
import type { Migration } from './migration';
import { ALL_MIGRATIONS } from './migrations';
import { WalBudget } from './wal-budget';

export interface OpenDatabaseOptions {
  readonly?: boolean;
  /** Tests inject a different list; the app always uses every migration. */
  migrations?: readonly Migration[];
}

export interface OpenInSlicesOptions extends OpenDatabaseOptions, MigrateOptions {
  /** Stops a long migration between two slices (migrate.ts migrateInSlices): the next open goes on from there. */
  signal?: AbortSignal;
  /** Runs on the open connection before it migrates (its page cache, for one). */
  configure?: (db: SqliteDatabase) => void;
}

const posix = process.platform !== 'win32';

/**
 * A new file's page size. 2 KB pages made a first run write a tenth less (a commit rewrites the partly filled last pages
 * of the tables it appends to), but every read of a large project dearer: the cached re-run and a project's deletion
 * (docs/performance.md, "SQLite"). A file keeps the page size it was made with.
 */
export const NEW_FILE_PAGE_SIZE = 4096;

/**
 * Opens (creating when needed) the one data file: owner-only permissions, WAL, foreign keys on, then migrated.
 * Throws DatabaseTooNew, DatabaseUnreadable, DatabaseNeedsUpgrade (read-only) or MigrationFailed. A damaged page found
 * later throws DatabaseUnreadable too, and the connection is stopped (damage-watch.ts).
 */
export function openDatabase(file: string, opts: OpenDatabaseOptions = {}): SqliteDatabase {
  const db = openUnmigrated(file, opts);
  try {
    if (!opts.readonly) migrate(db, opts.migrations ?? ALL_MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * openDatabase() for the engine's start: a long migration lets other work run between its slices (a host shows its
 * progress), and may be stopped there (MigrationStopped).
 */
export async function openDatabaseInSlices(file: string, opts: OpenInSlicesOptions = {}): Promise<SqliteDatabase> {
  const db = openUnmigrated(file, opts);
  try {
    opts.configure?.(db);
    if (!opts.readonly) await migrateInSlices(db, opts.migrations ?? ALL_MIGRATIONS, opts);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The file opened, checked and set up, not yet migrated. */
function openUnmigrated(file: string, opts: OpenDatabaseOptions): SqliteDatabase {
  const readonly = opts.readonly ?? false;
  const migrations = opts.migrations ?? ALL_MIGRATIONS;
  const inMemory = file === ':memory:';
  if (!inMemory && !readonly) prepareFile(file);

  let db: SqliteDatabase;
  try {
    db = new Database(file, { readonly, fileMustExist: readonly });
  } catch (cause) {
    throw unreadable(file, cause);
  }
  watchForDamage(db, file);

  try {
    // Reading the header first both detects a non-database and refuses a newer file before anything is written.
    let version: number;
    try {
      version = schemaVersion(db);
    } catch (cause) {
      throw unreadable(file, cause);
    }
    const latest = latestVersion(migrations);
    if (version > latest) throw new DatabaseTooNew(file, version, latest);
    if (readonly && version < latest) throw new DatabaseNeedsUpgrade(file, version, latest);

    // A new file gives the pages a deleted project or a cleared cache leaves free back to the disk (free-space.ts), a
    // slice at a time while the engine is idle. Only a file with no tables yet can take this; older files keep what
    // they freed for SQLite to reuse. Its pointer map costs every write a little (a few percent of a large first run);
    // kept, since deleting a project then gives its space back (docs/performance.md, "SQLite").
    if (!readonly && !inMemory && version === 0) {
      // Set before the first table, or it has no effect: older files keep their 4 KB pages.
      db.pragma(`page_size = ${NEW_FILE_PAGE_SIZE}`);
      db.pragma('auto_vacuum = INCREMENTAL');
    }
    if (!readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // NORMAL is durable in WAL mode except for the last transactions before a power cut, never corrupting.
    db.pragma('synchronous = NORMAL');
    // Another process on the folder (the app beside the CLI) may hold the write lock for a long transaction or a
    // checkpoint; on a loaded machine that outlasted 5 s, and the waiting run failed with "database is locked".
    db.pragma('busy_timeout = 30000');
    if (!inMemory && !readonly) restrictSidecars(file);
    if (!readonly) beginTransactionsWithTheWriteLock(db, inMemory ? null : new WalBudget(db));
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Makes every transaction of a writable connection take the write lock as it begins (BEGIN IMMEDIATE), instead of at
 * its first write. The desktop app, the browser host and the CLI may share one data folder (README), so another
 * process can commit between a transaction's first read and its first write. A deferred transaction then fails at
 * once with "database is locked" (its snapshot is stale, and SQLite does not wait for that), where an immediate one
 * waits for its turn (busy_timeout). Before this, of two `matchdesk match` run side by side on one folder (20,000 or
 * 100,000 rows each), one failed every time (test/cli/shared-folder.test.ts). Nested transactions stay savepoints.
 * After each outermost commit the WAL's checkpoint point follows the file's size (wal-budget.ts).
 */
function beginTransactionsWithTheWriteLock(db: SqliteDatabase, wal: WalBudget | null): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<SqliteDatabase['transaction']>[0]) => {
    const made = transaction(fn);
    const immediate = (...args: unknown[]) => {
      const result = guarded(db, () => made.immediate(...args));
      if (wal && !db.inTransaction) wal.update();
      return result;
    };
    return Object.assign(immediate, { default: immediate, deferred: made.deferred, immediate, exclusive: made.exclusive });
  }) as SqliteDatabase['transaction'];
}

/** The file must be owner-only before SQLite writes a byte into it: it holds who the user looked up. */
function prepareFile(file: string): void {
  try {
    createPrivateFolders(path.dirname(path.resolve(file)));
    const existing = fs.statSync(file, { throwIfNoEntry: false });
    if (existing && !existing.isFile()) throw new Error('that path is a folder or device, not a file');
    if (!existing) fs.closeSync(fs.openSync(file, 'a', 0o600));
    if (posix) fs.chmodSync(file, 0o600);
  } catch (cause) {
    throw new DatabaseUnreadable(file, 'cannot_open', { cause });
  }
}

function restrictSidecars(file: string): void {
  if (!posix) return;
  for (const sidecar of [`${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(sidecar, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

function unreadable(file: string, cause: unknown): DatabaseUnreadable {
  if (cause instanceof DatabaseUnreadable) return cause;
  const code = (cause as { code?: unknown } | null)?.code;
  const notADatabase = code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
  return new DatabaseUnreadable(file, notADatabase ? 'not_a_database' : 'cannot_open', { cause });
}
