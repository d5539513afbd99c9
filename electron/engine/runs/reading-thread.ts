import type { VerdictThread } from './verdict-thread';

/** Reads a statement's rows elsewhere (the reading worker's `rows`); null to read them on the caller's thread. */
export type RowsReader = (sql: string, params: unknown[]) => Promise<unknown[]> | null;

/**
 * A verdict worker (verdict-worker.ts) started for reads that would hold the engine's thread for seconds on a large
 * file, on its own read-only connection: the rows a refresh changed, the review's lists, the run's preview, the
 * cache's figures. In Electron the engine's thread is the main process, whose window stops answering meanwhile. Apart
 * from the runs' verdict worker, which such a read would hold up; started on the first read and stopped once none is
 * left, so it costs nothing while unused.
 */
export class ReadingThread {
  private thread: VerdictThread | null = null;
  private reading = 0;
  /** Set once a worker could not start or failed, or the engine is closing: every read is made by the caller. */
  private unusable = false;

  /** `start`: a worker on the engine's file (VerdictThread.start with its path); null where none can start. */
  constructor(private readonly start: () => VerdictThread | null) {}

  /**
   * `read` made on the worker; null when there is none (the caller reads on its own thread). A read the worker fails
   * rejects, and every later one is the caller's.
   */
  read<T>(read: (thread: VerdictThread) => Promise<T>): Promise<T> | null {
    const thread = this.worker();
    if (!thread) return null;
    this.reading++;
    return read(thread)
      .catch((error: unknown) => {
        this.unusable = true;
        throw error;
      })
      .finally(() => {
        // Stopped a turn later: a caller that reads again at once (a walk made again) keeps the same worker.
        if (--this.reading === 0) setImmediate(() => this.reading === 0 && this.stop());
      });
  }

  /** Reads under way reject; later ones are the caller's. */
  close(): void {
    this.unusable = true;
    this.stop();
  }

  private worker(): VerdictThread | null {
    if (this.unusable) return null;
    this.thread ??= this.start();
    if (!this.thread?.usable) this.unusable = true;
    return this.unusable ? null : this.thread;
  }

  private stop(): void {
    void this.thread?.close();
    this.thread = null;
  }
}
