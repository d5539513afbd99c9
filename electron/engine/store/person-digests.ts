import type { Database, Statement } from 'better-sqlite3';

/** Slots of a fresh table: a first run's people come a few hundred a call. */
const FIRST_CAPACITY = 4096;

/**
 * The people stored, by the digest of their record, in memory: which id a person version already has. An index on
 * the digests would put each new person at a random page of it, and every call's commit rewrote a page per person
 * (a 100k-row first run wrote a sixth more with one than without); the digests are instead kept in `person_digests`,
 * appended in id order, read once per connection and caught up on what was added since (by this connection or
 * another process) before each use. A hit is checked against that table, so a person removed meanwhile (clearing the
 * cache, a rolled-back write) is not named again: the table is read anew.
 *
 * Open addressing over typed arrays (a digest and an id a slot, never more than half full), rather than a Map that
 * holds an object per person.
 */
export class PersonDigests {
  private digests = new BigInt64Array(FIRST_CAPACITY);
  /** 0: an empty slot (people ids start at 1). */
  private ids = new Int32Array(FIRST_CAPACITY);
  private count = 0;
  private readUpTo = 0;
  private readonly since: Statement;
  private readonly digestOf: Statement;

  private constructor(db: Database) {
    this.since = db.prepare('SELECT id, digest FROM person_digests WHERE id > ? ORDER BY id').raw().safeIntegers(true);
    this.digestOf = db.prepare('SELECT digest FROM person_digests WHERE id = ?').pluck().safeIntegers(true);
  }

  /** This connection's digests. */
  static of(db: Database): PersonDigests {
    let digests = byDatabase.get(db);
    if (!digests) byDatabase.set(db, (digests = new PersonDigests(db)));
    return digests;
  }

  /** Reads the digests of the people stored since the last look. */
  catchUp(): void {
    for (const [id, digest] of this.since.iterate(BigInt(this.readUpTo)) as IterableIterator<[bigint, bigint]>) this.add(digest, Number(id));
  }

  /** The id of the person version with this digest, when one is stored. */
  idOf(digest: bigint): number | undefined {
    const id = this.ids[this.slotOf(digest)]!;
    if (id === 0) return undefined;
    if ((this.digestOf.get(BigInt(id)) as bigint | undefined) === digest) return id;
    this.forget();
    this.catchUp();
    const again = this.ids[this.slotOf(digest)]!;
    return again === 0 ? undefined : again;
  }

  add(digest: bigint, id: number): void {
    if ((this.count + 1) * 2 > this.ids.length) this.grow();
    const slot = this.slotOf(digest);
    if (this.ids[slot] === 0) this.count++;
    this.digests[slot] = digest;
    this.ids[slot] = id;
    if (id > this.readUpTo) this.readUpTo = id;
  }

  /** Forgets every digest (people were removed): the next look reads them all again. */
  forget(): void {
    this.digests = new BigInt64Array(FIRST_CAPACITY);
    this.ids = new Int32Array(FIRST_CAPACITY);
    this.count = 0;
    this.readUpTo = 0;
  }

  /** The slot holding `digest`, or the empty one where it would go. */
  private slotOf(digest: bigint): number {
    const mask = this.ids.length - 1;
    let slot = Number(BigInt.asUintN(32, digest)) & mask;
    while (this.ids[slot] !== 0 && this.digests[slot] !== digest) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { digests, ids } = this;
    this.digests = new BigInt64Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2);
    this.count = 0;
    const readUpTo = this.readUpTo;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.add(digests[i]!, ids[i]!);
    this.readUpTo = readUpTo;
  }
}

const byDatabase = new WeakMap<Database, PersonDigests>();
