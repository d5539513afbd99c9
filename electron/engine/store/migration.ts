import type { Database } from 'better-sqlite3';

/** One forward-only schema step. `version` is its position; `up` runs inside the migration transaction. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
