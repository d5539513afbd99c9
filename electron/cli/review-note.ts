import type { ExportChoice } from '../../shared/contract';

/**
 * The note an export of every row gets while rows wait for review: they are written as to_review, with no match, and
 * `--matched-only` writes the matched rows alone. Null when none wait, or when only matched rows are written.
 */
export function toReviewNote(toReview: number, scope: ExportChoice['scope']): string | null {
  if (toReview === 0 || scope !== 'all') return null;
  const rows = toReview === 1 ? '1 row is' : `${toReview.toLocaleString('en-US')} rows are`;
  return `note: ${rows} still to review: written with match_status to_review and no match. Add --matched-only to write the matched rows only.`;
}
