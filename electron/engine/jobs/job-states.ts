import type { JobState, RunStatus } from '../../../shared/contract';

/**
 * A run's or a refresh's status as a job's state: one out of credits waits to be resumed as a paused one does; one
 * failed ends its job (a resume starts another, under the same options).
 */
export function jobStateOf(status: RunStatus): JobState {
  return status === 'out_of_credits' ? 'paused' : status;
}
