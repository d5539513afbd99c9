import type { Database } from 'better-sqlite3';
import { setTimeout as delay } from 'node:timers/promises';
import type { ChangedRowsCounted } from '../../../shared/contract';
import type { ReadingThread } from '../runs/reading-thread';
import { dataStamp } from '../store/data-stamp';
import { COUNTED_HERE, markedChanged } from './changed-rows';
import { changedAtRefresh, changedRowsWalk, keepChangedRows, keptChangedAtRefresh, type ChangedCount } from './review-page';

/** Walks of one refresh's rows made again at once because rows were written while one went; later ones wait first. */
const WALKS = 3;
/** The longest wait (ms) between walks made again while writes keep coming (a text index filling, a run). */
const MAX_PAUSE_MS = 2_000;

/**
 * The count of rows changed at a project's last refresh, which the projects list, the review's chips and the export
 * screen show, had without holding the engine. Counting them walks the refresh's changed rows and reads each one's
 * chosen person: in a large project that takes seconds, far longer after a restart or while the disk is busy, and it
 * held the projects list, the first screen, for as long.
 *
 * So when the list of those rows is not kept (review-page.ts keeps it until the data changes, and decisions bring it
 * through), a refresh that marked more than COUNTED_HERE rows changed is walked by a worker, on its own
 * read-only connection, and the figure is null ("counting") meanwhile. Its list is then kept as if walked here, if
 * nothing was written since it began (else it is walked again until nothing is, at growing intervals), and `counted`
 * says so: the 'project.changedCount' event, with which the screens fill the figure in. The worker is the engine's
 * for long reads (runs/reading-thread.ts), not the runs' verdict worker, which a cold walk would hold up for seconds.
 */
export class ChangedRowsCounter {
  private readonly walking = new Map<string, Promise<void>>();
  /** Set once the engine is closing: walks under way end without a figure. */
  private closed = false;
  private readonly closing = new AbortController();

  constructor(
    private readonly db: Database,
    /** Where the walks are made: a worker the engine starts for long reads. */
    private readonly reading: ReadingThread,
    private readonly counted: (counted: ChangedRowsCounted) => void,
    private readonly countedHere: number = COUNTED_HERE,
  ) {}

  /** The figure, or null while a worker walks it (review-page.ts ChangedCount). */
  readonly count: ChangedCount = (projectId, refreshId) => {
    const kept = keptChangedAtRefresh(this.db, projectId, refreshId);
    if (kept !== null) return kept;
    const key = `${projectId} ${refreshId}`;
    if (this.walking.has(key)) return null;
    const walked = this.closed || this.db.inTransaction || markedChanged(this.db, projectId, refreshId) <= this.countedHere ? null : this.walk(projectId, refreshId);
    if (!walked) return changedAtRefresh(this.db, projectId, refreshId);
    this.walking.set(
      key,
      walked.finally(() => this.walking.delete(key)),
    );
    return null;
  };

  /** Resolves once the walks of the project's changed rows under way (if any) have ended. */
  async walked(projectId: number): Promise<void> {
    await Promise.all([...this.walking].filter(([key]) => key.startsWith(`${projectId} `)).map(([, walk]) => walk));
  }

  /** Walks under way end without a figure (the engine closes the worker); counts from now on are walked here. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await Promise.all(this.walking.values());
  }

  /** Waits `ms` between walks; false once the engine is closing. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await delay(ms, undefined, { signal: this.closing.signal });
    } catch {
      return false;
    }
    return !this.closed;
  }

  /** A walk on the worker, made again while rows were written meanwhile; null when no worker can make it. */
  private walk(projectId: number, refreshId: number): Promise<void> | null {
    let stamp = dataStamp(this.db);
    const { sql, params } = changedRowsWalk(this.db, projectId, refreshId);
    const walkOnce = () => this.reading.rowList(sql, params);
    let rows = walkOnce();
    if (!rows) return null;
    return (async () => {
      for (let walks = 1; rows; walks++) {
        let list: Uint32Array;
        try {
          list = await rows;
        } catch {
          // The worker failed, or stopped as the engine closes: the next ask walks them here.
          return;
        }
        if (this.closed) return;
        if (keepChangedRows(this.db, projectId, refreshId, stamp, list)) {
          this.counted({ projectId, refreshId, changedAtLastRefresh: list.length });
          return;
        }
        if (this.db.inTransaction) return;
        // The screens wait for the event and may never ask again: the walk goes on while writes keep coming, pausing
        // longer each time past the first few.
        if (walks >= WALKS && !(await this.pause(Math.min(MAX_PAUSE_MS, 100 * 2 ** (walks - WALKS))))) return;
        stamp = dataStamp(this.db);
        rows = walkOnce();
      }
    })();
  }
}
