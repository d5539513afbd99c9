import type { Database } from 'better-sqlite3';
import type { RefreshPreview } from '../../../shared/contract';
import { MAX_QUERIES_PER_FIND } from '../api';
import { estimatedSeconds, type CallPace } from '../runs/call-timing';
import { insertRefresh, zeroRefreshCounters } from './refresh-records';

/** Who a refresh of a project asks for: every chosen person with a profile slug, once, and the rows that chose them. */
export interface RefreshPlan {
  /** Rows with a chosen person (auto or accepted). */
  matchedRows: number;
  rowsWithoutProfile: number;
  /** People left out because their record is younger than olderThanDays. */
  recentPeople: number;
  /** People asked for: distinct profile slugs of the matched rows, less the recent ones. */
  people: number;
}

const DAY_MS = 86_400_000;

// The plan is counted and recorded in SQL, never held: at 1M rows the matched rows as JavaScript arrays and the map of
// people to their rows were 110 MB of live heap in a preview (a collection during it kept 149 MB), held again while a
// refresh was recorded.

/** The project's matched rows and the profile slug of the person each chose (NULL or not text: no profile). */
const MATCHED_ROWS = `SELECT rs.row_index, json_extract(rs.chosen, '$.summary.social') AS slug, rs.fetched_at
  FROM row_status AS rs INDEXED BY row_status_by_state
  WHERE rs.project_id = @projectId AND rs.state IN ('auto', 'accepted')`;
const HAS_PROFILE = "typeof(slug) = 'text' AND slug <> ''";
/** The people with a profile among the matched rows and their freshest record: a refresh's, else the answer their rows were settled by. */
const PEOPLE = `SELECT m.slug, max(coalesce(m.fetched, rp.refreshed_at), coalesce(rp.refreshed_at, m.fetched)) AS freshest
  FROM (SELECT slug, max(fetched_at) AS fetched FROM (${MATCHED_ROWS}) WHERE ${HAS_PROFILE} GROUP BY slug) AS m
  LEFT JOIN refreshed_people AS rp ON rp.scope = @scope AND rp.slug = m.slug`;
/** People whose freshest record is younger than the cutoff (none without one). */
const RECENT_PEOPLE = `SELECT slug FROM (${PEOPLE}) WHERE @cutoff IS NOT NULL AND freshest >= @cutoff`;

interface PlanParams {
  projectId: number;
  scope: string;
  cutoff: number | null;
}

function planParams(projectId: number, scope: string, olderThanDays: number | null, nowMs: number): PlanParams {
  return { projectId, scope, cutoff: olderThanDays === null ? null : nowMs - olderThanDays * DAY_MS };
}

/**
 * The chosen people of a project's matched rows, by profile slug (spec 4.2: find by `social`), counted. With
 * `olderThanDays` only people whose freshest record (a refresh's, else the answer their rows were settled by) is
 * older than that.
 */
export function planRefresh(db: Database, projectId: number, scope: string, olderThanDays: number | null, nowMs: number): RefreshPlan {
  const params = planParams(projectId, scope, olderThanDays, nowMs);
  const [matchedRows, rowsWithoutProfile, distinctPeople] = db
    .prepare(`SELECT count(*), count(*) - count(CASE WHEN ${HAS_PROFILE} THEN 1 END), count(DISTINCT CASE WHEN ${HAS_PROFILE} THEN slug END) FROM (${MATCHED_ROWS})`)
    .raw()
    .get({ projectId }) as [number, number, number];
  const recentPeople = params.cutoff === null ? 0 : (db.prepare(`SELECT count(*) FROM (${RECENT_PEOPLE})`).pluck().get(params) as number);
  return { matchedRows, rowsWithoutProfile, recentPeople, people: distinctPeople - recentPeople };
}

export function refreshPreview(plan: RefreshPlan, olderThanDays: number | null, pace: CallPace): RefreshPreview {
  const calls = Math.ceil(plan.people / MAX_QUERIES_PER_FIND);
  return {
    matchedRows: plan.matchedRows,
    people: plan.people,
    rowsWithoutProfile: plan.rowsWithoutProfile,
    recentPeople: plan.recentPeople,
    calls,
    estimatedSeconds: estimatedSeconds(calls, pace),
    olderThanDays,
  };
}

/**
 * Records a new refresh with the people it asks for (all pending) and the rows that chose them, in one transaction,
 * straight from the project's rows; returns the refresh's id and its plan. Earlier refreshes of the project keep
 * their record and counters; their lists of people and rows are let go, and one still waiting to be resumed is
 * cancelled (the new one asks for everyone it would have).
 */
export function createRefresh(db: Database, projectId: number, scope: string, olderThanDays: number | null, nowMs: number): { refreshId: number; plan: RefreshPlan } {
  const at = new Date(nowMs).toISOString();
  return db.transaction(() => {
    db.prepare(
      "UPDATE refreshes SET status = 'cancelled', message = 'Replaced by a newer refresh.', updated_at = ?, finished_at = ? WHERE project_id = ? AND status IN ('paused', 'failed', 'out_of_credits')",
    ).run(at, at, projectId);
    db.prepare('DELETE FROM refresh_people WHERE refresh_id IN (SELECT id FROM refreshes WHERE project_id = ?)').run(projectId);
    db.prepare('DELETE FROM refresh_rows WHERE refresh_id IN (SELECT id FROM refreshes WHERE project_id = ?)').run(projectId);
    const plan = planRefresh(db, projectId, scope, olderThanDays, nowMs);
    const counters = { ...zeroRefreshCounters(), peopleTotal: plan.people, rowsWithoutProfile: plan.rowsWithoutProfile };
    const refreshId = insertRefresh(db, projectId, scope, olderThanDays, counters, at);
    const params = { ...planParams(projectId, scope, olderThanDays, nowMs), refreshId };
    const recent = params.cutoff === null ? '' : ` AND slug NOT IN (${RECENT_PEOPLE})`;
    db.prepare(`INSERT INTO refresh_rows (refresh_id, slug, row_index) SELECT @refreshId, slug, row_index FROM (${MATCHED_ROWS}) WHERE ${HAS_PROFILE}${recent} ORDER BY slug, row_index`).run(params);
    db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) SELECT DISTINCT refresh_id, slug, 'pending' FROM refresh_rows WHERE refresh_id = ?").run(refreshId);
    return { refreshId, plan };
  })();
}
