import type { ResolutionCount, RowResolution, WaitingRow } from './row-resolution';
import type { VerdictValues } from './row-verdict';

/**
 * Rows that answers settled while calls are out, held and written in row order once every row before them is settled
 * too: below the run's watermark (the lowest row still waiting on a call or on a page's verdicts). A call's waiting
 * rows are spread over the few hundred rows the calls in flight cover, so writing them as their calls landed wrote a
 * page of `row_status` and of its indexes once per call that touched it; written below the watermark, a page's rows
 * are written together, in one commit, and the page about once. The calls' answers are still committed as they land:
 * a crash loses only the held rows' verdicts, which the next run works out again from the cache without a call.
 */
export class HeldRows {
  /**
   * In row order: rows arrive nearly so (a landed call's rows are from the pages read last), are counted below the
   * watermark by a binary search at every commit, and written from the front. Kept as they came, each count walked
   * them all and each write sorted them (at 1M rows, thousands held: 2.0 against 1.4 s of the run's thread, profiled).
   */
  private held: Held[] = [];
  /**
   * Rows added since `held` was last read, as they came: sorted and merged into it in one pass when it is next read,
   * so a held row moves once a read, not once for each row put before it (nearly every row of a landed call goes a
   * few hundred places before the end; docs/performance.md, "The first run").
   */
  private incoming: Held[] = [];
  private since = 0;
  /** Rows written so far: past `quickRows`, rows wait longer and are written in larger writes. */
  private written = 0;

  /** `quickRows`: a run's first rows, written quickly (QUICK_ROWS; tests pass fewer). */
  constructor(private readonly quickRows = QUICK_ROWS) {}

  get size(): number {
    return this.held.length + this.incoming.length;
  }

  /**
   * Holds rows an answer settles; what they count for the run's progress now. `values`: each row's verdict, in
   * `rows`' order; null when the answer found nobody at the rows' last step (they end: counted once written).
   * `people`: the answer's people's ids, when known: the run stored it, or read them with its facts (RowResolution.foundOne).
   */
  add(rows: readonly WaitingRow[], values: readonly VerdictValues[] | null, fetchedAt: number, people: readonly number[] | null = null): ResolutionCount {
    if (rows.length === 0) return { resolved: 0, advanced: 0 };
    if (this.size === 0) this.since = performance.now();
    for (let i = 0; i < rows.length; i++) this.incoming.push({ row: rows[i]!, values: values ? values[i]! : null, fetchedAt, people });
    // Rows with candidates count as settled now: only the run writes a pending row.
    return { resolved: values ? rows.length : 0, advanced: 0 };
  }

  /** Held rows before row `below`, those write would write; counted up to `enough` at most. */
  countBelow(below: number, enough = Number.POSITIVE_INFINITY): number {
    return Math.min(this.firstFrom(below), enough);
  }

  /**
   * The rows added since, sorted and merged into `held` from its end: a held row after the lowest of them moves once,
   * to its place; rows after every held one are appended where they are.
   */
  private mergeIncoming(): void {
    const incoming = this.incoming;
    if (incoming.length === 0) return;
    this.incoming = [];
    incoming.sort(byRowIndex);
    const held = this.held;
    let i = held.length - 1;
    for (const h of incoming) held.push(h);
    // From the end: the place written is always past the held rows not read yet (it is i + j + 1).
    for (let j = incoming.length - 1, at = held.length - 1; j >= 0; at--) {
      held[at] = i >= 0 && held[i]!.row.rowIndex > incoming[j]!.row.rowIndex ? held[i--]! : incoming[j--]!;
    }
  }

  /** The position of the first held row at or after row `index` (the count of those before it). */
  private firstFrom(index: number): number {
    this.mergeIncoming();
    let low = 0;
    let high = this.held.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.held[middle]!.row.rowIndex < index) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Whether to write now the rows before row `below` (the watermark): enough of them wait, or they have waited long
   * enough; or so many rows are held, above it too, that memory says to write them all (then Infinity).
   */
  dueBelow(below: number): number | null {
    if (this.size >= MAX_HELD_ROWS) return Number.POSITIVE_INFINITY;
    if (this.countBelow(below, 1) === 0) return null;
    // One row below is due once they waited long enough; otherwise once enough of them wait.
    if (this.waitLeft() === 0) return below;
    const { rows } = this.pace();
    return this.size >= rows && this.countBelow(below, rows) >= rows ? below : null;
  }

  /** How long (ms) until rows below the watermark are due by time. */
  waitLeft(): number {
    return Math.max(0, this.pace().ms - (performance.now() - this.since));
  }

  /**
   * Rows below the watermark are written once `rows` of them wait or they waited `ms`: quickly for a run's first rows,
   * so a short run shows its rows as they settle; then in larger writes, since each write writes again the last pages
   * of `row_status`' indexes (one per state, one per job change) and the pages at its ends.
   */
  pace(): { rows: number; ms: number } {
    return this.written < this.quickRows ? { rows: QUICK_WRITE_ROWS, ms: QUICK_HOLD_MS } : { rows: WRITE_ROWS, ms: HOLD_MS };
  }

  /**
   * Writes the held rows before row `below` (all by default) in row order, inside the caller's transaction, and lets
   * them go; returns what the writing changed beyond what `add` counted (a row a person decided meanwhile is left as
   * it is).
   */
  write(resolution: RowResolution, below = Number.POSITIVE_INFINITY): ResolutionCount {
    const count: ResolutionCount = { resolved: 0, advanced: 0 };
    const end = this.firstFrom(below);
    if (end === 0) return count;
    const written = this.held.slice(0, end);
    for (const { row, values, fetchedAt, people } of written) {
      if (values) count.resolved += resolution.foundOne(row, values, fetchedAt, people) - 1;
      else count.resolved += resolution.noCandidates([row], fetchedAt).resolved;
    }
    this.held = this.held.slice(end);
    this.since = performance.now();
    this.written += written.length;
    return count;
  }
}

/**
 * One comparator for every merge: a closure made at each sort was compiled by V8 again and again for as long as a run
 * went on (`--trace-opt`: 20 times in a 100k-row first run, 49 in 20 s of a 1M one).
 */
const byRowIndex = (a: Held, b: Held): number => a.row.rowIndex - b.row.rowIndex;

interface Held {
  row: WaitingRow;
  values: VerdictValues | null;
  fetchedAt: number;
  people: readonly number[] | null;
}

/**
 * A run's first rows: written within QUICK_HOLD_MS, at most QUICK_WRITE_ROWS at once (enough that the pages at a
 * write's ends are few of those it writes). Held a second from the start, a small run wrote its rows only at its end
 * (test/safety/crashes.test.ts kills runs part-way, once more rows are written).
 */
const QUICK_ROWS = 20_000;
const QUICK_HOLD_MS = 250;
const QUICK_WRITE_ROWS = 1_000;
/**
 * After them rows may wait a few seconds, thousands a write: each write rewrites the last page of every state's and
 * job change's run in `row_status`' indexes, whatever its size. A crash loses at most those verdicts, made again from
 * the cache; MAX_HELD_ROWS stays well above a write.
 */
const HOLD_MS = 3_000;
const WRITE_ROWS = 6_000;
/** Rows held at most, whatever the watermark: a bound on memory (a slow call holds the rows after its own). */
const MAX_HELD_ROWS = 10_000;
