import { ROW_STATES, type RowState } from '../../../../shared/model';

export const STATE_LABELS: Record<RowState, string> = {
  to_review: 'To review',
  auto: 'Auto',
  accepted: 'Accepted',
  rejected: 'Rejected',
  skipped: 'Skipped',
  no_candidates: 'No candidates',
  error: 'Error',
  offline: 'Offline',
  pending: 'Pending',
  no_query: 'No query',
};

const CHIP_LABELS: Partial<Record<RowState, string>> = { error: 'Errors' };

/** Always shown as filters, even at zero: the states a review is about. */
export const MAIN_STATES: readonly RowState[] = ['to_review', 'auto', 'accepted', 'rejected', 'skipped', 'no_candidates', 'error'];
/** Shown only when some rows are in them (or the filter is on), so a normal review is not cluttered. */
export const OCCASIONAL_STATES: readonly RowState[] = ['offline', 'pending', 'no_query'];

export function chipLabel(state: RowState): string {
  return CHIP_LABELS[state] ?? STATE_LABELS[state];
}

export function visibleChipStates(counts: Partial<Record<RowState, number>> | null, active: readonly RowState[] | null): RowState[] {
  return [...MAIN_STATES, ...OCCASIONAL_STATES.filter((state) => (counts?.[state] ?? 0) > 0 || (active?.includes(state) ?? false))];
}

export function totalOf(counts: Partial<Record<RowState, number>> | null): number {
  if (!counts) return 0;
  return ROW_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
}

/** What the panel says when a row has no candidates to choose from. */
export function noCandidatesText(state: RowState, error: string | null): string {
  switch (state) {
    case 'no_candidates':
      return 'The service found nobody for this row with any of the chosen ways to look people up.';
    case 'offline':
      return 'Not looked up: the run was offline and no cached answer existed. Run again online to look it up.';
    case 'pending':
      return 'Not looked up yet. Start a run to look it up.';
    case 'no_query':
      return 'Nothing usable to look up in this row (no e-mail, profile link, or name with the chosen strategies).';
    case 'error':
      return `The lookup failed${error ? `: ${error}` : '.'} Retry failed lookups on the run screen.`;
    default:
      return 'No candidates.';
  }
}
