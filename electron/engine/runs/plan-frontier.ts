import type { Mapping } from '../../../shared/model';

/**
 * How far a project's first plan has got, for a run that follows it (runs/matching-run.ts): the rows written so far
 * are planned for good, as nothing of the project was planned before, so the run may settle them while later pages
 * are worked out. A page is written in one transaction, so the run reads a page whole or not at all.
 */
export class PlanFrontier {
  /** Rows planned so far, and of them those with nothing to ask (settled by the plan itself). */
  rows = 0;
  withoutQuery = 0;
  /** Every row whose index is below this is planned. */
  before = 0;
  /** The plan is written whole (its project's plan_scope set). */
  whole = false;
  private failure: unknown = null;
  private wake: (() => void)[] = [];

  constructor(
    /** The mapping the plan plans with: the one its rows' verdicts are taken under. */
    readonly mapping: Mapping,
  ) {}

  /** A page is written: `rows` and `withoutQuery` as counted from the plan's start, every row below `before` planned. */
  landed(rows: number, withoutQuery: number, before: number): void {
    this.rows = rows;
    this.withoutQuery = withoutQuery;
    this.before = before;
    this.wakeAll();
  }

  /** The plan ended: whole, or failed or cancelled with `error` (its rows after the last page are never planned by it). */
  ended(error: unknown = null): void {
    if (error === null) this.whole = true;
    else this.failure = error;
    this.wakeAll();
  }

  /** Whether the plan stopped before it was whole. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Resolves at the next page written or at the plan's end; throws the plan's failure once it failed. */
  async next(): Promise<void> {
    if (!this.whole && this.failure === null) await new Promise<void>((resolve) => this.wake.push(resolve));
    if (this.failure !== null) throw this.failure;
  }

  private wakeAll(): void {
    const wake = this.wake;
    this.wake = [];
    for (const resolve of wake) resolve();
  }
}
