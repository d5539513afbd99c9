import { useEffect } from 'react';
import type { ChangesInbox, InboxCount } from '../../../../shared/contract';
import { detailOf } from '../../../../shared/job-detail';
import { api } from '../../api';
import { useEngineData, type EngineData } from '../../ui/use-engine-data';

/** Said on the window when a project's inbox changed here (marked seen), so every count of it on show reads it again. */
const INBOX_CHANGED = 'matchdesk:inbox-changed';

export function inboxChanged(projectId: number): void {
  window.dispatchEvent(new CustomEvent(INBOX_CHANGED, { detail: projectId }));
}

/**
 * The project's changes not seen yet (null key: not asked, a project never refreshed has none), read again when a
 * refresh of it ends and when it is marked seen.
 */
export function useInbox(projectId: number, enabled: boolean): EngineData<ChangesInbox> {
  const inbox = useEngineData(enabled ? `inbox:${projectId}` : null, () => api.callOrThrow('watch.inbox', { projectId }));
  useReadAgain(projectId, enabled, inbox.reload);
  return inbox;
}

/** How many changes of the project are not seen yet, without them: for a count on show (the projects list, the header). */
export function useInboxCount(projectId: number, enabled: boolean): EngineData<InboxCount> {
  const count = useEngineData(enabled ? `inbox-count:${projectId}` : null, () => api.callOrThrow('watch.inboxCount', { projectId }));
  useReadAgain(projectId, enabled, count.reload);
  return count;
}

/** Reads the project's inbox again when a refresh of it ends, and when it is marked seen here. */
function useReadAgain(projectId: number, enabled: boolean, reload: () => void): void {
  useEffect(() => {
    if (!enabled) return;
    const onChanged = (event: Event) => {
      if ((event as CustomEvent<number>).detail === projectId) reload();
    };
    window.addEventListener(INBOX_CHANGED, onChanged);
    const off = api.on('job.progress', (job) => {
      const progress = detailOf(job, 'refresh', projectId);
      if (progress !== null && progress.status !== 'running') reload();
    });
    return () => {
      window.removeEventListener(INBOX_CHANGED, onChanged);
      off();
    };
  }, [enabled, projectId, reload]);
}
