import { hash } from 'node:crypto';

/** Int32 words of a key's 32-byte digest. */
const WORDS = 8;
const EMPTY = -1;

/**
 * The query ids of one project: each distinct query key gets a small integer, in the order planning first meets it
 * (row order), stored beside the key in row_status and row_queries. Indexed by these ids, the rows of a sheet are
 * filed near each other and near the end of the index, where the keys (hashes) filed them at random pages
 * (docs/performance.md: at a million rows each commit of a plan or a run rewrote thousands of that index's pages).
 *
 * Kept as the keys' digests in typed arrays (32 bytes an id and an open-addressing table): a million-row sheet asks
 * about 640,000 distinct queries, which as a Map of 64-character strings held some 60 MB of JS heap.
 */
export class QueryIds {
  /** Digest words by id. */
  private digests = new Int32Array(WORDS * 1024);
  /** Open addressing over the first word of each digest: id, or EMPTY. Never more than half full. */
  private slots = new Int32Array(2048).fill(EMPTY);
  private known = 0;
  private next = 0;
  private readonly words = new Int32Array(WORDS);

  /** How many keys have an id. */
  get size(): number {
    return this.known;
  }

  /** The id the next new key gets: one more than the largest id known. */
  get nextId(): number {
    return this.next;
  }

  /** The key's id, given it when it is new. */
  idOf(key: string): number {
    const found = this.find(key);
    if (found >= 0) return this.slots[found]!;
    const id = this.next;
    this.insert(~found, id);
    return id;
  }

  /** The key's id, or undefined when it has none. */
  get(key: string): number | undefined {
    const found = this.find(key);
    return found >= 0 ? this.slots[found]! : undefined;
  }

  /** Records an id given earlier (a plan on file); a key that already has one keeps it. */
  set(key: string, id: number): void {
    const found = this.find(key);
    if (found < 0) this.insert(~found, id);
  }

  /** The slot holding the key's id, or ~(the empty slot where it would go); leaves the key's words in this.words. */
  private find(key: string): number {
    const w = this.words;
    if (!readHexDigest(key, w)) {
      const digest = hash('sha256', key, 'buffer');
      for (let i = 0; i < WORDS; i++) w[i] = digest.readInt32BE(i * 4);
    }
    const mask = this.slots.length - 1;
    for (let slot = w[0]! & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === EMPTY) return ~slot;
      if (this.sameDigest(id)) return slot;
    }
  }

  private sameDigest(id: number): boolean {
    const at = id * WORDS;
    for (let i = 0; i < WORDS; i++) if (this.digests[at + i] !== this.words[i]) return false;
    return true;
  }

  private insert(slot: number, id: number): void {
    if ((id + 1) * WORDS > this.digests.length) {
      const grown = new Int32Array(Math.max(this.digests.length * 2, (id + 1) * WORDS));
      grown.set(this.digests);
      this.digests = grown;
    }
    this.digests.set(this.words, id * WORDS);
    this.slots[slot] = id;
    this.known++;
    if (id >= this.next) this.next = id + 1;
    if (this.known * 2 > this.slots.length) this.rehash();
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(EMPTY);
    const mask = this.slots.length - 1;
    for (const id of old) {
      if (id === EMPTY) continue;
      let slot = this.digests[id * WORDS]! & mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}

/**
 * Reads a key that is a digest already (64 lowercase hex digits, as every query key is) into its int32 words, the
 * same words its bytes read big-endian would give; false, with the words half-written, for any other key. Read by
 * character codes: twice as fast as a regular expression and eight parseInt(slice).
 */
function readHexDigest(key: string, words: Int32Array): boolean {
  if (key.length !== WORDS * 8) return false;
  for (let i = 0, at = 0; i < WORDS; i++) {
    let word = 0;
    for (const end = at + 8; at < end; at++) {
      const c = key.charCodeAt(at);
      const nibble = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (nibble < 0) return false;
      word = (word << 4) | nibble;
    }
    words[i] = word;
  }
  return true;
}
