import { EngineError } from './engine-errors';

/**
 * Work on a project that nothing else may overlap (the planning of its queries, an action over many of its rows), one
 * at a time per key: `run` refuses while one goes on (busy, in the words the work was given), `settled` waits for it
 * to end.
 */
export class KeyedWork<K> {
  private readonly working = new Map<K, { what: string; settled: Promise<unknown> }>();

  has(key: K): boolean {
    return this.working.has(key);
  }

  get size(): number {
    return this.working.size;
  }

  refuse(key: K): void {
    const working = this.working.get(key);
    if (working) throw new EngineError('busy', `${working.what} Try again in a moment.`);
  }

  /** The end of the work under way under `key` (however it ends), or undefined when none goes on. */
  current(key: K): Promise<void> | undefined {
    return this.working.get(key)?.settled.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Resolves once no work goes on under `key` (a turn later when none does), however it ended. */
  async settled(key: K): Promise<void> {
    for (let pending = this.current(key); pending; pending = this.current(key)) await pending;
  }

  /** Runs `work` under `key`, said to others as `what` ("This project's last action is being undone."). */
  async run<T>(key: K, what: string, work: () => Promise<T>): Promise<T> {
    this.refuse(key);
    // Started a microtask later, so the work is on record before its first line runs.
    const settled = Promise.resolve().then(work);
    this.working.set(key, { what, settled });
    try {
      return await settled;
    } finally {
      this.working.delete(key);
    }
  }
}
