// The job.* calls: what is under way, and cancelling any of it the one same way.
import type { JobKind } from '../../../shared/contract';
import type { Handlers } from '../dispatch';
import type { JobBoard } from './job-board';

/** A kind's own control, for work that outlives its job: a run or a refresh paused in an earlier session has none. */
interface StoredWork {
  cancel(projectId: number): Promise<{ status: string } | null>;
  status(projectId: number): { status: string } | null;
}

/** Cancels the kinds keep themselves, each answered once what was cancelled has stopped. */
export interface OwnCancels {
  stored?: Partial<Record<JobKind, StoredWork>>;
  /** A search, by its id: true when it was going, once the pages in flight have landed. */
  search?: (searchId: number) => Promise<boolean>;
}

export function createJobHandlers(jobs: JobBoard, own: OwnCancels = {}): Handlers {
  /** The project's work of the kind cancelled; stopped by the time this answers, so its status says how it ended. */
  async function cancelStored(projectId: number, kind: JobKind, work: StoredWork): Promise<boolean> {
    // The job's cancel runs the control's own; one paused in an earlier session has no job, and the control ends it.
    const after = jobs.cancelKind(projectId, kind) ? (await jobs.settled(projectId, kind), work.status(projectId)) : await work.cancel(projectId);
    return after?.status === 'cancelled';
  }

  return {
    'job.list': (input) => ('projectId' in input ? jobs.list(input.projectId) : jobs.listOnNoProject(input.kind)),
    'job.cancel': async (input) => {
      if ('jobId' in input) return { cancelled: jobs.cancel(input.jobId) };
      if ('projectId' in input) {
        const work = own.stored?.[input.kind];
        return { cancelled: work ? await cancelStored(input.projectId, input.kind, work) : jobs.cancelKind(input.projectId, input.kind) };
      }
      if ('searchId' in input && own.search) return { cancelled: await own.search(input.searchId) };
      // An import or a search is on no project: its own file or search id says which.
      const going = jobs
        .listOnNoProject(input.kind)
        .filter((job) =>
          job.kind === 'import' ? 'file' in input && job.detail?.file === input.file : job.kind === 'search' && 'searchId' in input && job.detail?.searchId === input.searchId,
        );
      return { cancelled: going.map((job) => jobs.cancel(job.jobId)).some(Boolean) };
    },
  };
}
