import type { Database } from 'better-sqlite3';

/** What the data file holds unused: pages freed by deleted rows, which SQLite reuses but keeps on the disk. */
export interface FreeSpace {
  /** Free pages in the file. */
  pages: number;
  /** Whether this file can give them back to the disk (it was made with incremental auto-vacuum). */
  canGiveBack: boolean;
}

/** SQLite's auto_vacuum value for INCREMENTAL. */
const INCREMENTAL = 2;

export function freeSpace(db: Database): FreeSpace {
  return { pages: Number(db.pragma('freelist_count', { simple: true })), canGiveBack: Number(db.pragma('auto_vacuum', { simple: true })) === INCREMENTAL };
}

/**
 * Gives up to `maxPages` free pages back to the disk: pages from the file's end move into free ones, and the file is
 * cut shorter (on disk once the WAL is checkpointed). Returns how many were given back; 0 for a file made without
 * incremental auto-vacuum, or with nothing free. One write transaction of its own: not inside another.
 */
export function giveBackFreePages(db: Database, maxPages: number): number {
  const before = Number(db.pragma('freelist_count', { simple: true }));
  if (before === 0) return 0;
  db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`);
  return before - Number(db.pragma('freelist_count', { simple: true }));
}
