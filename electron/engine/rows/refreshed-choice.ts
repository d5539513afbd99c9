// A decision's chosen person brought up to date from a fresher record of the same person, and what that changed.
// Pure: the refresh, the decisions made after it and a reassessment after a mapping change all go through here, so
// a row never shows an older record than the freshest one on file.
import { compareCompanyNames, jobChange, type CandidateFacts } from '../matching';
import type { ChosenPerson } from './row-status';

/** The row's person as it stood before a refresh: what the export's match_previous_company and the app show. */
export interface RowBefore {
  company: string | null;
  title: string | null;
  jobChange: ChosenPerson['jobChange'] | null;
}

/**
 * The same decision (rank, confidence and its reason stay), with the person's fields and job change from `facts`: the
 * version they are read from when it is stored in `people`, else none (the decision is then stored whole).
 */
export function chosenWithFacts(chosen: ChosenPerson, facts: CandidateFacts, sheetCompany: string | null): ChosenPerson {
  const { personId: _id, ...decision } = chosen;
  const person = facts.personId === undefined ? {} : { personId: facts.personId };
  return { ...decision, summary: facts.summary, jobChange: jobChange(sheetCompany, facts.jobs), ...person };
}

export function rowBefore(chosen: ChosenPerson): RowBefore {
  return { company: chosen.summary.company, title: chosen.summary.title, jobChange: chosen.jobChange ?? null };
}

/**
 * Whether where the person works changed: another current company (or none now, or one now), or another job change
 * against the sheet's company (a new status or end date). A new title at the same company is not a job change.
 * A decision made before job changes were kept has none to compare: its company alone decides.
 */
export function jobChanged(before: RowBefore, after: ChosenPerson): boolean {
  if (!sameCompany(before.company, after.summary.company)) return true;
  if (!before.jobChange || !after.jobChange) return false;
  return before.jobChange.status !== after.jobChange.status || before.jobChange.date !== after.jobChange.date;
}

function sameCompany(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return a === b || compareCompanyNames(a, b) === 'same';
}
