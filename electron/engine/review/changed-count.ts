import type { Database } from 'better-sqlite3';
import type { ChangedRowsCounted } from '../../../shared/contract';
import type { VerdictThread } from '../runs/verdict-thread';
import { dataStamp } from '../store/data-stamp';
import { COUNTED_HERE, markedChanged } from './changed-rows';
import { changedAtRefresh, keepChangedRows, keptChangedAtRefresh, type ChangedCount } from './review-page';

/** Walks of one refresh's rows made again because rows were written while one went, before it waits to be asked again. */
const WALKS = 3;

/**
 * The count of rows changed at a project's last refresh, which the projects list, the review's chips and the export
 * screen show, had without holding the engine. Counting them walks the refresh's changed rows and reads each one's
 * chosen person: at a million rows (144k changed) ~0.6-1 s with the file in the OS's cache, 7.9 s after a restart,
 * and once over two minutes while the disk was busy. That held the projects list, the first screen, for as long.
 *
 * So when the list of those rows is not kept (review-page.ts keeps it until the data changes, and decisions bring it
 * through), a refresh that marked more than COUNTED_HERE rows changed is walked by a worker of its own, on a
 * read-only connection, and the figure is null ("counting") meanwhile. Its list is then kept as if walked here, if
 * nothing was written since it began (else it is walked again, up to WALKS times), and `counted` says so: the
 * 'project.changedCount' event, with which the screens fill the figure in. The worker is not the runs' verdict
 * worker, which a cold walk would hold up for seconds; it stops once no walk is left.
 */
export class ChangedRowsCounter {
  private readonly walking = new Map<string, Promise<void>>();
  private thread: VerdictThread | null = null;
  /** Set once a worker could not start or failed, or the engine is closing: every count is walked here. */
  private here = false;

  constructor(
    private readonly db: Database,
    /** Starts a worker on the same file (VerdictThread.start with its path); null where none can start. */
    private readonly startWorker: () => VerdictThread | null,
    private readonly counted: (counted: ChangedRowsCounted) => void,
    private readonly countedHere: number = COUNTED_HERE,
  ) {}

  /** The figure, or null while a worker walks it (review-page.ts ChangedCount). */
  readonly count: ChangedCount = (projectId, refreshId) => {
    const kept = keptChangedAtRefresh(this.db, projectId, refreshId);
    if (kept !== null) return kept;
    const key = `${projectId} ${refreshId}`;
    if (this.walking.has(key)) return null;
    const thread = this.here || this.db.inTransaction || markedChanged(this.db, projectId, refreshId) <= this.countedHere ? null : this.worker();
    if (!thread) return changedAtRefresh(this.db, projectId, refreshId);
    const walk = this.walk(thread, projectId, refreshId).finally(() => {
      this.walking.delete(key);
      if (this.walking.size === 0) this.stopWorker();
    });
    this.walking.set(key, walk);
    return null;
  };

  /** Resolves once the walks of the project's changed rows under way (if any) have ended. */
  async walked(projectId: number): Promise<void> {
    await Promise.all([...this.walking].filter(([key]) => key.startsWith(`${projectId} `)).map(([, walk]) => walk));
  }

  /** Walks under way end without a figure; counts from now on are walked here. */
  async close(): Promise<void> {
    this.here = true;
    this.stopWorker();
    await Promise.all(this.walking.values());
  }

  private async walk(thread: VerdictThread, projectId: number, refreshId: number): Promise<void> {
    for (let walks = 0; walks < WALKS && !this.here && !this.db.inTransaction; walks++) {
      const stamp = dataStamp(this.db);
      let rows: Uint32Array;
      try {
        rows = await thread.changedRows(projectId, refreshId);
      } catch {
        // The worker failed (or stopped as the engine closes): the next ask walks it here.
        this.here = true;
        return;
      }
      if (keepChangedRows(this.db, projectId, refreshId, stamp, rows)) {
        this.counted({ projectId, refreshId, changedAtLastRefresh: rows.length });
        return;
      }
    }
  }

  private worker(): VerdictThread | null {
    this.thread ??= this.startWorker();
    if (!this.thread?.usable) this.here = true;
    return this.here ? null : this.thread;
  }

  private stopWorker(): void {
    void this.thread?.close();
    this.thread = null;
  }
}
