import type { DetailedJobKind, JobDetails } from '../../shared/contract';
import { detailOf } from '../../shared/job-detail';
import type { CliSession } from './connect';

/**
 * A long job of the engine (a matching run, a search) as the CLI follows it: the kind of its job (whose detail it
 * reads from job.progress), its id within that kind, how it stops.
 */
export interface JobWatch<K extends DetailedJobKind> {
  kind: K;
  idOf(progress: JobDetails[K]): number;
  isFinal(progress: JobDetails[K]): boolean;
  start(): Promise<JobDetails[K]>;
  status(id: number): Promise<JobDetails[K] | null>;
  /** What Ctrl-C does: pause or cancel, so what is in flight lands and is kept. */
  stop(id: number): Promise<unknown>;
}

/**
 * Starts a job and resolves with its final progress, reporting each event on the way. When `stop` aborts, the
 * job is asked to stop and the promise resolves with the state it stopped in.
 */
export async function waitForJob<K extends DetailedJobKind>(
  cli: CliSession,
  watch: JobWatch<K>,
  onProgress: (progress: JobDetails[K]) => void,
  stop: AbortSignal,
): Promise<JobDetails[K]> {
  let id: number | null = null;
  let settle: (p: JobDetails[K]) => void = () => {};
  const finished = new Promise<JobDetails[K]>((resolve) => (settle = resolve));
  const unsubscribe = cli.engine.on('job.progress', (job) => {
    const p = detailOf(job, watch.kind);
    if (p === null || (id !== null && watch.idOf(p) !== id)) return;
    onProgress(p);
    if (id !== null && watch.isFinal(p)) settle(p);
  });
  const onStop = () => {
    if (id !== null) void watch.stop(id).catch(() => undefined);
  };
  stop.addEventListener('abort', onStop, { once: true });
  try {
    const first = await watch.start();
    id = watch.idOf(first);
    if (watch.isFinal(first)) return first;
    if (stop.aborted) onStop();
    // Events sent before the id was known were not matched: poll as a backstop.
    const poll = setInterval(async () => {
      const now = await watch.status(id!).catch(() => null);
      if (now && watch.isFinal(now)) settle(now);
    }, 1_000);
    try {
      return await finished;
    } finally {
      clearInterval(poll);
    }
  } finally {
    stop.removeEventListener('abort', onStop);
    unsubscribe();
  }
}
