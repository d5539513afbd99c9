import { JOB_CHANGES, type JobChangeStatus } from '../../../../shared/model';

/** Where a matched person is now against the sheet's company, in the user's words. */
export const JOB_CHANGE_LABELS: Record<JobChangeStatus, string> = {
  no_change: 'Still there',
  moved: 'Moved',
  left: 'Left',
  unknown: 'Unknown',
};

/** The order people read them in: what changed first. */
export const JOB_CHANGE_ORDER: readonly JobChangeStatus[] = ['moved', 'left', 'no_change', 'unknown'];

/** "412 moved, 58 left, 3,120 still there" (zeros left out; "unknown" last). */
export function jobChangeSummary(counts: Record<JobChangeStatus, number>, format: (n: number) => string): string {
  return JOB_CHANGE_ORDER.filter((j) => counts[j] > 0)
    .map((j) => `${format(counts[j])} ${JOB_CHANGE_LABELS[j].toLowerCase()}`)
    .join(', ');
}

export function totalMatched(counts: Record<JobChangeStatus, number>): number {
  return JOB_CHANGES.reduce((sum, j) => sum + counts[j], 0);
}
