import type { Database, Statement } from 'better-sqlite3';
import { DigestMap } from './digest-map';

/** Slots of a fresh table: a first run's people and queries come a few hundred a call. */
const FIRST_CAPACITY = 4096;
/**
 * Ids taken in past the committed ones kept for their check at the next transaction's start, at most: past that they
 * are let go and every digest is read again then. A writer that never marks its ids committed (a refresh's calls did
 * not: a 100k refresh left 150,000 held) costs a read of the table, not memory that grows with it.
 */
export const RECENT_KEPT = 65_536;

/**
 * The ids of a table's rows by a 64-bit digest of what each holds, in memory: which id a person version or a query
 * already has (store/person-digests.ts, runs/query-ids.ts). An index on the digests would put each new row at a random
 * page of it, and every call's commit rewrote a page per row (a 100k-row first run wrote a sixth more with one for
 * people than without); the digests are instead kept in a table's `id` and `digest` columns, appended in id order, read
 * once per connection (again once let go: forgetAll) and caught up on what was added since (by this connection or
 * another process) before they are used: once a write transaction is enough, as no other process writes while it
 * holds the lock.
 * A row removed meanwhile (clearing the cache, a deleted project's queries, a rolled-back write) must not be named
 * again, so a hit is checked against the table. It need not be when its id was read at the start of a transaction,
 * when all the table shows is committed, and no row was removed since (`query_removals`, migration 31;
 * `person_removals`, migration 37; person versions are never removed): at a million rows half the queries a plan
 * meets are repeats, three in five of a reply's people are stored already, and a refresh meets each person's version
 * once for each of their rows; each check read a random page of the table.
 */
export class DigestIds {
  private readonly ids = new DigestMap(FIRST_CAPACITY);
  private readUpTo = 0;
  private readonly since: Statement;
  private readonly digestOf: Statement;
  /**
   * How many rows were ever removed (queries: `query_removals`; people: `person_removals`; person versions: never),
   * and the digests of a range of ids: then a hit read at a transaction's start needs no check.
   */
  private readonly removals: () => number;
  private readonly range: Statement;
  /** The removals counted at the last catch-up. */
  private removed: number | null = null;
  /** Ids up to this were read or found again at the start of a transaction since the last removal: committed. */
  private trustedUpTo = 0;
  /** The digests and ids taken in past `trustedUpTo`, to check at the next catch-up at a transaction's start. */
  private recentDigests: bigint[] = [];
  private recentIds: number[] = [];
  /** More than RECENT_KEPT were taken in since the last look at a transaction's start: the next one reads all again. */
  private recentDropped = false;

  private constructor(db: Database, table: DigestTable) {
    this.since = db.prepare(`SELECT id, digest FROM ${table} WHERE id > ? ORDER BY id`).raw().safeIntegers(true);
    this.digestOf = db.prepare(`SELECT digest FROM ${table} WHERE id = ?`).pluck().safeIntegers(true);
    this.removals = removalsOf(db, table);
    this.range = db.prepare(`SELECT id, digest FROM ${table} WHERE id > ? AND id <= ?`).raw().safeIntegers(true);
  }

  /**
   * Lets go of the digests of every table this connection read, to be read again when next needed: once no work that
   * meets them goes (a run, a plan, a refresh), so the steps after it (an export, the review) do not hold them too.
   */
  static forgetAll(db: Database): void {
    for (const digests of byDatabase.get(db)?.values() ?? []) digests.forget();
  }

  /** How many digests are held in memory. */
  get held(): number {
    return this.ids.size;
  }

  /** This connection's digests of `table`. */
  static of(db: Database, table: DigestTable): DigestIds {
    let tables = byDatabase.get(db);
    if (!tables) byDatabase.set(db, (tables = new Map()));
    let digests = tables.get(table);
    if (!digests) tables.set(table, (digests = new DigestIds(db, table)));
    return digests;
  }

  /**
   * Reads the digests of the rows stored since the last look (all of them again after a removal). `atStart`: the
   * transaction has written nothing yet, so every row it reads is committed, and those taken since the last such look
   * are checked (a rolled-back write's are gone).
   */
  catchUp(atStart = false): void {
    const removed = this.removals();
    if (removed !== this.removed || (atStart && (this.recentDropped || !this.recentStand()))) this.forget();
    this.removed = removed;
    // Read at a transaction's start, the rows are committed: nothing to check later.
    for (const [id, digest] of this.since.iterate(BigInt(this.readUpTo)) as IterableIterator<[bigint, bigint]>) {
      if (atStart) this.take(digest, Number(id));
      else this.add(digest, Number(id));
    }
    if (atStart) {
      this.trustedUpTo = this.readUpTo;
      this.recentDigests = [];
      this.recentIds = [];
    }
  }

  /** The id of the row with this digest, when one is stored. */
  idOf(digest: bigint): number | undefined {
    const id = this.ids.get(digest);
    if (id === undefined || id <= this.trustedUpTo) return id;
    if ((this.digestOf.get(BigInt(id)) as bigint | undefined) === digest) return id;
    this.forget();
    this.catchUp();
    return this.ids.get(digest);
  }

  add(digest: bigint, id: number): void {
    this.take(digest, id);
    if (id > this.trustedUpTo && !this.recentDropped) {
      if (this.recentIds.length === RECENT_KEPT) {
        this.recentDropped = true;
        this.recentDigests = [];
        this.recentIds = [];
        return;
      }
      this.recentDigests.push(digest);
      this.recentIds.push(id);
    }
  }

  /**
   * The transaction that caught up at its start (`catchUp(true)`) and took rows in since has committed: they are
   * stored as taken, so the next such look need not read them back.
   */
  committed(): void {
    this.trustedUpTo = this.readUpTo;
    this.recentDigests = [];
    this.recentIds = [];
    this.recentDropped = false;
  }

  /** Forgets every digest (rows were removed): the next look reads them all again. */
  forget(): void {
    this.ids.clear();
    this.readUpTo = 0;
    this.trustedUpTo = 0;
    this.recentDigests = [];
    this.recentIds = [];
    this.recentDropped = false;
  }

  private take(digest: bigint, id: number): void {
    this.ids.set(digest, id);
    if (id > this.readUpTo) this.readUpTo = id;
  }

  /** Whether the rows taken in since the last look at a transaction's start are stored as taken. */
  private recentStand(): boolean {
    if (this.recentIds.length === 0) return true;
    const stored = new Map<number, bigint>();
    for (const [id, digest] of this.range.iterate(BigInt(this.trustedUpTo), BigInt(this.readUpTo)) as IterableIterator<[bigint, bigint]>) stored.set(Number(id), digest);
    return this.recentIds.every((id, i) => stored.get(id) === this.recentDigests[i]);
  }
}

/** How `table`'s removals are counted (DigestIds.removals). */
function removalsOf(db: Database, table: DigestTable): () => number {
  // Nothing deletes a person version (rows/person-history.ts); only a rolled-back write's are gone, which the check of
  // the ids taken in since the last look at a transaction's start finds.
  if (table === 'person_versions') return () => 0;
  const removed = db.prepare(`SELECT removed FROM ${table === 'queries' ? 'query_removals' : 'person_removals'}`).pluck();
  return () => removed.get() as number;
}

/** The tables whose rows are found by digest. */
export type DigestTable = 'person_digests' | 'person_versions' | 'queries';

const byDatabase = new WeakMap<Database, Map<DigestTable, DigestIds>>();
