// Whether the person a row was matched to is still at the sheet's company: the question most people match a CRM
// sheet to answer. Pure: export, review and refresh all read it from here, with the same company comparison the
// confidence model uses (company-names.ts), so "moved" never disagrees with "worked at Globex until ...".
import type { JobChange } from '../../../shared/model';
import type { JobFact } from './candidate-facts';
import { atCompany } from './company-names';

/** The reasons that name nothing: row_status stores them by their place here (rows/job-change-reason.ts). */
export const FIXED_JOB_CHANGE_REASONS = ['the sheet has no company to compare with', 'the record lists no jobs'] as const;

/**
 * no_change: a current job at the sheet's company (also when the person came back to it).
 * moved: the job at the sheet's company ended, and there is a current job elsewhere.
 * left: the job at the sheet's company ended, and there is no current job.
 * unknown: no company in the row, no jobs in the record, the sheet's company is not in the record, or the end of the
 *   job there cannot be read: never a guess.
 * A job counts as at the sheet's company by the same rule the confidence model takes as evidence (atCompany): jobs
 * under the sheet's very name first, else jobs under the closest of the close ones.
 */
export function jobChange(sheetCompany: string | null, jobs: readonly JobFact[]): JobChange {
  const current = jobs.find((j) => j.status === 'current' && j.company) ?? null;
  const now = current ? { currentCompany: current.company, currentTitle: current.title } : { currentCompany: null, currentTitle: null };
  if (!sheetCompany) return { status: 'unknown', date: null, ...now, reason: FIXED_JOB_CHANGE_REASONS[0] };
  if (jobs.length === 0) return { status: 'unknown', date: null, ...now, reason: FIXED_JOB_CHANGE_REASONS[1] };
  const { match: agreement, items: atSheetCompany } = atCompany(sheetCompany, jobs, (j) => j.company);
  if (atSheetCompany.length === 0) return { status: 'unknown', date: null, ...now, reason: `${sheetCompany} is not among the record's jobs` };
  const closeTo = agreement === 'close' ? ` (close to ${sheetCompany})` : '';
  const stillThere = atSheetCompany.find((j) => j.status === 'current');
  if (stillThere) return { status: 'no_change', date: null, ...now, reason: `works at ${stillThere.company} now${closeTo}` };
  // Most recent first: the last time the person was there.
  const last = atSheetCompany[0]!;
  if (last.status === 'unknown' || !last.ended) return { status: 'unknown', date: null, ...now, reason: `the end of the job at ${last.company} cannot be read` };
  if (current) return { status: 'moved', date: last.ended, ...now, reason: `left ${last.company}${closeTo} ${last.ended}, now at ${current.company}` };
  // A job whose end cannot be read may be the current one: then "left" would be a guess.
  const unclear = jobs.find((j) => j.status === 'unknown');
  if (unclear) return { status: 'unknown', date: null, ...now, reason: `left ${last.company} ${last.ended}; whether the job at ${unclear.company ?? 'another company'} goes on cannot be read` };
  return { status: 'left', date: last.ended, ...now, reason: `left ${last.company}${closeTo} ${last.ended}, no current job` };
}
