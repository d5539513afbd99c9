// The window's (or tab's) title during long work, and what is said when it ends: "42% · Matching · Matchdesk", so the
// work can be followed from the taskbar or another tab; and "Matching done" when it ends.
import type { ImportProgress, RefreshProgress, RunProgress } from '../../../shared/contract';
import { plural } from '../ui/format';

export const APP_TITLE = 'Matchdesk';

export interface Work {
  /** What is going on, as the title says it. */
  label: string;
  /** 0-100, or null when how far is not known yet. */
  percent: number | null;
}

export type WorkKey = `run:${number}` | `refresh:${number}` | 'import';

export function runWork(progress: RunProgress): Work | null {
  if (progress.status !== 'running') return null;
  return { label: 'Matching', percent: progress.queriesTotal > 0 ? Math.floor((100 * progress.queriesDone) / progress.queriesTotal) : null };
}

export function refreshWork(progress: RefreshProgress): Work | null {
  if (progress.status !== 'running') return null;
  const writing = progress.rowsWriting;
  const done = writing ? writing.done / Math.max(1, writing.total) : progress.peopleTotal > 0 ? progress.peopleDone / progress.peopleTotal : null;
  return { label: 'Refreshing', percent: done === null ? null : Math.floor(100 * done) };
}

export function importWork(progress: ImportProgress): Work | null {
  return progress.percent >= 100 ? null : { label: 'Importing', percent: Math.floor(progress.percent) };
}

/** The title for the work under way: the one furthest behind when several go on at once. */
export function workTitle(works: readonly Work[]): string {
  if (works.length === 0) return APP_TITLE;
  const shown = [...works].sort((a, b) => (a.percent ?? -1) - (b.percent ?? -1))[0]!;
  return shown.percent === null ? `${shown.label} · ${APP_TITLE}` : `${shown.percent}% · ${shown.label} · ${APP_TITLE}`;
}

/** What a desktop notification says when a run ends: how it ended, in a line and a figure. */
export function runEndNotice(progress: RunProgress): { title: string; body: string } | null {
  switch (progress.status) {
    case 'done':
      return {
        title: progress.errors > 0 ? 'Matching ended with errors' : 'Matching done',
        body: progress.errors > 0 ? `${plural(progress.errors, 'lookup')} failed: retry them on the run screen.` : `${plural(progress.rowsTotal, 'row')} looked up: the review is ready.`,
      };
    case 'out_of_credits':
      return { title: 'Matching stopped', body: 'The service says the account is out of credits. What landed is kept.' };
    case 'failed':
      return { title: 'Matching failed', body: progress.message ?? 'See the run screen.' };
    default:
      return null;
  }
}

export function refreshEndNotice(progress: RefreshProgress): { title: string; body: string } | null {
  switch (progress.status) {
    case 'done':
      return { title: 'Refresh done', body: `${plural(progress.rowsChanged, 'row')} changed: their people moved or left.` };
    case 'out_of_credits':
      return { title: 'Refresh stopped', body: 'The service says the account is out of credits. What landed is kept.' };
    case 'failed':
      return { title: 'Refresh failed', body: progress.message ?? 'See the review screen.' };
    default:
      return null;
  }
}
