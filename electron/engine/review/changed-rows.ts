import type { Database } from 'better-sqlite3';
import { chosenSlugSql } from '../rows/row-status';

// The rows a refresh changed, as the review's filter, its chip, the projects list and the export's "changed only" see
// them: the statement review-page.ts walks, here or on a worker (changed-count.ts), and the count of rows a refresh
// marked changed that decides which.

/**
 * A matched row changed at a refresh when that refresh asked for the person the row still has and found them
 * elsewhere (rows/refreshed-choice.ts jobChanged): the condition on a row_status row (alias rs).
 */
export const CHANGED_AT_REFRESH = `EXISTS (SELECT 1 FROM row_refreshes AS rr WHERE rr.project_id = rs.project_id AND rr.row_index = rs.row_index
  AND rr.refresh_id = ? AND rr.changed = 1 AND rr.slug = ${chosenSlugSql('rs')})`;

/** The rows changed at a refresh, walked from that refresh's index of changed rows (rr) with each one's status (rs). */
export const CHANGED_ROWS = `FROM row_refreshes AS rr INDEXED BY row_refreshes_changed
  JOIN row_status AS rs ON rs.project_id = rr.project_id AND rs.row_index = rr.row_index
  WHERE rr.project_id = ? AND rr.refresh_id = ? AND rr.changed = 1
    AND rs.state IN ('auto', 'accepted') AND rr.slug = ${chosenSlugSql('rs')}`;

/**
 * The rows changed at refresh `refreshId` (`k`, in no order yet): `extra` narrows them further (a condition on rs and
 * its parameters). Reads each changed row's chosen person from its JSON, which grows with the changed rows and is far
 * slower when the file is not in the OS's cache.
 */
export function changedRowsQuery(projectId: number, refreshId: number, extra: { sql: string; params: unknown[] } = { sql: '', params: [] }): { sql: string; params: unknown[] } {
  return { sql: `SELECT rr.row_index AS k ${CHANGED_ROWS}${extra.sql}`, params: [projectId, refreshId, ...extra.params] };
}

/** Rows marked changed at a refresh that the engine counts on its own thread: more are counted by a worker (changed-count.ts). */
export const COUNTED_HERE = 5_000;

/** How many of the refresh's rows it marked changed, whatever they hold now: an upper bound, from its index alone. */
export function markedChanged(db: Database, projectId: number, refreshId: number): number {
  return db.prepare('SELECT count(*) FROM row_refreshes INDEXED BY row_refreshes_changed WHERE project_id = ? AND refresh_id = ? AND changed = 1').pluck().get(projectId, refreshId) as number;
}
