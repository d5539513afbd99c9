/**
 * A set of non-negative integer ids, a bit each, grown to the highest id added: a run's distinct queries (a round's
 * were a Map of ~200 MB at a million rows; query ids are shared by every project, so the bits span the ids stored
 * before a sheet's as well), a refresh's sightings (rows/person-history.ts). A million ids are 125 kB.
 */
export class IdBits {
  private seen = new Uint8Array(1024);
  size = 0;

  /** True when the id is new to the set. */
  add(id: number): boolean {
    if (id >= this.seen.length * 8) {
      const grown = new Uint8Array(Math.max(this.seen.length * 2, (id >> 3) + 1));
      grown.set(this.seen);
      this.seen = grown;
    }
    const bit = 1 << (id & 7);
    if (this.seen[id >> 3]! & bit) return false;
    this.seen[id >> 3]! |= bit;
    this.size++;
    return true;
  }

  has(id: number): boolean {
    return id < this.seen.length * 8 && (this.seen[id >> 3]! & (1 << (id & 7))) !== 0;
  }
}
