import type { Database } from 'better-sqlite3';
import { DatabaseTooNew, MigrationFailed } from './errors';
import type { Migration } from './migration';
import { ALL_MIGRATIONS } from './migrations';

export interface MigrationOutcome {
  from: number;
  to: number;
  applied: number[];
}

export function schemaVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

export function latestVersion(migrations: readonly Migration[] = ALL_MIGRATIONS): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
}

/**
 * Runs every pending migration in one transaction that also sets `PRAGMA user_version`, so a failure
 * leaves the file exactly as it was. Refuses a file whose version is newer than the newest migration.
 */
export function migrate(db: Database, migrations: readonly Migration[] = ALL_MIGRATIONS): MigrationOutcome {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseTooNew(db.name, current, latest);
  if (current === latest) return { from: current, to: current, applied: [] };

  const runPending = db.transaction((): MigrationOutcome => {
    // Read again under the write lock: another process may have migrated since the check above.
    const from = schemaVersion(db);
    if (from > latest) throw new DatabaseTooNew(db.name, from, latest);
    const pending = migrations.filter((m) => m.version > from);
    for (const m of pending) {
      try {
        m.up(db);
      } catch (cause) {
        throw new MigrationFailed(db.name, m.version, m.name, { cause });
      }
    }
    // user_version lives in the file header, which SQLite writes inside the transaction: it rolls back too.
    if (pending.length > 0) db.pragma(`user_version = ${latest}`);
    return { from, to: latest, applied: pending.map((m) => m.version) };
  });
  return runPending.immediate();
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    const expected = i + 1;
    if (!Number.isInteger(m.version) || m.version !== expected) {
      throw new Error(`Migration "${m.name}" has version ${m.version}, expected ${expected}: versions must run 1, 2, 3 ... in order.`);
    }
  });
}
