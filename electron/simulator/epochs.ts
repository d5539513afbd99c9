// The world moving on in steps (epochs), while the simulator serves: each epoch is one move-on (move-on.ts) a month
// after the one before, seeded by the epoch's number, so epoch N moves the same people to the same places whenever
// it is reached, and a test can ask who moved and who left in each epoch.
import type { Dataset } from './dataset';
import { moveOn, type MoveOnOptions, type MoveOnReport } from './move-on';
import { deriveSeed } from './random';

export interface EpochOptions extends MoveOnOptions {
  /**
   * An epoch passes every `everyMs` of the simulator's clock from its start (the first one `everyMs` after it);
   * without it the world moves on only when `advance()` is called.
   */
  everyMs?: number;
}

/** Who changed in one epoch (1 = the first move after the start). */
export interface EpochReport extends MoveOnReport {
  epoch: number;
}

/** The seed of epoch `epoch`'s moves: the same for the same seed and epoch, whatever came before. */
export function epochSeed(seed: number, epoch: number): number {
  return deriveSeed(seed, `epoch ${epoch}`);
}

export class Epochs {
  private readonly reports: EpochReport[] = [];

  /** `moved` runs after each epoch, so the indexes built from the dataset are made again. */
  constructor(
    private readonly dataset: Dataset,
    private readonly options: EpochOptions,
    private readonly startedAt: number,
    private readonly moved: () => void,
  ) {
    const every = options.everyMs;
    if (every !== undefined && !(Number.isFinite(every) && every > 0)) throw new RangeError(`everyMs must be more than 0, got ${every}.`);
    // Checks the shares and seed now, not at the first epoch.
    moveOn({ seed: dataset.seed, people: [], companies: [] }, { ...options, seed: epochSeed(options.seed, 1) });
  }

  /** Epochs passed so far. */
  get current(): number {
    return this.reports.length;
  }

  /** Who moved and who left, epoch by epoch. */
  history(): EpochReport[] {
    return this.reports.map((report) => ({ ...report }));
  }

  /** Moves the world on by one epoch and says who changed. */
  advance(): EpochReport {
    const { everyMs: _every, ...moves } = this.options;
    const epoch = this.reports.length + 1;
    const report = { epoch, ...moveOn(this.dataset, { ...moves, seed: epochSeed(moves.seed, epoch) }) };
    this.reports.push(report);
    this.moved();
    return { ...report };
  }

  /** With `everyMs`, moves the world on by every epoch due at `now`; the reports of those epochs. */
  catchUp(now: number): EpochReport[] {
    const every = this.options.everyMs;
    if (every === undefined) return [];
    const due = Math.floor((now - this.startedAt) / every);
    const passed: EpochReport[] = [];
    while (this.reports.length < due) passed.push(this.advance());
    return passed;
  }
}
