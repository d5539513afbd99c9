// The refresh.* calls: asking the service again about the people a project matched.
import type { Handlers } from '../dispatch';
import type { ProjectRecord } from '../rows/project-record';
import type { ProjectPreparation } from '../runs/project-preparation';
import type { ReadingThread } from '../runs/reading-thread';
import type { RefreshControl } from './refresh-control';

export interface RefreshHandlersDeps {
  refreshes: RefreshControl;
  prep: ProjectPreparation;
  reading: ReadingThread;
  readsElsewhere(project: ProjectRecord): boolean;
  /** Called as a refresh starts (the demo's world moves on before its first refresh). */
  beforeStart(): void;
}

export function createRefreshHandlers(deps: RefreshHandlersDeps): Handlers {
  const { refreshes, prep } = deps;
  return {
    'refresh.preview': async (input) => {
      const project = await prep.planned(input.projectId);
      return refreshes.preview(input.projectId, input.olderThanDays ?? null, deps.readsElsewhere(project) ? deps.reading.rows : undefined);
    },
    'refresh.start': async (input) => {
      await prep.planned(input.projectId);
      deps.beforeStart();
      return refreshes.start(input.projectId, input.olderThanDays ?? null);
    },
    'refresh.pause': (input) => refreshes.pause(input.projectId),
    'refresh.resume': (input) => refreshes.resume(input.projectId),
    'refresh.status': (input) => refreshes.status(input.projectId),
  };
}
