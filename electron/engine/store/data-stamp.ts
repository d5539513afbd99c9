import type { Database, Statement } from 'better-sqlite3';

/**
 * Figures worked out from a whole project (counts per state, the rows a filter holds) cost a scan of up to a million
 * index entries: tens of milliseconds or more each time the review list asks for a page. They are
 * kept until the database changes. A change by this connection moves total_changes(); one by another connection
 * (the CLI beside the app) moves PRAGMA data_version. Inside a transaction nothing is kept: it could still roll
 * back, and total_changes() would not move back with it.
 */
export class StampedCache<T> {
  private readonly entries = new WeakMap<Database, Map<string, { stamp: string; value: T }>>();

  /** `readsTextIndex`: the values are worked out from the review's text index too (writes to it alone drop them). */
  constructor(
    private readonly maxEntries = 32,
    readonly readsTextIndex = false,
  ) {
    caches.add(this as StampedCache<unknown>);
  }

  get(db: Database, key: string, compute: () => T): T {
    if (db.inTransaction) return compute();
    const stamp = dataStamp(db);
    let byKey = this.entries.get(db);
    if (!byKey) this.entries.set(db, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = compute();
    this.keep(byKey, key, stamp, value);
    return value;
  }

  /** The value kept for `key` if nothing changed since it was worked out; undefined otherwise (nothing is worked out). */
  peek(db: Database, key: string): T | undefined {
    if (db.inTransaction) return undefined;
    const hit = this.entries.get(db)?.get(key);
    return hit && hit.stamp === dataStamp(db) ? hit.value : undefined;
  }

  /**
   * Keeps `value`, worked out elsewhere (another connection to the same file) from the data as it was at `stamp`, as if
   * get had worked it out: only when nothing was written since. Returns whether it was kept.
   */
  offer(db: Database, key: string, stamp: string, value: T): boolean {
    if (db.inTransaction || dataStamp(db) !== stamp) return false;
    let byKey = this.entries.get(db);
    if (!byKey) this.entries.set(db, (byKey = new Map()));
    this.keep(byKey, key, stamp, value);
    return true;
  }

  private keep(byKey: Map<string, { stamp: string; value: T }>, key: string, stamp: string, value: T): void {
    byKey.delete(key);
    // Oldest first in a Map's order: the filters a reviewer left long ago go first.
    if (byKey.size >= this.maxEntries) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, { stamp, value });
  }

  /**
   * Brings the kept values through a write this connection is about to make that changes only what `key`'s value is
   * worked out from (a decision in one project: the other projects' figures stay as they are), without computing
   * any again: `change` gets `key`'s value as it was and returns it as it will be. Kept only when nobody else wrote
   * in between (then data_version would have moved): otherwise the next get computes them afresh.
   */
  through<R>(db: Database, key: string, write: () => R, change: (value: T) => T): R {
    return this.throughAll(db, write, (k, value) => (k === key ? change(value) : value));
  }

  /**
   * Like through, for every value kept for `db`: `carry` gets each (its key, the value as it was) once the write is
   * made, and returns it as it is now, or undefined to compute it afresh next time.
   */
  throughAll<R>(db: Database, write: () => R, carry: (key: string, value: T) => T | undefined): R {
    return acrossWrite(db, write, (before, after) => this.carryEntries(db, before, after, carry));
  }

  /** Every value kept at stamp `before`, as `carry` makes it, is kept at stamp `after`; the others go stale. */
  carryEntries(db: Database, before: string, after: string, carry: (key: string, value: T) => T | undefined): void {
    const byKey = this.entries.get(db);
    if (!byKey) return;
    for (const [key, hit] of byKey) {
      if (hit.stamp !== before) continue;
      const value = carry(key, hit.value);
      if (value !== undefined) byKey.set(key, { stamp: after, value });
    }
  }
}

/** Every cache made: module-level figures of the review and the runs, a handful. */
const caches = new Set<StampedCache<unknown>>();

/**
 * Runs a write that touches only the review's text index (a slice of its fill, a merge step): every kept value that
 * does not read the index is brought through it as it is. The index fills in the background while a reviewer reads
 * pages of a large project, for a long while; each slice used to have the next page count everything again.
 */
export function writingTextIndexOnly<R>(db: Database, write: () => R): R {
  return keepingAcross(db, write, (cache) => !cache.readsTextIndex);
}

/**
 * Runs a write to tables no kept value reads, alone: every kept value is brought through it. These are the
 * connection's temporary tables (a listing a preview counts over) and a refresh's own lists (store/refresh-tables.ts:
 * the people and rows it asks for, the facts it found, let go a slice at a time once it ends while the review may be
 * read). total_changes() counts their rows too, so a refresh's preview used to have the review's next page count
 * everything again (a walk of the whole project).
 */
export function writingUnreadTablesOnly<R>(db: Database, write: () => R): R {
  return keepingAcross(db, write, () => true);
}

/** Runs `write`, and every value kept by a cache that `keeps` names is kept as it is across it. */
function keepingAcross<R>(db: Database, write: () => R, keeps: (cache: StampedCache<unknown>) => boolean): R {
  return acrossWrite(db, write, (before, after) => {
    for (const cache of caches) if (keeps(cache)) cache.carryEntries(db, before, after, (_key, value) => value);
  });
}

/**
 * Runs `write` and hands `kept` the stamps before and after it, when they tell this write alone apart: it was made
 * outside a transaction, and no other connection wrote meanwhile (data_version did not move).
 */
function acrossWrite<R>(db: Database, write: () => R, kept: (before: string, after: string) => void): R {
  const before = db.inTransaction ? null : dataStamp(db);
  const result = write();
  if (before === null || db.inTransaction) return result;
  const after = dataStamp(db);
  if (versionOf(after) === versionOf(before)) kept(before, after);
  return result;
}

function versionOf(stamp: string): string {
  return stamp.slice(stamp.indexOf(':') + 1);
}

const stampStatements = new WeakMap<Database, { changes: Statement; version: Statement }>();

/** Changes as soon as anything in the database does, by this connection or another. */
export function dataStamp(db: Database): string {
  let s = stampStatements.get(db);
  if (!s) stampStatements.set(db, (s = { changes: db.prepare('SELECT total_changes()').pluck(), version: db.prepare('PRAGMA data_version').pluck() }));
  return `${s.changes.get() as number}:${s.version.get() as number}`;
}
