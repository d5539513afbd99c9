// A change of a person's job in words: what kind, from what to what, and how many of each.
import type { ChangeKind, ImportantChangesFound, PersonChange } from '../../../../shared/contract';
import { formatCount, plural } from '../../ui/format';

export const CHANGE_KIND_LABELS: Record<ChangeKind, string> = { moved: 'Moved', left: 'Left', title: 'New title' };

/** "VP Sales at Hooli", "Hooli", "no current job". */
export function jobWords(job: PersonChange['from']): string {
  if (job.company && job.title) return `${job.title} at ${job.company}`;
  return job.company ?? job.title ?? 'no current job';
}

/** "4 moved, 1 left, 2 changed title" (only the kinds there are), or "no changes". */
export function changeCountWords(counts: Record<ChangeKind, number>): string {
  const parts = [counts.moved > 0 && `${counts.moved} moved`, counts.left > 0 && `${counts.left} left`, counts.title > 0 && `${counts.title} changed title`];
  const said = parts.filter((part): part is string => typeof part === 'string');
  return said.length > 0 ? said.join(', ') : 'no changes';
}

/** What follows the count of changes not seen yet: "changes not seen yet, 2 important" (the important only when there are). */
export function unseenWords(unseen: number, important: number): string {
  return `${unseen === 1 ? 'change' : 'changes'} not seen yet${important > 0 ? `, ${formatCount(important)} important` : ''}`;
}

export function countChanges(changes: readonly PersonChange[]): Record<ChangeKind, number> {
  const counts: Record<ChangeKind, number> = { moved: 0, left: 0, title: 0 };
  for (const change of changes) counts[change.kind]++;
  return counts;
}

const NAMED_IN_NOTICE = 3;

/**
 * What the desktop notification says when a refresh finds people marked important moved or left: the project and how
 * many in the title, the first few by name in the body.
 */
export function importantNotice(found: ImportantChangesFound): { title: string; body: string } {
  const counts = countChanges(found.changes);
  const verb = counts.left === 0 ? 'moved' : counts.moved === 0 ? 'left' : 'moved or left';
  const title = `${found.projectName}: ${plural(found.changes.length, 'important person', 'important people')} ${verb}`;
  const named = found.changes.slice(0, NAMED_IN_NOTICE).map((change) => {
    const who = change.personName ?? `Row ${change.rowNumber}`;
    return change.kind === 'left' ? `${who} left ${change.from.company ?? 'their job'}` : `${who} moved to ${change.to.company ?? 'a new job'}`;
  });
  const more = found.changes.length - named.length;
  return { title, body: `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}. See the project's changes.` };
}

/** A name for the save dialog: the project's, safe on every OS, and the day the changes start. */
export function changesExportName(projectName: string, since: string, format: 'csv' | 'xlsx'): string {
  const base =
    Array.from(projectName, (char) => (char.charCodeAt(0) < 32 ? ' ' : char))
      .join('')
      .replace(/\.(csv|tsv|txt|xlsx)$/i, '')
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || 'matchdesk';
  return `${base} - changes since ${since}.${format}`;
}
