import type { Database } from 'better-sqlite3';

/** SQLite's own default: below it, checkpoints would come so often that they cost more than the room they save. */
const MIN_WAL_PAGES = 1_000;
/**
 * Past this a checkpoint every 30,000 pages measured fastest for long runs (docs/performance.md), and a WAL of 120 MB
 * is a small part of a database this large.
 */
const MAX_WAL_PAGES = 30_000;
/** The WAL may grow to a quarter of the database: with a transaction's overshoot, a run needs at most ~1.5x its file. */
const WAL_SHARE = 4;

/**
 * The WAL pages a commit may leave before it copies them into the database file, for a database of `pages` pages.
 * A fixed 30,000 pages let a 20,000-row run's WAL reach 118 MB beside its 81 MB database (scripts/wal-peak.ts).
 */
export function walPagesFor(pages: number): number {
  return Math.min(MAX_WAL_PAGES, Math.max(MIN_WAL_PAGES, Math.floor(pages / WAL_SHARE)));
}

/**
 * Keeps the WAL's checkpoint point in step with the database's size: call after each commit. SQLite keeps the WAL
 * file at its largest size, so its size limit follows too (the file is cut back when the next write starts over).
 */
export class WalBudget {
  private pages = 0;
  private readonly pageSize: number;

  constructor(private readonly db: Database) {
    this.pageSize = db.pragma('page_size', { simple: true }) as number;
    this.update();
  }

  update(): void {
    const pages = walPagesFor(this.db.pragma('page_count', { simple: true }) as number);
    if (pages === this.pages) return;
    this.pages = pages;
    this.db.pragma(`wal_autocheckpoint = ${pages}`);
    this.db.pragma(`journal_size_limit = ${pages * this.pageSize}`);
  }
}
