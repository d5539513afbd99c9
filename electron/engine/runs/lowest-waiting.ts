/** Something rows wait on (a query asked by the run), with the lowest of those rows. */
export interface Waited {
  low: number;
}

/**
 * The lowest row still waiting on any of a run's asked queries, for its watermark (matching-run.ts), without a walk of
 * every query on its way at each commit: a min-heap of each query's lowest row as it was asked or joined. An entry is
 * dropped once it comes to the top and its query is answered (no longer `current`); a query's older, higher entries
 * come after its newest, so they reach the top only once it is answered too.
 */
export class LowestWaiting<T extends Waited> {
  private lows: number[] = [];
  private items: T[] = [];

  constructor(private readonly current: (item: T) => boolean) {}

  /** `item` was asked, or a row below its `low` joined it. */
  push(item: T): void {
    const { lows, items } = this;
    let i = lows.length;
    lows.push(item.low);
    items.push(item);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (lows[up]! <= item.low) break;
      lows[i] = lows[up]!;
      items[i] = items[up]!;
      i = up;
    }
    lows[i] = item.low;
    items[i] = item;
  }

  /** The lowest row of the current items (Infinity: none). */
  lowest(): number {
    const { lows, items } = this;
    while (lows.length > 0 && !this.current(items[0]!)) this.pop();
    return lows.length > 0 ? lows[0]! : Number.POSITIVE_INFINITY;
  }

  clear(): void {
    this.lows = [];
    this.items = [];
  }

  private pop(): void {
    const { lows, items } = this;
    const lastLow = lows.pop()!;
    const lastItem = items.pop()!;
    const n = lows.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      let down = 2 * i + 1;
      if (down >= n) break;
      if (down + 1 < n && lows[down + 1]! < lows[down]!) down++;
      if (lows[down]! >= lastLow) break;
      lows[i] = lows[down]!;
      items[i] = items[down]!;
      i = down;
    }
    lows[i] = lastLow;
    items[i] = lastItem;
  }
}
