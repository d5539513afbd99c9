// What the review toolbar says while a text filter waits for the project's text index to fill (its `textIndex` job's
// detail in job.progress): long in a large project, where "Loading…" alone would look stuck.
import type { TextIndexProgress } from '../../../../shared/contract';
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
