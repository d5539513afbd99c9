// A person's state as watching compares it: where they work now, as what, and since when. Read the same way from a
// refresh's fresh facts and from a decision's chosen person, so an unchanged person never looks changed.
import type { PersonSummary } from '../../../shared/model';
import { compareCompanyNames, type CandidateFacts } from '../matching';

export interface PersonState {
  company: string | null;
  title: string | null;
  /** When the current job began, else when the last job ended (as the service wrote it); null when unknown. */
  since: string | null;
}

export type ChangeKind = 'moved' | 'left' | 'title';

export function stateOfFacts(facts: CandidateFacts): PersonState {
  const current = facts.jobs.find((j) => j.status === 'current');
  const ended = facts.jobs.find((j) => j.status === 'ended');
  return { company: facts.summary.company, title: facts.summary.title, since: current ? current.started : (ended?.ended ?? null) };
}

/** A decision's chosen person as it stood: no job dates are kept beside it, so `since` is unknown. */
export function stateOfSummary(summary: PersonSummary): PersonState {
  return { company: summary.company, title: summary.title, since: null };
}

/**
 * What changed from one state to the next: moved (a current job at another company, also after none), left (no
 * current job any more), title (the same company, another title); null when neither. A company spelled another way
 * ("Globex" / "Globex Inc.") is the same company, as the job change of a row counts it.
 */
export function changeBetween(from: PersonState, to: PersonState): ChangeKind | null {
  if (to.company === null) return from.company === null ? null : 'left';
  if (from.company === null) return 'moved';
  if (from.company !== to.company && compareCompanyNames(from.company, to.company) !== 'same') return 'moved';
  return (from.title ?? '') === (to.title ?? '') ? null : 'title';
}
