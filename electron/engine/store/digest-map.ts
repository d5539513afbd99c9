/**
 * Ids by a 64-bit digest, in typed arrays: open addressing, a digest and an id a slot, at most three quarters full. A
 * Map held a BigInt and an entry object per digest, about twice the memory at a million. Half full, a 1M-row sheet's
 * 650,000 queries took 2M slots (24 MB, 36 MB while growing) and were most of the engine's array buffers; the digests
 * are hashes, so a fuller table costs a few more probes a lookup.
 */
export class DigestMap {
  private digests: BigInt64Array;
  /** 0: an empty slot (ids start at 1). */
  private ids: Int32Array;
  private count = 0;

  /** `capacity`: the slots it starts with, a power of two. */
  constructor(private readonly capacity = 4096) {
    this.digests = new BigInt64Array(capacity);
    this.ids = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Slots held: the memory is 12 bytes a slot. */
  get slots(): number {
    return this.ids.length;
  }

  get(digest: bigint): number | undefined {
    const id = this.ids[this.slotOf(digest)]!;
    return id === 0 ? undefined : id;
  }

  /** `id`: 1 or more. */
  set(digest: bigint, id: number): void {
    if ((this.count + 1) * 4 > this.ids.length * 3) this.grow();
    const slot = this.slotOf(digest);
    if (this.ids[slot] === 0) this.count++;
    this.digests[slot] = digest;
    this.ids[slot] = id;
  }

  clear(): void {
    this.digests = new BigInt64Array(this.capacity);
    this.ids = new Int32Array(this.capacity);
    this.count = 0;
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
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.set(digests[i]!, ids[i]!);
  }
}
