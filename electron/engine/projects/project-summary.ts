import type { Database } from 'better-sqlite3';
import type { ProjectDetail, ProjectSummary } from '../../../shared/contract';
import type { JobChangeStatus, RowState } from '../../../shared/model';
import { changedAtLastRefresh, jobChangeCountsOf, noJobChanges, type ChangedCount } from '../review/review-page';
import { parseCells } from '../runs/row-cells';
import { emptyCounts, stateCounts } from '../runs/row-status';
import { readyProjectIds, requireProject, type ProjectRecord } from './project-record';
import { lastRefreshOf } from '../store/refresh-tables';

/** Rows of the sheet shown with the project (the mapping screen's preview). */
const SAMPLE_ROWS = 20;

/** `changed`: how the rows changed at its last refresh are counted (review-page.ts ChangedCount): walked here without it. */
export function projectSummary(
  db: Database,
  project: ProjectRecord,
  changed?: ChangedCount,
  planned: Record<RowState, number> = stateCounts(db, project.id),
  jobChanges: Record<JobChangeStatus, number> = jobChangeCountsOf(db, project.id),
): ProjectSummary {
  const counts = withUnplannedRows(planned, project.rowCount);
  const lastRefresh = lastRefreshOf(db, project.id);
  return {
    id: project.id,
    name: project.name,
    kind: project.kind,
    sourceName: project.sourceName,
    rowCount: project.rowCount,
    counts,
    matched: counts.auto + counts.accepted,
    jobChanges,
    changedAtLastRefresh: changedAtLastRefresh(db, project.id, changed),
    lastRefreshAt: lastRefresh?.startedAt ?? null,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}

/** Every ready project, most recently changed first; counts for all of them in one pass over the index. */
export function listProjectSummaries(db: Database, changed?: ChangedCount): ProjectSummary[] {
  const counts = new Map<number, Record<RowState, number>>();
  const rows = db.prepare('SELECT project_id, state, count(*) AS n FROM row_status GROUP BY project_id, state').all() as { project_id: number; state: RowState; n: number }[];
  for (const r of rows) {
    let c = counts.get(r.project_id);
    if (!c) counts.set(r.project_id, (c = emptyCounts()));
    if (r.state in c) c[r.state] = r.n;
  }
  const jobChanges = new Map<number, Record<JobChangeStatus, number>>();
  const changes = db
    .prepare('SELECT project_id, job_change, count(*) AS n FROM row_status WHERE job_change IS NOT NULL GROUP BY project_id, job_change')
    .all() as { project_id: number; job_change: JobChangeStatus; n: number }[];
  for (const r of changes) {
    let c = jobChanges.get(r.project_id);
    if (!c) jobChanges.set(r.project_id, (c = noJobChanges()));
    if (r.job_change in c) c[r.job_change] = r.n;
  }
  return readyProjectIds(db).map((id) => {
    const project = requireProject(db, id);
    return projectSummary(db, project, changed, counts.get(id) ?? emptyCounts(), jobChanges.get(id) ?? noJobChanges());
  });
}

export function projectDetail(db: Database, projectId: number, changed?: ChangedCount): ProjectDetail {
  const project = requireProject(db, projectId);
  const sample = (db.prepare('SELECT cells FROM rows WHERE project_id = ? ORDER BY row_index LIMIT ?').all(projectId, SAMPLE_ROWS) as { cells: string }[]).map((r) =>
    parseCells(r.cells),
  );
  return {
    summary: projectSummary(db, project, changed),
    headers: project.headers,
    format: project.format,
    sheetName: project.sheetName,
    warnings: project.warnings,
    mapping: project.mapping,
    strategies: project.strategies,
    guesses: project.guesses,
    sample,
  };
}

/**
 * A row gets its status when the project's queries are planned (the mapping saved, or a first run, review or
 * export): until then, and for the rows a first plan has not reached yet, it waits to be asked, so it counts as
 * pending. The counts always add up to the project's rows.
 */
function withUnplannedRows(planned: Record<RowState, number>, rowCount: number): Record<RowState, number> {
  const unplanned = rowCount - Object.values(planned).reduce((a, b) => a + b, 0);
  return unplanned > 0 ? { ...planned, pending: planned.pending + unplanned } : planned;
}
