import { setImmediate as nextTurn } from 'node:timers/promises';

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
