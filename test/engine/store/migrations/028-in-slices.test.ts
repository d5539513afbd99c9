import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, MigrationStopped, migrate, migrateInSlices, openDatabase, type MigrationProgress } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';
import { writeVersion27Folder } from './version-27-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);
const V27_TABLES = ['lookups', 'row_queries', 'row_status'];
const V28_TABLES = ['queries', 'lookups', 'row_queries', 'row_status', 'query_cleanup'];

/** The small version 27 folder of version-27-folder.ts, in a temporary folder. */
function version27Folder(): string {
  const file = join(tempFolder(), 'matchdesk.sqlite');
  writeVersion27Folder(file);
  return file;
}

function copyOf(file: string): string {
  const copy = join(tempFolder(), 'matchdesk.sqlite');
  copyFileSync(file, copy);
  return copy;
}

/** Every row of these tables, and their definitions (as SQLite keeps them: the columns and indexes). */
function dump(db: Database.Database, tables: string[]): unknown {
  return tables.map((table) => ({
    table,
    columns: db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${table}')`).all(),
    indexes: db.prepare(`SELECT name FROM pragma_index_list('${table}') WHERE origin = 'c' ORDER BY name`).pluck().all(),
    rows: db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all(),
  }));
}

/** What an app of `version` reads there: the file opened read-only as that version, its tables dumped. */
function readAsVersion(file: string, version: 27 | 28): unknown {
  const db = openDatabase(file, { readonly: true, migrations: upTo(version) });
  try {
    return dump(db, version === 27 ? V27_TABLES : V28_TABLES);
  } finally {
    db.close();
  }
}

/** Runs the migration to 28 in slices of `size`, stopped as the `stopAt`-th slice is reported. */
async function migrateStopping(file: string, size: number, stopAt: number, progress: MigrationProgress[]): Promise<unknown> {
  const db = new Database(file);
  const stop = new AbortController();
  let reported = 0;
  try {
    return await migrateInSlices(db, upTo(28), {
      sliceSize: size,
      signal: stop.signal,
      onProgress: (p) => {
        progress.push(p);
        if (++reported === stopAt) stop.abort();
      },
    }).catch((error: unknown) => error);
  } finally {
    db.close();
  }
}

