import type { TextIndexProgress } from '../../../shared/contract';
import type { JobBoard, JobHandle } from '../jobs/job-board';

/**
 * How long a user's cancel holds the review's background fill back: the pages the same screen asks for next would
 * otherwise start it again at once, undoing the cancel.
 */
export const BACKGROUND_HELD_MS = 60_000;

/**
 * A project's text-index fill as a job, told by the fill's own progress (row-text-index.ts): opened at its first
 * word, ended when the index is ready. Cancelled, the fill stops before its next slice and keeps where it got to; the
 * next fill (a text filter's at once, the review's background one after BACKGROUND_HELD_MS) goes on from there.
 */
export class TextIndexJobs {
  private readonly filling = new Map<number, JobHandle<'textIndex'>>();
  /** Projects whose fill is being stopped: what it still says is not a new job. */
  private readonly stopping = new Set<number>();
  /** When the user last cancelled each project's fill (the engine's clock). */
  private readonly cancelledAt = new Map<number, number>();

  constructor(
    private readonly jobs: JobBoard,
    /** Stops the project's fill; resolves once it has (row-text-index.ts stopRowTextIndexFill), null when none goes on. */
    private readonly stopFill: (projectId: number) => Promise<void> | null,
    private readonly now: () => number,
  ) {}

  /** Whether the review's background fill may start on the project: not until BACKGROUND_HELD_MS after a user's cancel. */
  mayFillInBackground(projectId: number): boolean {
    const at = this.cancelledAt.get(projectId);
    if (at === undefined) return true;
    if (this.now() - at < BACKGROUND_HELD_MS) return false;
    this.cancelledAt.delete(projectId);
    return true;
  }

  tell(progress: TextIndexProgress): void {
    if (this.stopping.has(progress.projectId)) return;
    let job = this.filling.get(progress.projectId);
    if (!job && progress.phase === 'ready') return;
    if (!job) {
      const projectId = progress.projectId;
      this.filling.set(projectId, (job = this.jobs.open({ kind: 'textIndex', projectId, phase: progress.phase, stop: () => this.stop(projectId) })));
    }
    job.progress(progress.rowsIndexed, progress.rowsTotal, progress.phase, progress);
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
      this.cancelledAt.set(projectId, this.now());
    }
    job.state('cancelled', 'Stopped. Where the text index got to is kept; it goes on filling at the next text filter, or in the background a minute from now.');
  }
}
