// The job.* calls: what is under way on a project, and cancelling any of it the one same way.
import type { Handlers } from '../dispatch';
import type { JobBoard } from './job-board';

export function createJobHandlers(jobs: JobBoard): Handlers {
  return {
    'job.list': (input) => jobs.list(input.projectId),
    'job.cancel': (input) => ({ cancelled: 'jobId' in input ? jobs.cancel(input.jobId) : jobs.cancelKind(input.projectId, input.kind) }),
  };
}
