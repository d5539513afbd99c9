import type { Database } from 'better-sqlite3';
import type { ProjectDetail, ProjectSummary } from '../../../shared/contract';
import type { RowState } from '../../../shared/model';
import { changedAtLastRefresh, jobChangeCountsOf, type ChangedCount } from '../review/review-page';
import { parseCells } from '../rows/row-cells';
import { stateCounts } from '../rows/row-status';
import { readyProjectIds, requireProject, type ProjectRecord } from '../rows/project-record';
import { lastRefreshOf } from '../store/refresh-tables';
import { watchSummary } from '../watch/watches';

/** Rows of the sheet shown with the project (the mapping screen's preview). */
const SAMPLE_ROWS = 20;

/**
 * `changed`: how the rows changed at its last refresh are counted (review-page.ts ChangedCount): walked here without it.
 * `now`: the engine's clock, which says whether its watch is due.
 */
export function projectSummary(db: Database, project: ProjectRecord, changed?: ChangedCount, now = Date.now()): ProjectSummary {
  const counts = withUnplannedRows(stateCounts(db, project.id), project.rowCount);
  const lastRefresh = lastRefreshOf(db, project.id);
  return {
    id: project.id,
    name: project.name,
    kind: project.kind,
    sourceName: project.sourceName,
    rowCount: project.rowCount,
    blankRows: project.blankRows,
    counts,
    matched: counts.auto + counts.accepted,
    jobChanges: jobChangeCountsOf(db, project.id),
    changedAtLastRefresh: changedAtLastRefresh(db, project.id, changed, lastRefresh),
    lastRefreshAt: lastRefresh?.startedAt ?? null,
    watch: watchSummary(db, project.id, now),
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}

/**
 * Every ready project, most recently changed first. Each project's counts are its own, kept until the data changes
 * and carried through decisions (stateCounts, jobChangeCountsOf): the projects screen, opened again after a review,
 * counts nothing. One pass over every project's rows at each list grows with the rows, and from a cold disk held the
 * engine's thread for seconds.
 */
export function listProjectSummaries(db: Database, changed?: ChangedCount, now = Date.now()): ProjectSummary[] {
  return readyProjectIds(db).map((id) => projectSummary(db, requireProject(db, id), changed, now));
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
