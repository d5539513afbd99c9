import type { ResolutionCount, RowResolution, WaitingRow } from './row-resolution';
import type { VerdictValues } from './row-verdict';

/**
 * Rows that answers settled while calls are out, held a moment and written together in row order. A call's waiting
 * rows are spread over the few hundred rows the calls in flight cover, so writing them with each call's commit wrote
 * most pages of `row_status` and of its indexes once per call that touched them. The calls' answers are still
 * committed as they land: a crash loses only the held rows' verdicts, which the next run works out again from the
 * cache without a call.
 */
export class HeldRows {
  private held: Held[] = [];
  private rows = 0;
  /** Rows counted as settled when held: their verdicts found candidates, and only the run writes a pending row. */
  private counted = 0;
  private since = 0;

  get size(): number {
    return this.rows;
  }

  /**
   * Holds rows an answer settles; what they count for the run's progress now. `values`: each row's verdict, in
   * `rows`' order; null when the answer found nobody (the rows move on, or end: counted once written).
   */
  add(rows: readonly WaitingRow[], values: readonly VerdictValues[] | null, fetchedAt: number): ResolutionCount {
    if (rows.length === 0) return { resolved: 0, advanced: 0 };
    if (this.rows === 0) this.since = performance.now();
    this.held.push({ rows, values, fetchedAt });
    this.rows += rows.length;
    const resolved = values ? rows.length : 0;
    this.counted += resolved;
    return { resolved, advanced: 0 };
  }

  /** Whether the rows have waited long enough, or enough of them wait, to be written now. */
  due(): boolean {
    return this.rows >= MAX_HELD_ROWS || (this.rows > 0 && this.waitLeft() === 0);
  }

  /** How long (ms) until the held rows are due by time. */
  waitLeft(): number {
    return Math.max(0, HOLD_MS - (performance.now() - this.since));
  }

  /**
   * Writes every held row in row order (inside the caller's transaction) and lets them go; returns what the writing
   * changed beyond what `add` counted (a row a person decided meanwhile is left as it is).
   */
  write(resolution: RowResolution): ResolutionCount {
    const count: ResolutionCount = { resolved: -this.counted, advanced: 0 };
    const order: [rowIndex: number, held: Held, i: number][] = [];
    for (const h of this.held) for (let i = 0; i < h.rows.length; i++) order.push([h.rows[i]!.rowIndex, h, i]);
    order.sort((a, b) => a[0] - b[0]);
    for (const [, { rows, values, fetchedAt }, i] of order) {
      const change = values ? resolution.found([rows[i]!], [values[i]!], fetchedAt) : resolution.foundNobody([rows[i]!], fetchedAt);
      count.resolved += change.resolved;
      count.advanced += change.advanced;
    }
    this.held = [];
    this.rows = 0;
    this.counted = 0;
    return count;
  }
}

interface Held {
  rows: readonly WaitingRow[];
  values: readonly VerdictValues[] | null;
  fetchedAt: number;
}

/** How long settled rows may wait to be written (ms): a few rounds of calls, and no longer than a person would notice. */
const HOLD_MS = 250;
/** Rows held at most, whatever the time: a bound on memory. */
const MAX_HELD_ROWS = 10_000;
