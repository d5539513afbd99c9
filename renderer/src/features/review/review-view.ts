// What the review shows (filters and order), kept per project in the window's storage: it comes back after going
// elsewhere and after a reload. What is stored is read back through zod; anything else is the default view.
import { z } from 'zod';
import { JOB_CHANGES, ROW_STATES, type JobChangeStatus, type RowState } from '../../../../shared/model';
import { JOB_CHANGE_LABELS } from './job-change-labels';
import type { ReviewFilter, ReviewOrder } from './review-list';
import { chipLabel } from './row-states';

export interface ReviewView {
  states: RowState[] | null;
  text: string;
  order: ReviewOrder;
  jobChanges: JobChangeStatus[] | null;
  changedOnly: boolean;
  /** "Rows like this": one reason pattern's rows waiting for review (review.groups), with its words; the other filters give way to it. */
  group: ReviewGroupPick | null;
}

/** A group of rows picked by its reason pattern, with the words it was shown with. */
export interface ReviewGroupPick {
  pattern: string;
  words: string;
}

export const DEFAULT_VIEW: ReviewView = { states: null, text: '', order: 'file', jobChanges: null, changedOnly: false, group: null };

const storedView = z.object({
  states: z.array(z.enum(ROW_STATES)).min(1).nullable().catch(null),
  text: z.string().max(500).catch(''),
  order: z.enum(['file', 'confidence_desc', 'confidence_asc']).catch('file'),
  jobChanges: z.array(z.enum(JOB_CHANGES)).min(1).nullable().catch(null),
  changedOnly: z.boolean().catch(false),
  group: z.object({ pattern: z.string().min(1).max(200), words: z.string().min(1).max(500) }).nullable().catch(null),
});

export function viewStorageKey(projectId: number): string {
  return `matchdesk.review.${projectId}`;
}

/** The stored view, or the default for anything missing, unreadable or of another shape. */
export function parseView(stored: string | null): ReviewView {
  if (!stored) return DEFAULT_VIEW;
  try {
    const parsed = storedView.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : DEFAULT_VIEW;
  } catch {
    return DEFAULT_VIEW;
  }
}

export function isFiltered(view: ReviewView): boolean {
  return view.states !== null || view.jobChanges !== null || view.changedOnly || view.text.trim() !== '' || view.group !== null;
}

/**
 * The active filters in words, joined by "and" as the list applies them: "To review and Moved and “anna”"; a group of
 * rows like this alone, as the list then shows it alone.
 */
export function viewFilterWords(view: ReviewView): string[] {
  const words: string[] = [];
  if (view.group) return [view.group.words];
  if (view.states) words.push(view.states.map(chipLabel).join(' or '));
  if (view.jobChanges) words.push(view.jobChanges.map((j) => JOB_CHANGE_LABELS[j]).join(' or '));
  if (view.changedOnly) words.push('changed at last refresh');
  if (view.text.trim()) words.push(`“${view.text.trim()}”`);
  return words;
}

/**
 * The list's filter for a view (its text once typing settled): a group of rows like this alone, in sheet order, as the
 * engine lists it; otherwise every filter on.
 */
export function reviewFilterOf(view: ReviewView): ReviewFilter {
  if (view.group) return { states: null, text: '', order: 'file', jobChanges: null, changedAtLastRefresh: false, pattern: view.group.pattern };
  return { states: view.states, text: view.text, order: view.order, jobChanges: view.jobChanges, changedAtLastRefresh: view.changedOnly, pattern: null };
}
