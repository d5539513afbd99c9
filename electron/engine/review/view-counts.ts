import type { Database } from 'better-sqlite3';
import type { ReviewCounts } from '../../../shared/contract';
import { JOB_CHANGES, ROW_STATES, type JobChangeStatus, type RowState } from '../../../shared/model';
import { stateCounts } from '../rows/row-status';
import { lastRefreshOf } from '../store/refresh-tables';
import { CHANGED_ROWS } from './changed-rows';
import { changedAtLastRefresh, jobChangeCountsOf, noJobChanges, stateWhere, type ChangedCount } from './review-page';

export interface ReviewCountsRequest {
  states?: RowState[];
  jobChanges?: JobChangeStatus[];
  changedAtLastRefresh?: boolean;
}

/**
 * The review's chip counts for the view it shows: each group of chips counted under the other groups' filters (the
 * states under the job-change and "changed" filters, the job changes under the state and "changed" filters, ...), so a
 * chip says how many rows pressing it would show. Without a filter they are the project's, as kept. A text filter is not
 * counted in: the chips count by status, the list's total by text as well.
 */
export function reviewCounts(db: Database, projectId: number, req: ReviewCountsRequest, changed?: ChangedCount): ReviewCounts {
  const states = req.states && req.states.length > 0 ? [...new Set(req.states)].filter((s) => ROW_STATES.includes(s)) : null;
  const jobChanges = req.jobChanges && req.jobChanges.length > 0 ? [...new Set(req.jobChanges)].filter((j) => JOB_CHANGES.includes(j)) : null;
  const lastRefresh = lastRefreshOf(db, projectId);
  // "Changed at the last refresh" with no refresh holds nothing, as its list does.
  const changedIn = req.changedAtLastRefresh ? (lastRefresh?.id ?? -1) : null;

  const counts = Object.fromEntries(ROW_STATES.map((s) => [s, 0])) as Record<RowState, number>;
  if (!jobChanges && changedIn === null) Object.assign(counts, stateCounts(db, projectId));
  else for (const { g, n } of grouped(db, projectId, { states: null, jobChanges, changedIn }, 'rs.state')) counts[g as RowState] = n;

  let jobs = noJobChanges();
  if (!states && changedIn === null) jobs = jobChangeCountsOf(db, projectId);
  else for (const { g, n } of grouped(db, projectId, { states, jobChanges: null, changedIn }, 'rs.job_change')) if (g !== null) jobs[g as JobChangeStatus] = n;

  const changedNow =
    !states && !jobChanges
      ? changedAtLastRefresh(db, projectId, changed, lastRefresh)
      : lastRefresh
        ? (grouped(db, projectId, { states, jobChanges, changedIn: lastRefresh.id }, null)[0]?.n ?? 0)
        : 0;
  return { counts, jobChanges: jobs, changedAtLastRefresh: changedNow };
}

/** Rows of the filter, counted by `column` (one group without it). */
function grouped(
  db: Database,
  projectId: number,
  f: { states: RowState[] | null; jobChanges: JobChangeStatus[] | null; changedIn: number | null },
  column: 'rs.state' | 'rs.job_change' | null,
): { g: string | null; n: number }[] {
  const by = column ?? 'NULL';
  const where = stateWhere({ ...f, changedIn: null });
  // The rows changed at a refresh from that refresh's index of changed rows, as their list is walked.
  const { sql, params } =
    f.changedIn === null
      ? { sql: `FROM row_status AS rs WHERE rs.project_id = ?${where.sql}`, params: [projectId, ...where.params] }
      : { sql: `${CHANGED_ROWS}${where.sql}`, params: [projectId, f.changedIn, ...where.params] };
  return db.prepare(`SELECT ${by} AS g, count(*) AS n ${sql} GROUP BY g`).all(...params) as { g: string | null; n: number }[];
}
