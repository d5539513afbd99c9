import { useEffect, useState } from 'react';
import type { DetailedJobKind, JobDetails } from '../../../shared/contract';
import { detailOf } from '../../../shared/job-detail';
import { api } from '../api';

/**
 * What the latest job of one of `kinds` on project `projectId` said of itself (its detail in job.progress) while
 * `listening`: null before the first word, and again once listening stops (an export or a save of the mapping ends),
 * so an earlier job's end is never shown as the next one's start.
 */
export function useJobDetail<K extends DetailedJobKind>(kinds: readonly K[], projectId: number, listening = true): JobDetails[K] | null {
  const [latest, setLatest] = useState<JobDetails[K] | null>(null);
  // The kinds as one value, so a list written inline does not listen again at every render.
  const key = kinds.join(' ');
  useEffect(() => {
    if (!listening) return;
    const wanted = key.split(' ') as K[];
    const off = api.on('job.progress', (job) => {
      const detail = detailOf(job, wanted, projectId);
      if (detail !== null) setLatest(detail);
    });
    return () => {
      off();
      setLatest(null);
    };
  }, [key, projectId, listening]);
  return latest;
}
