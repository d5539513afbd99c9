// The builder's words for match types, filter types and boxes, so a row reads as a sentence:
// "Job title  must  match loosely  Engineer, Manager".
import type { FieldInfo, MatchType } from '../../../../shared/fields';
import type { FilterType } from './filter-builder-state';

export function matchLabel(match: MatchType, info: FieldInfo | undefined): string {
  if (match === 'exists') return 'be filled in';
  if (info?.type === 'date') return 'be between';
  if (info?.type === 'enum') return 'be one of';
  return match === 'fuzzy' ? 'match loosely' : 'match exactly';
}

export function matchHelp(match: MatchType, info: FieldInfo | undefined): string {
  if (match === 'exists') return 'Only asks whether the field has a value; takes no values.';
  if (info?.type === 'date') return 'Give a first day, a last day, or both (both count).';
  if (match === 'fuzzy') return 'Every word of a value must appear; small typos are forgiven.';
  if (info?.type === 'slug') return 'The slug as in the profile link; company page links are turned into slugs when the search runs.';
  return 'The whole value, as written (case does not matter).';
}

export const TYPE_LABELS: Record<FilterType, string> = { must: 'must', must_not: 'must not' };

/** Boxes are lettered so they are not confused with the filters' numbers. */
export function boxLetter(index: number): string {
  return String.fromCharCode(65 + (index % 26)) + (index >= 26 ? String(Math.floor(index / 26)) : '');
}
