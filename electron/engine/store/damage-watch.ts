import type { Database, Statement } from 'better-sqlite3';
import { DatabaseUnreadable } from './errors';

/** What SQLite says when it finds a page it cannot make sense of, wherever in the file that page is. */
export function isDamageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

interface Watch {
  file: string;
  damage: DatabaseUnreadable | null;
}

const watches = new WeakMap<Database, Watch>();

/** The damage a watched connection found, once it found one: from then on it runs nothing. */
export function damageOf(db: Database): DatabaseUnreadable | null {
  return watches.get(db)?.damage ?? null;
}

type Method = (...args: unknown[]) => unknown;

/**
 * Makes the first damaged page any statement meets say what a damaged header says (move the file aside), and stops
 * the connection there: every later statement fails with the same words before it runs, so a run, an import or the
 * background cleanup writes nothing more into a file that is already wrong. Without this an inner page's damage
 * surfaced as an internal error, after more writes.
 */
export function watchForDamage(db: Database, file: string): void {
  const watch: Watch = { file, damage: null };
  watches.set(db, watch);
  const guard = (target: object, method: Method): Method =>
    function (...args: unknown[]) {
      if (watch.damage) throw watch.damage;
      try {
        return method.apply(target, args);
      } catch (error) {
        throw noted(watch, error);
      }
    };

  const statement = (stmt: Statement): Statement => {
    const s = stmt as unknown as Record<'run' | 'get' | 'all' | 'iterate', Method>;
    s.run = guard(stmt, s.run);
    s.get = guard(stmt, s.get);
    s.all = guard(stmt, s.all);
    const iterate = guard(stmt, s.iterate);
    s.iterate = (...args: unknown[]) => {
      const rows = iterate(...args) as Record<'next', Method>;
      rows.next = guard(rows, rows.next);
      return rows;
    };
    return stmt;
  };
  const d = db as unknown as Record<'prepare' | 'exec' | 'pragma', Method>;
  // The class's own prepare, looked up at each call, so a spy put on it later (a test's) still sees every statement.
  const prototype = Object.getPrototypeOf(db) as Record<'prepare', Method>;
  const prepare = guard(db, (...args: unknown[]) => prototype.prepare.apply(db, args));
  d.prepare = (...args: unknown[]) => statement(prepare(...args) as Statement);
  d.exec = guard(db, d.exec);
  d.pragma = guard(db, d.pragma);
}

/** Runs `fn` (a transaction) on a watched connection's terms: refused once the file is known damaged, its damage told so. */
export function guarded<T>(db: Database, fn: () => T): T {
  const watch = watches.get(db);
  if (!watch) return fn();
  if (watch.damage) throw watch.damage;
  try {
    return fn();
  } catch (error) {
    throw noted(watch, error);
  }
}

function noted(watch: Watch, error: unknown): unknown {
  if (watch.damage) return watch.damage;
  if (!isDamageError(error)) return error;
  watch.damage = new DatabaseUnreadable(watch.file, 'not_a_database', { cause: error });
  return watch.damage;
}
