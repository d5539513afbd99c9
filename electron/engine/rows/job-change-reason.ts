// Why a decision's job change is what it is, as row_status.job_change_reason stores it (rows/row-status.ts).
import { FIXED_JOB_CHANGE_REASONS } from '../matching/job-change';

/** What stands for a reason: its span in the decision's reason ("11:24", start and length), or a fixed text ("#0"). */
const STAND_IN = /^(?:(\d+):(\d+)|#(\d))$/;

/**
 * Why a decision's job change is what it is, as row_status stores it: a third of a settled row's bytes were this text
 * again, most of it inside the decision's own reason ("same name, works at Acme now") or one of two fixed texts.
 * Stored as its span in `reason` (the decision's: the row's own, unless the decision has one of its own) or its place
 * in FIXED_JOB_CHANGE_REASONS, as STAND_IN text (the column is TEXT); otherwise as itself. A job change's reason
 * always holds a space (matching/job-change.ts), so no reason is ever taken for a stand-in.
 */
export function storedJobChangeReason(jobReason: string | null, reason: string | null | undefined): string | null {
  if (jobReason === null || jobReason === '') return jobReason;
  const fixed = (FIXED_JOB_CHANGE_REASONS as readonly string[]).indexOf(jobReason);
  if (fixed !== -1) return `#${fixed}`;
  const start = reason ? reason.indexOf(jobReason) : -1;
  return start === -1 ? jobReason : `${start}:${jobReason.length}`;
}

/** A decision's job change reason as storedJobChangeReason stored it, `reason` being the decision's; '' when none was kept. */
export function jobChangeReasonOf(stored: string | null, reason: string | null): string {
  const standIn = stored === null ? null : STAND_IN.exec(stored);
  if (!standIn) return stored ?? '';
  if (standIn[3] !== undefined) return FIXED_JOB_CHANGE_REASONS[Number(standIn[3])] ?? '';
  const start = Number(standIn[1]);
  return (reason ?? '').slice(start, start + Number(standIn[2]));
}
