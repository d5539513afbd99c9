import type { Database, Statement } from 'better-sqlite3';

/**
 * The bounds are in bytes, measured with 4 KB pages: a file with smaller pages (new files, open-database.ts) keeps
 * the same checkpoint cadence. The least is SQLite's own default, 1,000 pages: below it, checkpoints would come so
 * often that they cost more than the room they save.
 */
const MIN_WAL_BYTES = 1_000 * 4096;
/**
 * Past this a checkpoint every 30,000 4 KB pages measured fastest for long runs (docs/performance.md), and a WAL of
 * 120 MB is a small part of a database this large.
 */
const MAX_WAL_BYTES = 30_000 * 4096;
/** The WAL may grow to a quarter of the database: with a transaction's overshoot, a run needs at most ~1.5x its file. */
const WAL_SHARE = 4;
/**
 * The bound moves in steps of this many bytes (250 4 KB pages), so it changes once the database has grown by four of
 * them, not at nearly every commit of a run: setting it is two statements prepared anew (64 µs a commit).
 */
const WAL_STEP_BYTES = 250 * 4096;

/**
 * The WAL pages a commit may leave before it copies them into the database file, for a database of `pages` pages of
 * `pageSize` bytes. A fixed 30,000 pages let a 20,000-row run's WAL reach 118 MB beside its 81 MB database
 * (scripts/wal-peak.ts).
 */
export function walPagesFor(pages: number, pageSize = 4096): number {
  const share = Math.floor((pages * pageSize) / WAL_SHARE / WAL_STEP_BYTES) * WAL_STEP_BYTES;
  return Math.floor(Math.min(MAX_WAL_BYTES, Math.max(MIN_WAL_BYTES, share)) / pageSize);
}

/**
 * Keeps the WAL's checkpoint point in step with the database's size: call after each commit. SQLite keeps the WAL
 * file at its largest size, so its size limit follows too (the file is cut back when the next write starts over).
 */
export class WalBudget {
  private pages = 0;
  private readonly pageSize: number;
  /** Prepared once: `db.pragma()` prepares its statement anew, and this runs after every commit. */
  private readonly pageCount: Statement<[], number>;

  constructor(private readonly db: Database) {
    this.pageSize = db.pragma('page_size', { simple: true }) as number;
    this.pageCount = db.prepare<[], number>('PRAGMA page_count').pluck();
    this.update();
  }

  update(): void {
    const pages = walPagesFor(this.pageCount.get()!, this.pageSize);
    if (pages === this.pages) return;
    this.pages = pages;
    this.db.pragma(`wal_autocheckpoint = ${pages}`);
    this.db.pragma(`journal_size_limit = ${pages * this.pageSize}`);
  }
}
