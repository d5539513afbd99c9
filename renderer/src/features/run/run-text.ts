import type { RunProgress, RunStatus } from '../../../../shared/contract';
import { formatCount, formatDuration, formatRate, percent, plural } from '../../ui/format';

export interface RunControls {
  start: boolean;
  pause: boolean;
  resume: boolean;
  cancel: boolean;
}

/** Which buttons make sense for a run in this state (null = no run yet). */
export function runControls(status: RunStatus | null): RunControls {
  switch (status) {
    case 'running':
      return { start: false, pause: true, resume: false, cancel: true };
    case 'paused':
      return { start: false, pause: false, resume: true, cancel: true };
    default:
      return { start: true, pause: false, resume: false, cancel: false };
  }
}

export function isRunActive(status: RunStatus | null | undefined): boolean {
  return status === 'running' || status === 'paused';
}

export function runPercent(progress: RunProgress): number {
  if (progress.status === 'done') return 100;
  if (progress.queriesTotal > 0) return percent(progress.queriesDone, progress.queriesTotal);
  return percent(progress.rowsResolved, progress.rowsTotal);
}

export function runStatusLabel(status: RunStatus): string {
  switch (status) {
    case 'running':
      return 'Running';
    case 'paused':
      return 'Paused';
    case 'cancelled':
      return 'Cancelled';
    case 'done':
      return 'Done';
    case 'failed':
      return 'Stopped by an error';
    case 'out_of_credits':
      return 'Out of credits';
  }
}

/** One plain sentence about where the run stands and what the user can do. */
export function runStatusSentence(progress: RunProgress): string {
  switch (progress.status) {
    case 'running':
      return progress.etaSeconds === null ? 'Looking people up…' : `Looking people up, about ${formatDuration(progress.etaSeconds)} left.`;
    case 'paused':
      return 'Paused. Everything fetched so far is saved; resume whenever you like.';
    case 'cancelled':
      return 'Cancelled. Everything fetched so far is saved; start again to continue where it stopped.';
    case 'done':
      return progress.errors > 0
        ? `Done, but ${plural(progress.errors, 'lookup')} failed. Retry them, or review what was found.`
        : 'Done. Every row was looked up.';
    case 'failed':
      return `The run stopped: ${withoutFullStop(progress.message ?? 'an error the service did not explain')}.`;
    case 'out_of_credits':
      return `The service says the organization is out of credits (402)${progress.message ? `: ${withoutFullStop(progress.message)}` : ''}. Everything fetched so far is kept; add credits, then start again to continue.`;
  }
}

export function runCountsText(progress: RunProgress): string[] {
  return [
    `${formatCount(progress.queriesDone)} of ${plural(progress.queriesTotal, 'lookup')}`,
    `${formatCount(progress.rowsResolved)} of ${plural(progress.rowsTotal, 'row')} resolved`,
    `${plural(progress.calls, 'call')} to the service`,
    `${formatCount(progress.cacheHits)} from the cache`,
    `${plural(progress.errors, 'error')}`,
    ...(progress.status === 'running' ? [formatRate(progress.ratePerSec)] : []),
  ];
}

function withoutFullStop(text: string): string {
  return text.trim().replace(/\.+$/, '');
}
