import type { Database } from 'better-sqlite3';
import { writingUnreadTablesOnly } from './data-stamp';
import { statement } from './statements';

// What the summary, the review, the export and a deleted project's cleanup need of the refresh tables (made and kept by
// refresh/): on this floor, so those read them without reaching up into the refresh's own modules.

/**
 * A new refresh is recorded before its lists of people and rows are made, a slice at a time (refresh/refresh-plan.ts
 * createRefresh). Until they are complete it is stored as cancelled with no finish time: nothing resumes it, no
 * screen or export counts it as the last refresh, and one cut off by a crash stays that way (its lists are let go by
 * the next refresh of the project). Every other refresh that stops has a finish time.
 */
export const LISTED = "NOT (status = 'cancelled' AND finished_at IS NULL)";

/**
 * A listed refresh that did not fail to reach everyone: one that made calls and got no answer (every call failed)
 * changed nothing, so it is no project's last refresh, which stays the one before it. One that asked nobody (all
 * asked recently) is: it changed nobody.
 */
export const ANSWERED = `(${LISTED} AND json_valid(counters)
  AND (coalesce(json_extract(counters, '$.calls'), 0) = 0 OR coalesce(json_extract(counters, '$.found'), 0) + coalesce(json_extract(counters, '$.notFound'), 0) > 0))`;

/** The id and start of the project's last refresh (see ANSWERED): what "changed at the last refresh" is about. */
export function lastRefreshOf(db: Database, projectId: number): { id: number; startedAt: string } | null {
  const row = db.prepare(`SELECT id, started_at FROM refreshes WHERE project_id = ? AND ${ANSWERED} ORDER BY id DESC LIMIT 1`).raw().get(projectId) as [number, string] | undefined;
  return row ? { id: row[0], startedAt: row[1] } : null;
}

/** List entries deleted per transaction: a million rows' list deleted in one statement held the engine about a second. */
const ROWS_PER_SLICE = 20_000;
const PEOPLE_PER_SLICE = 5_000;

/**
 * One slice of letting a refresh's lists go: ROWS_PER_SLICE of its rows, in sheet order (migration 36: as they are
 * filed), then PEOPLE_PER_SLICE of the facts of the people it found (which only its rows were brought up to date
 * from), and with 'people and rows', once neither is left, PEOPLE_PER_SLICE of its people. Returns how many entries
 * went; 0 when none is left.
 */
export function dropListsSlice(db: Database, refreshId: number, what: 'rows' | 'people and rows'): number {
  return writingUnreadTablesOnly(db, () => dropSlice(db, refreshId, what));
}

function dropSlice(db: Database, refreshId: number, what: 'rows' | 'people and rows'): number {
  const rows = statement(db, 'DELETE FROM refresh_rows WHERE refresh_id = ? AND row_index IN (SELECT row_index FROM refresh_rows WHERE refresh_id = ? ORDER BY row_index LIMIT ?)');
  const dropped = rows.run(refreshId, refreshId, ROWS_PER_SLICE).changes;
  if (dropped > 0) return dropped;
  const found = statement(db, 'DELETE FROM refresh_found WHERE id IN (SELECT id FROM refresh_found WHERE refresh_id = ? LIMIT ?)');
  const facts = found.run(refreshId, PEOPLE_PER_SLICE).changes;
  if (facts > 0 || what === 'rows') return facts;
  const people = statement(db, 'DELETE FROM refresh_people WHERE refresh_id = ? AND slug IN (SELECT slug FROM refresh_people WHERE refresh_id = ? LIMIT ?)');
  return people.run(refreshId, refreshId, PEOPLE_PER_SLICE).changes;
}
