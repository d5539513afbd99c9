import { useEffect } from 'react';
import type { ChangesInbox } from '../../../../shared/contract';
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
  const { reload } = inbox;
  useEffect(() => {
    if (!enabled) return;
    const onChanged = (event: Event) => {
      if ((event as CustomEvent<number>).detail === projectId) reload();
    };
    window.addEventListener(INBOX_CHANGED, onChanged);
    const off = api.on('refresh.progress', (progress) => {
      if (progress.projectId === projectId && progress.status !== 'running') reload();
    });
    return () => {
      window.removeEventListener(INBOX_CHANGED, onChanged);
      off();
    };
  }, [enabled, projectId, reload]);
  return inbox;
}