describe('migration 28 in slices', () => {
  it('stopped between slices and started again, it finishes as the move in one go does; until then version 27 reads as before', async () => {
    const file = version27Folder();
    const before = readAsVersion(file, 27);
    const inOneGo = copyOf(file);
    const oneGo: MigrationProgress[] = [];
    const outcome = migrate(new Database(inOneGo), upTo(28), { onProgress: (p) => oneGo.push(p) });
    expect(outcome.applied).toEqual([28]);

    const progress: MigrationProgress[] = [];
    expect(await migrateStopping(file, 25, 3, progress)).toBeInstanceOf(MigrationStopped);
    // Stopped mid-way: still version 27, its tables as they were, the move's own beside them.
    expect(readAsVersion(file, 27)).toEqual(before);
    const stopped = new Database(file, { readonly: true });
    expect(stopped.pragma('user_version', { simple: true })).toBe(27);
    expect(stopped.prepare('SELECT done FROM migration_slices WHERE version = 28').pluck().get()).toBe(75);
    stopped.close();

    // Started again, stopped again, then to the end: each start goes on where the last stopped.
    expect(await migrateStopping(file, 25, 3, progress)).toBeInstanceOf(MigrationStopped);
    expect(await migrateStopping(file, 25, 0, progress)).toEqual({ from: 27, to: 28, applied: [28] });
    expect(readAsVersion(file, 28)).toEqual(readAsVersion(inOneGo, 28));

    // The rows (120) and the answers (55), 25 a slice, each start first saying where it goes on from: progress only
    // grows, and ends at the total, as in one go.
    const total = 120 + 55;
    expect(progress.map((p) => p.done)).toEqual([25, 50, 75, 75, 100, 120, 120, 145, 170, 175, 175]);
    expect(progress.every((p) => p.total === total && p.version === 28)).toBe(true);
    expect(progress.map((p) => p.phase)).toEqual(['rows', 'rows', 'rows', 'rows', 'rows', 'rows', 'rows', 'answers', 'answers', 'answers', 'finishing']);
    expect(oneGo.at(-1)).toEqual({ version: 28, phase: 'finishing', done: total, total });
    const done = new Database(file, { readonly: true });
    expect(done.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'migration%'").pluck().all()).toEqual([]);
    done.close();
  });

  it('starts the move over when an older app wrote to the folder while it was stopped', async () => {
    const file = version27Folder();
    const progress: MigrationProgress[] = [];
    expect(await migrateStopping(file, 25, 5, progress)).toBeInstanceOf(MigrationStopped);
    // An app of version 27 on the folder meanwhile: an answer stored again, a row decided.
    const older = openDatabase(file, { migrations: upTo(27) });
    older.prepare('UPDATE lookups SET fetched_at = 9999 WHERE query_key = ?').run('0'.repeat(64));
    older.prepare("UPDATE row_status SET label = 'decided' WHERE project_id = 1 AND row_index = 1").run();
    older.close();
    const expected = copyOf(file);
    migrate(new Database(expected), upTo(28));

    const again: MigrationProgress[] = [];
    expect(await migrateStopping(file, 25, 0, again)).toMatchObject({ applied: [28] });
    // From the start again, and what the older app wrote is moved.
    expect(again[0]!.done).toBe(25);
    expect(readAsVersion(file, 28)).toEqual(readAsVersion(expected, 28));
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT fetched_at FROM lookups WHERE query_id = (SELECT min(id) FROM queries WHERE digest = 0)').pluck().get()).toBe(9999);
    expect(db.prepare('SELECT label FROM row_status WHERE project_id = 1 AND row_index = 1').pluck().get()).toBe('decided');
    db.close();
  });

  it('two processes on the folder move it together, a slice each in turn, into the same folder', async () => {
    const file = version27Folder();
    const expected = copyOf(file);
    migrate(new Database(expected), upTo(28));
    const [a, b] = [openDatabase(file, { migrations: upTo(27) }), openDatabase(file, { migrations: upTo(27) })];
    try {
      const outcomes = await Promise.all([migrateInSlices(a, upTo(28), { sliceSize: 10 }), migrateInSlices(b, upTo(28), { sliceSize: 10 })]);
      expect(outcomes.map((o) => o.to)).toEqual([28, 28]);
    } finally {
      a.close();
      b.close();
    }
    expect(readAsVersion(file, 28)).toEqual(readAsVersion(expected, 28));
  });

  it('waits its turn while another process holds the write lock, without holding the thread meanwhile', async () => {
    const file = version27Folder();
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const db = openDatabase(file, { migrations: upTo(27) });
    try {
      let finished = false;
      const moving = migrateInSlices(db, upTo(28), { sliceSize: 25 }).finally(() => (finished = true));
      // Turns of the event loop go by while it waits (SQLite's own wait for the lock would hold the thread).
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(finished).toBe(false);
      other.exec('COMMIT');
      expect((await moving).to).toBe(28);
    } finally {
      other.close();
      db.close();
    }
  });

  it("leaves out the rows of a project being removed, which wait for their removal belonging to no project", () => {
    const file = version27Folder();
    const db = openDatabase(file, { migrations: upTo(27) });
    try {
      // As deleting a project leaves them (projects/project-cleanup.ts removeProject).
      db.pragma('foreign_keys = OFF');
      db.prepare("DELETE FROM projects WHERE name = 'first'").run();
      db.prepare('INSERT INTO project_cleanup (project_id) VALUES (1)').run();
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(28), { sliceSize: 25 });
      expect(db.prepare('SELECT DISTINCT project_id FROM row_status UNION SELECT DISTINCT project_id FROM row_queries').pluck().all()).toEqual([2]);
      expect(db.prepare('SELECT count(*) FROM row_status').pluck().get()).toBe(60);
    } finally {
      db.close();
    }
  });

  it('a failure leaves nothing of the move behind', () => {
    const file = version27Folder();
    const before = readAsVersion(file, 27);
    const db = new Database(file);
    try {
      // In the way of the swap, after every slice.
      db.exec('CREATE TABLE query_cleanup (x)');
      expect(() => migrate(db, upTo(28), { sliceSize: 30 })).toThrow(/failed at step 28/);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'migration%'").pluck().all()).toEqual([]);
    } finally {
      db.close();
    }
    expect(readAsVersion(file, 27)).toEqual(before);
  });
});
