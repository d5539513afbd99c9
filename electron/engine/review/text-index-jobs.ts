import type { TextIndexProgress } from '../../../shared/contract';
import type { JobBoard, JobHandle } from '../jobs/job-board';

/**
 * A project's text-index fill as a job, told by the fill's own progress (row-text-index.ts): opened at its first
 * word, ended when the index is ready. Not cancellable: where it got to is kept and it resumes; a stop gains nothing.
 */
export class TextIndexJobs {
  private readonly filling = new Map<number, JobHandle<'textIndex'>>();

  constructor(private readonly jobs: JobBoard) {}

  tell(progress: TextIndexProgress): void {
    let job = this.filling.get(progress.projectId);
    if (!job && progress.phase === 'ready') return;
    if (!job) this.filling.set(progress.projectId, (job = this.jobs.open({ kind: 'textIndex', projectId: progress.projectId, cancellable: false, phase: progress.phase })));
    job.progress(progress.rowsIndexed, progress.rowsTotal, progress.phase, progress);
    if (progress.phase === 'ready') {
      this.filling.delete(progress.projectId);
      job.state('done');
    }
  }
}
