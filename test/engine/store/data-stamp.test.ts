// What the review's kept figures rest on (store/data-stamp.ts): a value is kept until the file changes, whoever
// changed it; a write this connection makes can bring it through, and a write to the text index alone brings through
// every value that does not read the index. Two real connections on one SQLite file in WAL mode.
import Database, { type Database as SqliteDatabase } from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StampedCache, dataStamp, writingTextIndexOnly } from '../../../electron/engine/store/data-stamp';

let dir: string;
let db: SqliteDatabase;
let other: SqliteDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-stamp-'));
  db = new Database(join(dir, 'stamp.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)');
  other = new Database(join(dir, 'stamp.sqlite'));
});

afterEach(() => {
  db.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A cache of the table's sum, and how many times it was worked out. */
function summing(cache: StampedCache<number>): { get: () => number; computed: () => number } {
  let computed = 0;
  return {
    get: () =>
      cache.get(db, 'sum', () => {
        computed++;
        return db.prepare('SELECT sum(v) FROM t').pluck().get() as number;
      }),
    computed: () => computed,
  };
}

const insert = (into: SqliteDatabase, v: number) => into.prepare('INSERT INTO t VALUES (?)').run(v);

describe('values kept until the file changes', () => {
  it('is worked out again after a write by this connection or by another one, and not kept inside a transaction', () => {
    const sum = summing(new StampedCache<number>());
    expect([sum.get(), sum.get(), sum.computed()]).toEqual([1, 1, 1]);
    insert(db, 2);
    expect([sum.get(), sum.computed()]).toEqual([3, 2]);
    insert(other, 4);
    expect([sum.get(), sum.computed()]).toEqual([7, 3]);
    db.transaction(() => {
      insert(db, 8);
      expect(sum.get()).toBe(15);
    })();
    expect([sum.get(), sum.computed()]).toEqual([15, 5]);
  });

  it('is brought through a write of this connection as the write says, unless another connection wrote before it', () => {
    const cache = new StampedCache<number>();
    const sum = summing(cache);
    sum.get();
    cache.through(db, 'sum', () => insert(db, 2), (v) => v + 2);
    expect([sum.get(), sum.computed()]).toEqual([3, 1]);
    // Another connection's write first: the kept value is stale, and nothing brings a stale value through.
    insert(other, 4);
    cache.through(db, 'sum', () => insert(db, 8), (v) => v + 8);
    expect([sum.get(), sum.computed()]).toEqual([15, 2]);
  });

  it("keeps the other keys' values as they are through a write that changes one key's", () => {
    const cache = new StampedCache<number>();
    const sum = summing(cache);
    let othersComputed = 0;
    const other = () => cache.get(db, 'other', () => ++othersComputed * 100);
    sum.get();
    other();
    cache.through(db, 'sum', () => insert(db, 2), (v) => v + 2);
    expect([sum.get(), sum.computed(), other(), othersComputed]).toEqual([3, 1, 100, 1]);
  });

  it('is brought through a write to the text index alone unless it reads the index', () => {
    const statuses = summing(new StampedCache<number>());
    const texts = summing(new StampedCache<number>(32, true));
    statuses.get();
    texts.get();
    // The write stands for a slice of the text index's fill: it changes the file, not what the statuses' value reads.
    writingTextIndexOnly(db, () => db.exec('CREATE TABLE IF NOT EXISTS text_slice (x); INSERT INTO text_slice VALUES (1)'));
    statuses.get();
    texts.get();
    expect([statuses.computed(), texts.computed()]).toEqual([1, 2]);
    // Another connection's write meanwhile is never carried.
    writingTextIndexOnly(db, () => {
      insert(other, 4);
      insert(db, 0);
    });
    expect([statuses.get(), statuses.computed()]).toEqual([5, 2]);
  });

  it('keeps a value worked out on another connection only when nothing was written since the stamp it was worked out at', () => {
    const cache = new StampedCache<number>();
    const sum = summing(cache);
    const sumOn = (connection: SqliteDatabase) => connection.prepare('SELECT sum(v) FROM t').pluck().get() as number;
    expect(cache.peek(db, 'sum')).toBeUndefined();
    // Worked out on `other` from the file as it was at the stamp, nothing written since: kept as if got here.
    let stamp = dataStamp(db);
    expect(cache.offer(db, 'sum', stamp, sumOn(other))).toBe(true);
    expect([cache.peek(db, 'sum'), sum.get(), sum.computed()]).toEqual([1, 1, 0]);
    // A write by this connection, or by another, between the stamp and the offer: refused, and the old value goes stale.
    stamp = dataStamp(db);
    const value = sumOn(other);
    insert(db, 2);
    expect(cache.offer(db, 'sum', stamp, value)).toBe(false);
    expect(cache.peek(db, 'sum')).toBeUndefined();
    stamp = dataStamp(db);
    insert(other, 4);
    expect(cache.offer(db, 'sum', stamp, 3)).toBe(false);
    expect([sum.get(), sum.computed()]).toEqual([7, 1]);
    // Nothing is kept, nor read, inside a transaction.
    db.transaction(() => {
      expect(cache.peek(db, 'sum')).toBeUndefined();
      expect(cache.offer(db, 'sum', dataStamp(db), 7)).toBe(false);
    })();
    expect(cache.peek(db, 'sum')).toBe(7);
  });
});
