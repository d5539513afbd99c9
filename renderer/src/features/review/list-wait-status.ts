// What the review toolbar says while its list waits for long work on a large project, where "Loading…" alone would
// look stuck: the project's plan (a mapping being saved: the list is read once every row has its status), then a text
// filter's fill of the project's text index (each its job's detail in job.progress).
import type { PlanProgress, TextIndexProgress } from '../../../../shared/contract';
import { formatCount, percent } from '../../ui/format';

/**
 * The toolbar's words for a fill under way, short enough to leave the toolbar's layout as it is; null when there is
 * none to tell of (no fill, or it is done).
 */
export function textIndexStatus(progress: TextIndexProgress | null): string | null {
  if (!progress || progress.phase === 'ready') return null;
  if (progress.phase === 'merging') return 'Searching… almost done';
  return `Searching… ${percent(progress.rowsIndexed, progress.rowsTotal)}%`;
}

/** The same fill in full, for the status's tooltip: why the filter waits, and how many rows are indexed so far. */
export function textIndexDetail(progress: TextIndexProgress | null): string | undefined {
  if (!progress || progress.phase === 'ready') return undefined;
  return `The text filter waits for the project's rows to be indexed, once per project and column mapping: ${formatCount(progress.rowsIndexed)} of ${formatCount(progress.rowsTotal)} rows so far.`;
}

/** The toolbar's words for a plan under way, which the list waits for; null when none is (or it is done). */
export function planStatus(progress: PlanProgress | null): string | null {
  if (!progress || progress.rowsPlanned >= progress.rowsTotal) return null;
  return `Preparing rows… ${percent(progress.rowsPlanned, progress.rowsTotal)}%`;
}

/** The same plan in full, for the status's tooltip. */
export function planDetail(progress: PlanProgress | null): string | undefined {
  if (!progress || progress.rowsPlanned >= progress.rowsTotal) return undefined;
  return `The rows are shown once each has its queries planned for the column mapping: ${formatCount(progress.rowsPlanned)} of ${formatCount(progress.rowsTotal)} rows so far.`;
}
