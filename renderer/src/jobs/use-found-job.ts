import { useCallback, useEffect, useRef, useState } from 'react';
import type { DetailedJobKind, JobDetails, JobProgress } from '../../../shared/contract';
import { detailOf } from '../../../shared/job-detail';
import { api } from '../api';

/** While following a job this screen did not start, how often it asks whether it has ended. */
const POLL_MS = 1_000;

export interface FoundGoingOn<D> {
  /** What the job said of itself as the engine had it; null when none goes on (or once it has ended). */
  word: D | null;
  /** The user cancelled it from this screen: `onEnded` is told so. */
  cancelledHere: () => void;
}

/** The project's first job of one of `kinds` under way that has said how far it is (job.list), or null. */
async function listed<K extends DetailedJobKind>(kinds: readonly K[], projectId: number): Promise<{ jobId: number; detail: JobDetails[K] } | null | undefined> {
  const result = await api.call('job.list', { projectId });
  if (!result.ok) return undefined;
  for (const job of result.value as JobProgress[]) {
    const detail = detailOf(job, kinds, projectId);
    if (detail !== null) return { jobId: job.jobId, detail };
  }
  return null;
}

/**
 * A job of one of `kinds` found going on in the project when the screen opened: started before the user went
 * elsewhere, or in another window. What it said, asked again each second until the job has ended; then `onEnded`
 * (read the rows again, say so, go on), told whether it was cancelled from this screen. The job's answer goes to the
 * screen that started it.
 */
export function useFoundGoingOn<K extends DetailedJobKind>(kinds: readonly K[], projectId: number, onEnded: (cancelledHere: boolean) => void): FoundGoingOn<JobDetails[K]> {
  const [found, setFound] = useState<{ jobId: number; detail: JobDetails[K] } | null>(null);
  const endedRef = useRef(onEnded);
  useEffect(() => {
    endedRef.current = onEnded;
  });
  const cancelledRef = useRef(false);
  const cancelledHere = useCallback(() => {
    cancelledRef.current = true;
  }, []);
  const key = kinds.join(' ');

  useEffect(() => {
    let live = true;
    void listed(key.split(' ') as K[], projectId).then((job) => {
      if (live && job) setFound(job);
    });
    return () => {
      live = false;
      setFound(null);
    };
  }, [key, projectId]);

  const jobId = found?.jobId ?? null;
  useEffect(() => {
    if (jobId === null) return;
    const timer = setInterval(() => {
      void api.call('job.list', { projectId }).then((result) => {
        if (!result.ok || result.value.some((job) => job.jobId === jobId)) return;
        setFound(null);
        endedRef.current(cancelledRef.current);
        cancelledRef.current = false;
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [jobId, projectId]);

  return { word: found?.detail ?? null, cancelledHere };
}
