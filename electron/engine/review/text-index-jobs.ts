import type { TextIndexProgress } from '../../../shared/contract';
import type { JobBoard, JobHandle } from '../jobs/job-board';

/**
 * A project's text-index fill as a job, told by the fill's own progress (row-text-index.ts): opened at its first
 * word, ended when the index is ready. Cancelled, the fill stops before its next slice and keeps where it got to; the
 * next fill (the review's background one, a text filter's) goes on from there.
 */
export class TextIndexJobs {
  private readonly filling = new Map<number, JobHandle>();
  /** Projects whose fill is being stopped: what it still says is not a new job. */
  private readonly stopping = new Set<number>();

  constructor(
    private readonly jobs: JobBoard,
    /** Stops the project's fill; resolves once it has (row-text-index.ts stopRowTextIndexFill), null when none goes on. */
    private readonly stopFill: (projectId: number) => Promise<void> | null,
  ) {}

  tell(progress: TextIndexProgress): void {
    if (this.stopping.has(progress.projectId)) return;
    let job = this.filling.get(progress.projectId);
    if (!job && progress.phase === 'ready') return;
    if (!job) {
      const projectId = progress.projectId;
      this.filling.set(projectId, (job = this.jobs.open({ kind: 'textIndex', projectId, phase: progress.phase, stop: () => this.stop(projectId) })));
    }
    job.progress(progress.rowsIndexed, progress.rowsTotal, progress.phase);
    if (progress.phase === 'ready') {
      this.filling.delete(progress.projectId);
      job.state('done');
    }
  }

  private async stop(projectId: number): Promise<void> {
    const job = this.filling.get(projectId);
    if (!job) return;
    this.stopping.add(projectId);
    try {
      await this.stopFill(projectId);
    } finally {
      this.stopping.delete(projectId);
      this.filling.delete(projectId);
    }
    job.state('cancelled', 'Stopped. Where the text index got to is kept; it goes on filling the next time the review needs it.');
  }
}
