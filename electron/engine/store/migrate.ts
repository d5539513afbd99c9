import type { Database } from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { DatabaseTooNew, MigrationFailed, MigrationStopped } from './errors';
import type { Migration, SliceMover } from './migration';
import { ALL_MIGRATIONS } from './migrations';

export interface MigrationOutcome {
  from: number;
  to: number;
  applied: number[];
}

/** How far a sliced move is (store/migration.ts SlicedMove): records moved of its total, and its phase. */
export interface MigrationProgress {
  version: number;
  phase: string;
  done: number;
  total: number;
}

export interface MigrateOptions {
  /** Records a slice moves; each slice is a transaction. */
  sliceSize?: number;
  /** Told after each slice, and once more before the swap (phase 'finishing'). */
  onProgress?: (progress: MigrationProgress) => void;
}

/** Records a slice of a sliced move moves: few enough that the host's window is answered often between slices. */
export const SLICE_SIZE = 20_000;

export function schemaVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

export function latestVersion(migrations: readonly Migration[] = ALL_MIGRATIONS): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
}

/**
 * Runs every pending migration, each in a transaction that also sets `PRAGMA user_version`, so the file is always
 * at one version: a failure leaves it at the last version reached. Migrations without slices run together in one
 * transaction; a migration with slices runs them first, a transaction each, then swaps in with `up` (and the plain
 * migrations after it) in one. Refuses a file whose version is newer than the newest migration.
 */
export function migrate(db: Database, migrations: readonly Migration[] = ALL_MIGRATIONS, opts: MigrateOptions = {}): MigrationOutcome {
  const steps = migration(db, migrations, opts);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * migrate(), letting other work run between slices; `signal` stops it between two slices (MigrationStopped), with
 * every slice done kept for the next start.
 */
export async function migrateInSlices(db: Database, migrations: readonly Migration[] = ALL_MIGRATIONS, opts: MigrateOptions & { signal?: AbortSignal } = {}): Promise<MigrationOutcome> {
  // A slice does not wait for the write lock inside SQLite (which would hold this thread, and a host's window, for as
  // long as another process keeps it): it is tried again a moment later.
  const busyTimeout = Number(db.pragma('busy_timeout', { simple: true }));
  const steps = migration(db, migrations, { ...opts, waitTurns: true });
  try {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (opts.signal?.aborted) throw new MigrationStopped(db.name, schemaVersion(db));
      db.pragma('busy_timeout = 0');
      const next = steps.next();
      db.pragma(`busy_timeout = ${busyTimeout}`);
      if (next.done) return next.value;
      if (next.value === WAITING) await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

/** Yielded by a slice that found another process holding the write lock. */
const WAITING = -1;
/** How soon a slice that found the write lock taken tries again. */
const LOCK_RETRY_MS = 100;

/** The migrations as a sequence of transactions: yields the version reached after each. */
function* migration(db: Database, migrations: readonly Migration[], opts: MigrateOptions & { waitTurns?: boolean }): Generator<number, MigrationOutcome> {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  const from = schemaVersion(db);
  if (from > latest) throw new DatabaseTooNew(db.name, from, latest);
  const applied: number[] = [];
  for (;;) {
    const current = schemaVersion(db);
    if (current >= latest) return { from, to: current, applied };
    // A sliced move next: its slices take the write lock one at a time (another process on the folder may hold it).
    const next = migrations.find((m) => m.version > current)!;
    if (next.slices) {
      yield* slices(db, next, migrations, opts, applied);
      continue;
    }
    let reached: { version: number; sliced: boolean };
    try {
      reached = immediate(db, () => {
        // Read again under the write lock: another process may have migrated since.
        const locked = schemaVersion(db);
        if (locked > latest) throw new DatabaseTooNew(db.name, locked, latest);
        const pending = migrations.filter((m) => m.version > locked);
        const sliced = pending.findIndex((m) => m.slices);
        const plain = sliced === -1 ? pending : pending.slice(0, sliced);
        applied.push(...runPlain(db, plain));
        return { version: plain.length > 0 ? plain[plain.length - 1].version : locked, sliced: sliced !== -1 };
      });
    } catch (cause) {
      if (!opts.waitTurns || (cause as { code?: unknown }).code !== 'SQLITE_BUSY') throw cause;
      yield WAITING;
      continue;
    }
    if (!reached.sliced) return { from, to: reached.version, applied };
    yield reached.version;
  }
}

/** Runs one sliced migration's slices, then its swap with the plain migrations after it. */
function* slices(db: Database, m: Migration, migrations: readonly Migration[], opts: MigrateOptions & { waitTurns?: boolean }, applied: number[]): Generator<number> {
  const move = m.slices!;
  const limit = opts.sliceSize ?? SLICE_SIZE;
  let mover: { generation: number; mover: SliceMover } | null = null;
  let announced = false;
  // A move stopped before says at once where it goes on from.
  const resumed = storedProgress(db, m);
  if (resumed) opts.onProgress?.(resumed);
  for (;;) {
    let step: { progress: MigrationProgress | null; swapped: boolean };
    try {
      step = immediate(db, () => {
        // Another process on the folder may have finished the move meanwhile.
        if (schemaVersion(db) >= m.version) return { progress: null, swapped: true };
        const state = currentState(db, m);
        if (mover?.generation !== state.generation) mover = { generation: state.generation, mover: move.mover(db) };
        const moved = mover.mover.slice(state.position, limit);
        if (moved === null) {
          if (!announced && state.total > 0) return { progress: { version: m.version, phase: 'finishing', done: state.total, total: state.total }, swapped: false };
          m.up(db);
          endMove(db, m);
          const after = migrations.filter((next) => next.version > m.version);
          const upTo = after.findIndex((next) => next.slices);
          applied.push(m.version, ...runPlain(db, upTo === -1 ? after : after.slice(0, upTo), m.version));
          return { progress: null, swapped: true };
        }
        const done = Math.min(state.total, state.done + moved.moved);
        db.prepare('UPDATE migration_slices SET position = ?, phase = ?, done = ? WHERE version = ?').run(moved.position, moved.phase, done, m.version);
        return { progress: { version: m.version, phase: moved.phase, done, total: state.total }, swapped: false };
      });
    } catch (cause) {
      if (cause instanceof DatabaseTooNew) throw cause;
      const busy = (cause as { code?: unknown }).code === 'SQLITE_BUSY';
      if (busy && opts.waitTurns) {
        yield WAITING;
        continue;
      }
      // Another process kept the lock too long: the slices done stay for the next try.
      if (!busy) discardMove(db, m);
      throw cause instanceof MigrationFailed ? cause : new MigrationFailed(db.name, m.version, m.name, { cause });
    }
    if (step.swapped) return;
    if (step.progress?.phase === 'finishing') announced = true;
    if (step.progress) opts.onProgress?.(step.progress);
    yield m.version - 1;
  }
}

interface MoveState {
  generation: number;
  position: string | null;
  done: number;
  total: number;
}

/** Where the move is; begun (again) when it had not been, or when an older app wrote to a table it reads. */
function currentState(db: Database, m: Migration): MoveState {
  db.exec(`
    -- A sliced migration's place, while its move is under way (store/migration.ts SlicedMove). \`generation\`: new
    -- each time the move begins, so a process that kept what it learned of an earlier one forgets it.
    CREATE TABLE IF NOT EXISTS migration_slices (
      version INTEGER PRIMARY KEY,
      generation INTEGER NOT NULL,
      position TEXT,
      phase TEXT NOT NULL DEFAULT '',
      done INTEGER NOT NULL DEFAULT 0,
      total INTEGER NOT NULL,
      stale INTEGER NOT NULL DEFAULT 0
    );
  `);
  const state = db.prepare('SELECT generation, position, done, total, stale FROM migration_slices WHERE version = ?').get(m.version) as (MoveState & { stale: number }) | undefined;
  if (state && state.stale === 0) return state;
  const move = m.slices!;
  move.discard(db);
  const total = move.begin(db);
  for (const table of move.reads) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`
        CREATE TRIGGER IF NOT EXISTS ${triggerName(m, table, event)} AFTER ${event} ON ${table}
        BEGIN UPDATE migration_slices SET stale = 1 WHERE version = ${m.version} AND stale = 0; END
      `);
    }
  }
  const generation = randomInt(2 ** 47);
  db.prepare('INSERT OR REPLACE INTO migration_slices (version, generation, position, done, total) VALUES (?, ?, NULL, 0, ?)').run(m.version, generation, total);
  return { generation, position: null, done: 0, total };
}

