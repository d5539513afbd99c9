import type { RefreshProgress, RefreshStatus } from '../../../../shared/contract';
import { formatCount, formatDuration, percent, plural } from '../../ui/format';

export const RESUMABLE_REFRESH: readonly RefreshStatus[] = ['paused', 'failed', 'out_of_credits'];

export function refreshStatusLabel(status: RefreshStatus): string {
  switch (status) {
    case 'running':
      return 'Refreshing';
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

/** The people asked, then, once the rows are brought up to date (after everyone is asked, or before it stops), how far that is. */
export function refreshPercent(p: RefreshProgress): number {
  if (p.status === 'done') return 100;
  if (p.rowsWriting) return percent(p.rowsWriting.done, p.rowsWriting.total);
  return percent(p.peopleDone, p.peopleTotal);
}

/** What the bar measures: the refresh's second step has its own label, so its bar starting again is not a step back. */
export function refreshStepLabel(p: RefreshProgress): string {
  return p.status === 'running' && p.rowsWriting ? 'Bringing the rows up to date' : refreshStatusLabel(p.status);
}

/** One plain sentence about where the refresh stands and what the user can do. */
export function refreshSentence(p: RefreshProgress): string {
  switch (p.status) {
    case 'running':
      if (p.rowsWriting) return `Bringing the rows of the ${plural(p.found, 'person', 'people')} found up to date, in sheet order…`;
      return p.etaSeconds === null ? 'Asking the service again for the chosen people…' : `Asking the service again, about ${formatDuration(p.etaSeconds)} left.`;
    case 'paused':
      return 'Paused. Everyone asked so far is saved; resume to ask the rest (nobody is asked twice).';
    case 'cancelled':
      return 'Cancelled. Everyone asked so far is saved, and their rows are up to date.';
    case 'done':
      return `Done. ${plural(p.rowsUpdated, 'matched row')} brought up to date; ${plural(p.rowsChanged, 'row')} with a job change since.`;
    case 'failed':
      // The engine's message may say it stopped already ("The refresh stopped: …"): said once.
      return `The refresh stopped: ${(p.message ?? 'an error the service did not explain').replace(/^The refresh stopped: /, '').replace(/\.+$/, '')}. Everything that arrived is kept; resume to go on.`;
    case 'out_of_credits':
      return 'The service says the organization is out of credits (402). Everything that arrived is kept; add credits, then resume.';
  }
}

export function refreshCounts(p: RefreshProgress): string[] {
  return [
    `${formatCount(p.peopleDone)} of ${plural(p.peopleTotal, 'person', 'people')} asked`,
    `${plural(p.calls, 'call')} to the service`,
    `${plural(p.rowsChanged, 'row')} changed`,
    ...(p.notFound > 0 ? [`${formatCount(p.notFound)} no longer found (${plural(p.rowsNotFound, 'row')} keep what they had)`] : []),
    ...(p.failed > 0 ? [`${formatCount(p.failed)} could not be asked`] : []),
    ...(p.rowsWithoutProfile > 0 ? [`${plural(p.rowsWithoutProfile, 'row')} without a profile to ask by`] : []),
  ];
}
