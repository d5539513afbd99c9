import type { ProjectSummary } from '../../../../shared/contract';
import type { ProjectScreen } from '../../navigation/route';

/** Where opening a project should land: the mapping until anything was looked up, the review after. */
export function projectOpenScreen(summary: ProjectSummary): ProjectScreen {
  const untouched = (summary.counts.pending ?? 0) + (summary.counts.no_query ?? 0);
  if (summary.rowCount === 0 || untouched >= summary.rowCount) return 'mapping';
  return 'review';
}

export function toReviewCount(summary: ProjectSummary): number {
  return summary.counts.to_review ?? 0;
}