/** How far a move begun before got, when it is there to go on with. */
function storedProgress(db: Database, m: Migration): MigrationProgress | null {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'migration_slices'").get()) return null;
  const state = db.prepare("SELECT phase, done, total FROM migration_slices WHERE version = ? AND stale = 0 AND phase <> ''").get(m.version) as
    | { phase: string; done: number; total: number }
    | undefined;
  return state ? { version: m.version, ...state } : null;
}

/** Drops what a move kept beside the tables it read: its triggers and its place. */
function endMove(db: Database, m: Migration): void {
  for (const table of m.slices!.reads) for (const event of ['INSERT', 'UPDATE', 'DELETE']) db.exec(`DROP TRIGGER IF EXISTS ${triggerName(m, table, event)}`);
  db.prepare('DELETE FROM migration_slices WHERE version = ?').run(m.version);
  if (db.prepare('SELECT count(*) FROM migration_slices').pluck().get() === 0) db.exec('DROP TABLE migration_slices');
}

/** After a failure: nothing of the move is left in the file (the tables it read were never touched). */
function discardMove(db: Database, m: Migration): void {
  try {
    immediate(db, () => {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'migration_slices'").get()) return;
      m.slices!.discard(db);
      endMove(db, m);
    });
  } catch {
    // The failure said why; what is left is dropped when the move begins again.
  }
}

function triggerName(m: Migration, table: string, event: string): string {
  return `migration_${m.version}_${table}_${event.toLowerCase()}`;
}

/** Runs plain migrations in the caller's transaction and sets user_version to the last one's. */
function runPlain(db: Database, pending: readonly Migration[], reached?: number): number[] {
  for (const m of pending) {
    try {
      m.up(db);
    } catch (cause) {
      throw new MigrationFailed(db.name, m.version, m.name, { cause });
    }
  }
  // user_version lives in the file header, which SQLite writes inside the transaction: it rolls back too.
  const to = pending.length > 0 ? pending[pending.length - 1].version : reached;
  if (to !== undefined) db.pragma(`user_version = ${to}`);
  return pending.map((m) => m.version);
}

/** A transaction that takes the write lock as it begins: another process on the folder waits its turn (busy_timeout). */
function immediate<T>(db: Database, work: () => T): T {
  return db.transaction(work).immediate();
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    const expected = i + 1;
    if (!Number.isInteger(m.version) || m.version !== expected) {
      throw new Error(`Migration "${m.name}" has version ${m.version}, expected ${expected}: versions must run 1, 2, 3 ... in order.`);
    }
  });
}
