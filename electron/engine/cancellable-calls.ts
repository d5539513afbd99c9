/** The reason a closing engine cancels its calls with: a step that can stop and keep what it wrote may do so. */
export const CLOSING: unique symbol = Symbol('the engine is closing');

/**
 * Long calls a user may cancel part-way: an import and an export, which take a long while for a large sheet.
 * Each holds a signal under a key while it works (the import's file, the export's project). `cancel` aborts every call
 * under that key; each looks at its signal between pages, undoes what it began (the import's rows, the export's part
 * files) and fails with the `cancelled` kind, in words saying what was left.
 */
export class CancellableCalls<K> {
  private readonly working = new Map<K, Set<AbortController>>();

  async run<T>(key: K, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let set = this.working.get(key);
    if (!set) this.working.set(key, (set = new Set()));
    set.add(controller);
    try {
      return await work(controller.signal);
    } finally {
      set.delete(controller);
      if (set.size === 0) this.working.delete(key);
    }
  }

  /** Cancels every call under `key`; false when none was working. */
  cancel(key: K, reason?: unknown): boolean {
    const set = this.working.get(key);
    if (!set) return false;
    for (const controller of set) controller.abort(reason);
    return true;
  }

  /** Cancels every call (the engine is closing: CLOSING). */
  cancelAll(reason?: unknown): void {
    for (const key of this.working.keys()) this.cancel(key, reason);
  }
}
