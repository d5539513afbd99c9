// Following one kind of job through the one progress event (job.progress), as the engine's tests listen.
import type { DetailedJobKind, Events, JobDetails, JobProgress } from '../../shared/contract';
import { detailOf } from '../../shared/job-detail';

interface Emitter {
  on(event: 'job.progress', listener: (payload: Events['job.progress']) => void): () => void;
}

/** Hears the detail of every event of a job of `kind` (on `projectId`, when given), with the whole event. */
export function onJobDetail<K extends DetailedJobKind>(
  engine: Emitter,
  kind: K,
  listener: (detail: JobDetails[K], job: JobProgress) => void,
  projectId?: number,
): () => void {
  return engine.on('job.progress', (job) => {
    const detail = detailOf(job, kind, projectId);
    if (detail !== null) listener(detail, job);
  });
}
