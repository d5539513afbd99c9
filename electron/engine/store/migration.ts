import type { Database } from 'better-sqlite3';

/**
 * One forward-only schema step. `version` is its position; `up` runs inside the migration transaction. A step that
 * moves every row of a large folder also has `slices`: its long part, run before `up` (store/migrate.ts).
 */
export interface Migration {
  version: number;
  name: string;
  slices?: SlicedMove;
  up(db: Database): void;
}

/**
 * A long move done a slice at a time, each slice its own transaction, into tables of its own beside the ones it
 * reads, which stay untouched: until `up` swaps the new tables in (in the short transaction that sets user_version)
 * the folder is in the older version and an older app reads and writes it as before. Where the move got to is kept in
 * the file (`migration_slices`), so a stopped move resumes there; a write by an older app to a table it reads starts
 * it over.
 */
export interface SlicedMove {
  /** The tables the move reads. */
  reads: readonly string[];
  /** Makes the move's own tables, empty, and says how many records it will move. */
  begin(db: Database): number;
  /** Drops the move's own tables (to start over, or when `up` has no more use for them). */
  discard(db: Database): void;
  /** A mover for this connection, which may keep what it learns in memory between slices. */
  mover(db: Database): SliceMover;
}

export interface SliceMover {
  /**
   * Moves up to `limit` more records from `position` (null at the start), in the caller's transaction: where the move
   * now is, how many records this slice moved and the phase it is in; null when nothing was left to move.
   */
  slice(position: string | null, limit: number): { position: string; moved: number; phase: string } | null;
}
