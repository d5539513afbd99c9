import type { Database } from 'better-sqlite3';
import type { RefreshPreview } from '../../../shared/contract';
import { MAX_QUERIES_PER_FIND } from '../api';
import { insertRefresh, zeroRefreshCounters } from './refresh-records';

/** Who a refresh of a project asks for: every chosen person with a profile slug, once, and the rows that chose them. */
export interface RefreshPlan {
  /** Rows with a chosen person (auto or accepted). */
  matchedRows: number;
  rowsWithoutProfile: number;
  /** People left out because their record is younger than olderThanDays. */
  recentPeople: number;
  /** Profile slug -> the matched rows that chose that person, in row order. */
  people: Map<string, number[]>;
}

const DAY_MS = 86_400_000;

/**
 * The chosen people of a project's matched rows, by profile slug (spec 4.2: find by `social`). With `olderThanDays`
 * only people whose freshest record (a refresh's, else the answer their rows were settled by) is older than that.
 */
export function planRefresh(db: Database, projectId: number, scope: string, olderThanDays: number | null, nowMs: number): RefreshPlan {
  const withAge = olderThanDays !== null;
  const rows = db
    .prepare(
      `SELECT rs.row_index, json_extract(rs.chosen, '$.summary.social') AS slug${withAge ? ', rs.fetched_at' : ''}
       FROM row_status AS rs INDEXED BY row_status_by_state
       WHERE rs.project_id = ? AND rs.state IN ('auto', 'accepted') ORDER BY rs.row_index`,
    )
    .raw()
    .all(projectId) as [number, string | null, (number | null)?][];
  const people = new Map<string, number[]>();
  const fetchedAt = new Map<string, number>();
  let rowsWithoutProfile = 0;
  for (const [rowIndex, slug, fetched] of rows) {
    if (typeof slug !== 'string' || slug === '') {
      rowsWithoutProfile++;
      continue;
    }
    const list = people.get(slug);
    if (list) list.push(rowIndex);
    else people.set(slug, [rowIndex]);
    if (typeof fetched === 'number') fetchedAt.set(slug, Math.max(fetched, fetchedAt.get(slug) ?? fetched));
  }
  let recentPeople = 0;
  if (withAge) {
    const refreshed = db.prepare('SELECT slug, refreshed_at FROM refreshed_people WHERE scope = ?').raw().all(scope) as [string, number][];
    for (const [slug, at] of refreshed) if (people.has(slug)) fetchedAt.set(slug, Math.max(at, fetchedAt.get(slug) ?? at));
    const cutoff = nowMs - olderThanDays * DAY_MS;
    for (const slug of [...people.keys()]) {
      const at = fetchedAt.get(slug);
      if (at !== undefined && at >= cutoff) {
        people.delete(slug);
        recentPeople++;
      }
    }
  }
  return { matchedRows: rows.length, rowsWithoutProfile, recentPeople, people };
}

export function refreshPreview(plan: RefreshPlan, olderThanDays: number | null, opts: { concurrency: number; secondsPerCall: number }): RefreshPreview {
  const calls = Math.ceil(plan.people.size / MAX_QUERIES_PER_FIND);
  return {
    matchedRows: plan.matchedRows,
    people: plan.people.size,
    rowsWithoutProfile: plan.rowsWithoutProfile,
    recentPeople: plan.recentPeople,
    calls,
    estimatedSeconds: Math.ceil(Math.ceil(calls / Math.max(1, opts.concurrency)) * opts.secondsPerCall),
    olderThanDays,
  };
}

/**
 * Records a new refresh with the people it asks for (all pending) and the rows that chose them, in one transaction.
 * Earlier refreshes of the project keep their record and counters; their lists of people and rows are let go, and
 * one still waiting to be resumed is cancelled (the new one asks for everyone it would have).
 */
export function createRefresh(db: Database, projectId: number, scope: string, plan: RefreshPlan, olderThanDays: number | null, at: string): number {
  return db.transaction(() => {
    db.prepare(
      "UPDATE refreshes SET status = 'cancelled', message = 'Replaced by a newer refresh.', updated_at = ?, finished_at = ? WHERE project_id = ? AND status IN ('paused', 'failed', 'out_of_credits')",
    ).run(at, at, projectId);
    db.prepare('DELETE FROM refresh_people WHERE refresh_id IN (SELECT id FROM refreshes WHERE project_id = ?)').run(projectId);
    db.prepare('DELETE FROM refresh_rows WHERE refresh_id IN (SELECT id FROM refreshes WHERE project_id = ?)').run(projectId);
    const counters = { ...zeroRefreshCounters(), peopleTotal: plan.people.size, rowsWithoutProfile: plan.rowsWithoutProfile };
    const refreshId = insertRefresh(db, projectId, scope, olderThanDays, counters, at);
    const person = db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) VALUES (?, ?, 'pending')");
    const row = db.prepare('INSERT INTO refresh_rows (refresh_id, slug, row_index) VALUES (?, ?, ?)');
    for (const [slug, rows] of plan.people) {
      person.run(refreshId, slug);
      for (const rowIndex of rows) row.run(refreshId, slug, rowIndex);
    }
    return refreshId;
  })();
}
