// How far long work is, as both hosts show it (the window's progress bars, the command line's bar and lines).
import type { BulkDecision, DecisionsProgress, ExportProgress, PlanCause, PlanProgress, RunProgress } from './contract';

/** Whole percent, never 100 before the work is really done. */
export function percent(done: number, total: number): number {
  if (total <= 0) return 0;
  const value = Math.floor((done / total) * 100);
  return Math.min(done >= total ? 100 : 99, Math.max(0, value));
}

/**
 * How far a matching run is. Until it is done: the rows settled, of the project's rows. Rows only ever settle, so the
 * bar never steps back. Lookups would: a row whose answer found nobody moves on to its next query, and the run can
 * count that query only once it gets there, so a share of lookups fell from 98% to 93% when the second round began.
 * A done run is full, unless lookups failed: then it shows those answered, so it never looks like a clean finish.
 */
export function runPercent(progress: RunProgress): number {
  if (progress.status !== 'done') return percent(progress.rowsResolved, progress.rowsTotal);
  if (progress.errors === 0) return 100;
  return percent(Math.max(0, progress.queriesDone - progress.errors), progress.queriesTotal);
}

/**
 * A long step's progress in two parts: words that change when the step does ("Writing the rows…"), and the percent
 * that changes a few times a second, when it is known. The window announces the words and leaves the percent to be
 * read on demand (ui/progress-line.tsx); the command line writes both on one line.
 */
export interface ProgressParts {
  words: string;
  percent: number | null;
}

/** What a long step says once the user cancelled it, until it has undone what it began. */
export const CANCELLING: ProgressParts = { words: 'Cancelling…', percent: null };

export function progressText({ words, percent: done }: ProgressParts): string {
  return done === null ? words : `${words} ${done}%`;
}

/**
 * What an export says while it writes: which file, and how far through the project's rows it is
 * (engine/runs/export-project.ts tells a few times a second). `progress` is null until the first word comes.
 */
export function exportProgressParts(progress: ExportProgress | null): ProgressParts {
  if (!progress) return { words: 'Exporting…', percent: null };
  const what = progress.part === 'matches' ? 'the rows' : 'the candidates';
  if (progress.rowsDone >= progress.rowsTotal) return { words: `Saving ${what}…`, percent: null };
  return { words: `Writing ${what}…`, percent: percent(progress.rowsDone, progress.rowsTotal) };
}

export function exportProgressText(progress: ExportProgress | null): string {
  return progressText(exportProgressParts(progress));
}

/** What a plan is for, in words: a mapping's save says it plainly, a run's or a read's names what it prepares. */
const PLAN_WORDS: Record<PlanCause, string> = {
  mapping: 'Planning the queries…',
  run: 'Planning the queries for a run…',
  read: 'Planning the queries to show the rows…',
};

/**
 * What a plan says while the rows' queries are planned (a while for a large sheet); `progress` is null until the first
 * word comes. `saysWhy` false: the screen it shows on already says what the plan is for (the run's cost).
 */
export function planProgressParts(progress: PlanProgress | null, saysWhy = true): ProgressParts {
  const words = PLAN_WORDS[saysWhy ? (progress?.startedBy ?? 'mapping') : 'mapping'];
  return { words, percent: progress ? percent(progress.rowsPlanned, progress.rowsTotal) : null };
}

export function planProgressText(progress: PlanProgress | null): string {
  return progressText(planProgressParts(progress));
}

const BULK_WORDS: Record<BulkDecision, string> = { accept: 'Accepting rows…', undo: 'Undoing the last action…', learn: 'Learning from your decisions…' };

/**
 * What a decision over many rows says while it writes them: "accept all at or above", an undo of such an action,
 * each long for many rows. `progress` is null until the first word comes.
 */
export function decisionsProgressParts(action: BulkDecision, progress: DecisionsProgress | null): ProgressParts {
  return { words: BULK_WORDS[action], percent: progress ? percent(progress.rowsDone, progress.rowsTotal) : null };
}
