import type { Database } from 'better-sqlite3';
import type { VerdictThread } from './verdict-thread';

/** Reads a statement's rows elsewhere (ReadingThread.rows); null to read them on the caller's thread. */
export type RowsReader = (sql: string, params: unknown[]) => Promise<unknown[]> | null;

/** Walks a list of row indexes elsewhere, given the statement that gives them (ReadingThread.rowList); null to walk it here. */
export type ListWalker = (sql: string, params: unknown[]) => Promise<Uint32Array> | null;

/** A statement's rows, read by `elsewhere` when it can (and does not fail), else on `db`. */
export async function readRows(db: Database, sql: string, params: unknown[], elsewhere?: RowsReader): Promise<unknown[]> {
  return (await elsewhere?.(sql, params)?.catch(() => null)) ?? db.prepare(sql).all(...params);
}

/**
 * The reading worker's page cache, in MB. Its reads walk whole projects and sort them: a refresh preview grouping a
 * large project's matched rows by person is markedly faster with 16 MB than with the runs' worker's 4 MB, and 64 MB
 * is no faster. The worker and its cache go when the reads end.
 */
export const READING_CACHE_MB = 16;

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

  /** A statement's rows, read on the worker (VerdictThread.rows). */
  readonly rows: RowsReader = (sql, params) => this.read((thread) => thread.rows(sql, params));

  /** A list of row indexes, walked on the worker (VerdictThread.rowList). */
  readonly rowList: ListWalker = (sql, params) => this.read((thread) => thread.rowList(sql, params));

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
