import type { RunProgress, RunStatus } from '../../../../shared/contract';
import { formatCount, formatDuration, formatRate, plural } from '../../ui/format';
import type { ProgressTone } from '../../ui/progress-panel';

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

/**
 * How a run stands as the screen shows it. A run that finished with failed lookups is no plain "done": partly
 * done when some lookups were answered, failed when none was.
 */
export type RunOutcome = RunStatus | 'partly_done' | 'all_failed';

export function runOutcome(progress: RunProgress): RunOutcome {
  if (progress.status !== 'done' || progress.errors === 0) return progress.status;
  return progress.errors >= progress.queriesDone ? 'all_failed' : 'partly_done';
}

export function runTone(outcome: RunOutcome): ProgressTone {
  switch (outcome) {
    case 'running':
      return 'accent';
    case 'done':
      return 'success';
    case 'partly_done':
      return 'warning';
    case 'all_failed':
    case 'failed':
    case 'out_of_credits':
      return 'danger';
    default:
      return 'muted';
  }
}

export function runStatusLabel(status: RunOutcome): string {
  switch (status) {
    case 'running':
      return 'Running';
    case 'paused':
      return 'Paused';
    case 'cancelled':
      return 'Cancelled';
    case 'done':
      return 'Done';
    case 'partly_done':
      return 'Partly done: some lookups failed';
    case 'all_failed':
      return 'Failed: no lookup was answered';
    case 'failed':
      return 'Stopped by an error';
    case 'out_of_credits':
      return 'Out of credits';
  }
}

/** One plain sentence about where the run stands and what the user can do; `cause` is the commonest failure's reason. */
export function runStatusSentence(progress: RunProgress, cause: string | null = null): string {
  const because = cause ? `: ${withoutFullStop(cause)}.` : '.';
  switch (runOutcome(progress)) {
    case 'running':
      return progress.etaSeconds === null ? 'Looking people up…' : `Looking people up, about ${formatDuration(progress.etaSeconds)} left.`;
    case 'paused':
      return 'Paused. Everything fetched so far is saved; resume whenever you like.';
    case 'cancelled':
      return 'Cancelled. Everything fetched so far is saved; start again to continue where it stopped.';
    case 'done':
      return 'Done. Every row was looked up.';
    case 'partly_done':
      return `${formatCount(progress.errors)} of ${plural(progress.queriesDone, 'lookup')} failed${because} Their rows are marked as errors: retry them, or review what was found.`;
    case 'all_failed':
      // The service's reason says what to check; without one, the connection is the likely culprit.
      return cause ? `Every lookup failed, so no row was matched${because}` : 'Every lookup failed, so no row was matched. Check the connection, then retry.';
    case 'failed':
      // The engine's message may say it stopped already ("The run stopped: the disk … is full"): said once.
      return `The run stopped: ${withoutFullStop((progress.message ?? 'an error the service did not explain').replace(/^The run stopped: /, ''))}. Everything fetched so far is kept.`;
    case 'out_of_credits':
      return `The service says the organization is out of credits (402)${progress.message ? `: ${withoutFullStop(progress.message)}` : ''}. Everything fetched so far is kept; add credits, then start again to continue.`;
  }
}

/** The run's counts, rows first: they are what the bar measures (shared/progress.ts). */
export function runCountsText(progress: RunProgress): string[] {
  return [
    `${formatCount(progress.rowsResolved)} of ${plural(progress.rowsTotal, 'row')} resolved`,
    `${formatCount(progress.queriesDone)} of ${plural(progress.queriesTotal, 'lookup')}`,
    `${plural(progress.calls, 'call')} to the service`,
    `${formatCount(progress.cacheHits)} from the cache`,
    `${plural(progress.errors, 'error')}`,
    ...(progress.status === 'running' ? [formatRate(progress.ratePerSec)] : []),
  ];
}

function withoutFullStop(text: string): string {
  return text.trim().replace(/\.+$/, '');
}
