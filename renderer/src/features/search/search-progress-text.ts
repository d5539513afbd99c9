// Where a criteria search stands, in the user's words; the progress view and the saved-searches list both read it.
import type { SearchProgress, SearchStatus } from '../../../../shared/contract';
import { formatCount, percent, plural } from '../../ui/format';
import type { ProgressTone } from '../../ui/progress-panel';

export interface SearchControls {
  cancel: boolean;
  resume: boolean;
  /** Ask the service anew although the results are stored. */
  refresh: boolean;
}

export function searchControls(status: SearchStatus | null): SearchControls {
  switch (status) {
    case 'running':
      return { cancel: true, resume: false, refresh: false };
    case 'cancelled':
    case 'failed':
    case 'out_of_credits':
      return { cancel: false, resume: true, refresh: false };
    case 'done':
      return { cancel: false, resume: false, refresh: true };
    default:
      return { cancel: false, resume: false, refresh: false };
  }
}

export function searchStatusLabel(status: SearchStatus): string {
  switch (status) {
    case 'running':
      return 'Searching';
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

export function searchStatusTone(status: SearchStatus): ProgressTone {
  switch (status) {
    case 'running':
      return 'accent';
    case 'done':
      return 'success';
    case 'failed':
    case 'out_of_credits':
      return 'danger';
    case 'cancelled':
      return 'muted';
  }
}

/**
 * How far along: the people stored against the service's own count when it sent one, else the parts of a split
 * search paged to their end. Null while neither says anything (a single part, no count): the bar is then indefinite.
 */
export function searchPercent(progress: SearchProgress): number | null {
  if (progress.status === 'done') return 100;
  // The service's count can be reached (or passed, summed over parts) before the last page says it is the last.
  if (progress.serviceCount !== null && progress.serviceCount > 0) return Math.min(99, percent(progress.people, progress.serviceCount));
  if (progress.partsTotal > 1) return Math.min(99, percent(progress.partsDone, progress.partsTotal));
  return null;
}

function withoutFullStop(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

/** One plain sentence about where the search stands and what the user can do. */
export function searchStatusSentence(progress: SearchProgress): string {
  switch (progress.status) {
    case 'running':
      return progress.partsTotal > 1
        ? `Searching: the value list was split into ${formatCount(progress.partsTotal)} searches; ${formatCount(progress.partsDone)} paged to their end.`
        : 'Searching, a page at a time. Each page is saved the moment it lands.';
    case 'done':
      if (progress.offline) return 'Stored results, shown offline: nothing was sent.';
      if (progress.fromCache) return 'Answered from the stored results of the same search: no call was made.';
      return `Done. ${plural(progress.people, 'person', 'people')} found.`;
    case 'cancelled':
      return 'Cancelled. The pages found so far are saved; resume to go on where it stopped.';
    case 'failed':
      return `The search stopped: ${withoutFullStop(progress.message ?? 'an error the service did not explain')}. The pages found so far are saved; resume to go on.`;
    case 'out_of_credits':
      return `The service says the organization is out of credits (402)${progress.message ? `: ${withoutFullStop(progress.message)}` : ''}. Everything found so far is kept; add credits, then resume.`;
  }
}

export function searchCountsText(progress: SearchProgress): string[] {
  return [
    plural(progress.people, 'person', 'people'),
    plural(progress.pages, 'page'),
    `${plural(progress.calls, 'call')} to the service`,
    ...(progress.serviceCount !== null ? [`the service counts ${formatCount(progress.serviceCount)}${progress.partsTotal > 1 ? ' at most' : ''}`] : []),
    ...(progress.partsTotal > 1 ? [`${formatCount(progress.partsDone)} of ${formatCount(progress.partsTotal)} parts done`] : []),
  ];
}
