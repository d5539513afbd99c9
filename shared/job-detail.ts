// Reading the one progress event (job.progress) per kind: what the renderer, the CLI and the bench follow of a job.
import type { DetailedJobKind, JobDetails, JobKind, JobProgress, JobState } from './contract';

/** The states a job ends in: after one, no more is heard of it. */
export const ENDED_JOB_STATES: readonly JobState[] = ['done', 'failed', 'cancelled'];

export function jobEnded(job: Pick<JobProgress, 'state'>): boolean {
  return ENDED_JOB_STATES.includes(job.state);
}

/** Whether the job is of one of `kinds` (and on project `projectId`, when given). */
export function isJobOf(job: JobProgress, kinds: JobKind | readonly JobKind[], projectId?: number | null): boolean {
  const of = typeof kinds === 'string' ? job.kind === kinds : kinds.includes(job.kind);
  return of && (projectId === undefined || job.projectId === projectId);
}

/** What a job of one of `kinds` (on `projectId`, when given) says of itself; null for another job, or before it said. */
export function detailOf<K extends DetailedJobKind>(job: JobProgress, kinds: K | readonly K[], projectId?: number | null): JobDetails[K] | null {
  return isJobOf(job, kinds, projectId) ? (job.detail as JobDetails[K] | null) : null;
}
