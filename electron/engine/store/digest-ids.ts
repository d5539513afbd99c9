import type { Database, Statement } from 'better-sqlite3';
import { DigestMap } from './digest-map';

/** Slots of a fresh table: a first run's people and queries come a few hundred a call. */
const FIRST_CAPACITY = 4096;

/**
 * The ids of a table's rows by a 64-bit digest of what each holds, in memory: which id a person version or a query
 * already has (store/person-digests.ts, runs/query-ids.ts). An index on the digests would put each new row at a random
 * page of it, and every call's commit rewrote a page per row (a 100k-row first run wrote a sixth more with one for
 * people than without); the digests are instead kept in a table's `id` and `digest` columns, appended in id order, read
 * once per connection and caught up on what was added since (by this connection or another process) before they are
 * used: once a write transaction is enough, as no other process writes while it holds the lock.
 * A hit is checked against that table, so a row removed meanwhile (clearing the cache, a deleted project's queries, a
 * rolled-back write) is not named again: the table is read anew.
 */
export class DigestIds {
  private readonly ids = new DigestMap(FIRST_CAPACITY);
  private readUpTo = 0;
  private readonly since: Statement;
  private readonly digestOf: Statement;

  private constructor(db: Database, table: DigestTable) {
    this.since = db.prepare(`SELECT id, digest FROM ${table} WHERE id > ? ORDER BY id`).raw().safeIntegers(true);
    this.digestOf = db.prepare(`SELECT digest FROM ${table} WHERE id = ?`).pluck().safeIntegers(true);
  }

  /** This connection's digests of `table`. */
  static of(db: Database, table: DigestTable): DigestIds {
    let tables = byDatabase.get(db);
    if (!tables) byDatabase.set(db, (tables = new Map()));
    let digests = tables.get(table);
    if (!digests) tables.set(table, (digests = new DigestIds(db, table)));
    return digests;
  }

  /** Reads the digests of the rows stored since the last look. */
  catchUp(): void {
    for (const [id, digest] of this.since.iterate(BigInt(this.readUpTo)) as IterableIterator<[bigint, bigint]>) this.add(digest, Number(id));
  }

  /** The id of the row with this digest, when one is stored. */
  idOf(digest: bigint): number | undefined {
    const id = this.ids.get(digest);
    if (id === undefined) return undefined;
    if ((this.digestOf.get(BigInt(id)) as bigint | undefined) === digest) return id;
    this.forget();
    this.catchUp();
    return this.ids.get(digest);
  }

  add(digest: bigint, id: number): void {
    this.ids.set(digest, id);
    if (id > this.readUpTo) this.readUpTo = id;
  }

  /** Forgets every digest (rows were removed): the next look reads them all again. */
  forget(): void {
    this.ids.clear();
    this.readUpTo = 0;
  }
}

/** The tables whose rows are found by digest. */
export type DigestTable = 'person_digests' | 'queries';

const byDatabase = new WeakMap<Database, Map<DigestTable, DigestIds>>();
