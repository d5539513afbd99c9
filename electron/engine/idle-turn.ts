import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';

/** How often background work waiting for the engine to be idle looks again. */
const IDLE_POLL_MS = 100;

/** What background work (the text index's fill, a deleted project's cleanup) waits for the engine by. */
export interface IdleWait {
  /** No call, run, refresh or plan going on (the engine's rule). */
  isIdle: () => boolean;
  /** False once the work should stop (the database closed, the engine is closing). */
  goOn: () => boolean;
  /** True while someone waits on the work: then it does not wait for idle. */
  hurry: () => boolean;
  /** Handed a way to end the poll under way early (for a caller that takes the work over), and null once it ended. */
  onPoll?: (wake: (() => void) | null) => void;
}

/**
 * Gives the event loop a turn, then waits while the engine is busy, looking again every IDLE_POLL_MS. True when the
 * work may go on with its next slice, false once it should stop.
 */
export async function idleTurn({ isIdle, goOn, hurry, onPoll }: IdleWait): Promise<boolean> {
  await nextTurn();
  while (!hurry() && goOn() && !isIdle()) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, IDLE_POLL_MS);
      onPoll?.(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    onPoll?.(null);
  }
  return goOn();
}

/**
 * Background work on the database done a slice per idle turn (a deleted project's cleanup, the move of an older
 * folder's answers): `wake` starts it when it is not going (a wake while it goes makes it look once more at its end),
 * `finishNow` does the rest without waiting for idle, `stop` ends it after the slice under way (the engine is closing).
 */
export abstract class IdleWork {
  private running: Promise<void> | null = null;
  private again = false;
  /** finishNow: slices follow one another without waiting for the engine to be idle. */
  private hurry = false;
  protected stopped = false;

  constructor(
    protected readonly db: Database,
    private readonly isIdle: () => boolean,
  ) {}

  /** Starts the work when there is anything to do; resolves once nothing is left (or it stopped). */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.workAll().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.wake();
      }
    });
    return this.running;
  }

  /** Does everything left without waiting for the engine to be idle: for a host nobody waits on meanwhile, or a test. */
  async finishNow(): Promise<void> {
    this.hurry = true;
    try {
      await this.wake();
    } finally {
      this.hurry = false;
    }
  }

  /** Stops after the slice under way; what is left is done at the next start. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.running ?? Promise.resolve();
  }

  /** Waits for the engine to be idle (unless hurried): true when the next slice may go, false once the work should stop. */
  protected turn(): Promise<boolean> {
    return idleTurn({ isIdle: this.isIdle, goOn: () => !this.stopped && this.db.open, hurry: () => this.hurry });
  }

  /** Everything there is to do, a slice per `turn()`; never throws. */
  protected abstract workAll(): Promise<void>;
}
