// The watch.* calls: projects refreshed on a schedule, the changes they found and the rows marked important.
import type { Database } from 'better-sqlite3';
import type { Handlers } from '../dispatch';
import { requireProject } from '../rows/project-record';
import type { ProjectPreparation } from '../runs/project-preparation';
import { changesExport } from './changes-export';
import { importantMarks, markColumnValue, markRows } from './important';
import type { WatchControl } from './watch-control';

export interface WatchHandlersDeps {
  db: Database;
  watches: WatchControl;
  prep: ProjectPreparation;
  exportDir: string;
}

export function createWatchHandlers({ db, watches, prep, exportDir }: WatchHandlersDeps): Handlers {
  return {
    'watch.set': (input) => watches.set(input),
    'watch.clear': (input) => watches.clear(input.projectId),
    'watch.list': () => watches.list(),
    'watch.runDue': async (input) => {
      await prep.planned(input.projectId);
      return watches.runDue(input.projectId);
    },
    'watch.changes': (input) => watches.changes(input.projectId, input.since),
    'watch.exportChanges': (input) => changesExport(db, input, exportDir),
    'watch.markImportant': (input) => {
      requireProject(db, input.projectId);
      if (input.rows) markRows(db, input.projectId, input.rows, input.important);
      else markColumnValue(db, input.projectId, input.column!.columnIndex, input.column!.value, input.important);
      return importantMarks(db, input.projectId);
    },
    'watch.importantMarks': (input) => {
      requireProject(db, input.projectId);
      return importantMarks(db, input.projectId);
    },
    'watch.inbox': (input) => watches.inbox(input.projectId),
    'watch.inboxCount': (input) => watches.inboxCount(input.projectId),
    'watch.markSeen': (input) => watches.markSeen(input.projectId),
  };
}
