// The run.*, export.* and cache.* calls: matching a project's rows, writing its matches out, the answers cache.
import type { Database } from 'better-sqlite3';
import type { ExportProgress } from '../../../shared/contract';
import type { Settings } from '../../../shared/model';
import { CancellableCalls } from '../cancellable-calls';
import type { Clock } from '../clock';
import type { Handlers } from '../dispatch';
import type { UnfinishedExports } from '../export';
import { admit, type UnderWay } from '../jobs/concurrency';
import type { JobBoard } from '../jobs/job-board';
import type { Connections } from '../connections/connections';
import type { CallTiming } from '../rows/call-timing';
import { readyProjectIds, requireProject, type ProjectRecord } from '../rows/project-record';
import type { RowTiming } from '../rows/row-timing';
import { CACHE_COUNTED_HERE, cacheEntriesBound, cacheStatsQuery, getSettings, toCacheStats, type CacheStats } from '../store';
import { clearAnswers } from './clear-answers';
import { VerdictCopy } from './copied-verdicts';
import { exportProject } from './export-project';
import type { ProjectPreparation } from './project-preparation';
import { readRows, type ReadingThread } from './reading-thread';
import type { RunControl } from './run-control';
import { runFailures } from './run-failures';
import { runPreview } from './run-preview';
import { latestRun } from './run-records';
import type { ServiceCredits } from './service-credits';
import { verdictBasis } from './verdict-basis';
import type { ExportHalfThread } from './export-half-thread';

export interface RunHandlersDeps {
  db: Database;
  clock: Clock;
  runs: RunControl;
  jobs: JobBoard;
  prep: ProjectPreparation;
  connections: Connections;
  timing: CallTiming;
  rowTiming: RowTiming;
  credits: ServiceCredits;
  reading: ReadingThread;
  /** Whether a read over all the project's rows goes to the reading worker (a large project's, not in the CLI). */
  readsElsewhere(project: ProjectRecord): boolean;
  /** Whether a read over `rows` goes to the reading worker: past `hereUpTo`, not in the CLI. */
  readsPast(rows: number, hereUpTo: number): boolean;
  underWay: UnderWay;
  cleanUp(): Promise<void>;
  exportDir: string;
  unfinished: UnfinishedExports;
  /** A large CSV export's matches on two threads (exportProject's `halves`). */
  exportHalves?: { worker: () => ExportHalfThread | null; fromRows?: number };
}

export interface RunHandlers {
  handlers: Handlers;
  /** Whether the cache is being cleared (every project's rows are sent back meanwhile). */
  clearing(): boolean;
  /** Cancels exports under way: each removes its part files. */
  close(): void;
}

export function createRunHandlers(deps: RunHandlersDeps): RunHandlers {
  const { db, runs, prep } = deps;
  /** Exports under way by project: job.cancel stops one, closing all (each removes its part files). */
  const exports = new CancellableCalls<number>();
  /** A clearing of the cache under way, and what it removed once done. */
  let clearing: Promise<{ removed: number }> | null = null;
  const freshAfter = (settings: Settings) => deps.clock.now() - settings.cacheTtlDays * 86_400_000;

  /**
   * Empties the cache. Rows settled from it go back to waiting on their first query (a decision is kept, with
   * the chosen person stored beside it), so the next run asks again instead of showing answers that are gone. A slice
   * of rows at a time (runs/clear-answers.ts); a second ask while it works waits for the same.
   */
  function clearCache(): Promise<{ removed: number }> {
    if (clearing) return clearing;
    for (const id of readyProjectIds(db)) admit('cacheClear', deps.underWay.kinds(id), requireProject(db, id).name);
    clearing = deps.jobs
      .run({ kind: 'cacheClear', projectId: null, cancellable: false, phase: 'sending rows back' }, () => clearAnswers(db))
      .then((removed) => ({ removed }))
      .finally(() => (clearing = null));
    return clearing;
  }

  /**
   * The cache's figures. Counting them reads every answer (the bytes of its JSON): seconds for a large cache, far
   * longer after a restart, in which the engine (in Electron the main process, and its window) answered nothing. A
   * large cache is counted by the reading worker meanwhile, except in the CLI, which waits.
   */
  async function cacheFigures(): Promise<CacheStats> {
    const { sql, params } = cacheStatsQuery(freshAfter(getSettings(db)));
    const elsewhere = deps.readsPast(cacheEntriesBound(db), CACHE_COUNTED_HERE) ? deps.reading.rows : undefined;
    return toCacheStats((await readRows(db, sql, params, elsewhere))[0]);
  }

  const handlers: Handlers = {
    'run.preview': async (input) => {
      const project = requireProject(db, input.projectId);
      if (!runs.isBusy(project.id)) await prep.ensurePlan(project.id, 'read');
      const settings = getSettings(db);
      const scope = deps.connections.activeScope();
      // Rows whose verdicts the run would copy from another project of this sheet go at a copy's pace (row-timing.ts).
      const copies = VerdictCopy.available(db, project.id, verdictBasis(project.mapping, settings.autoAccept));
      const firstRun = input.beforeFirstRun ? latestRun(db, project.id) : null;
      // A large project not run yet has its queries counted on the reading worker (a walk of every row).
      return runPreview(
        db,
        project.id,
        project.rowCount,
        project.blankRows,
        {
          offline: input.offline,
          freshAfterMs: freshAfter(settings),
          concurrency: settings.concurrency,
          secondsPerCall: deps.timing.secondsPerCall(scope),
          secondsPerRow: deps.rowTiming.secondsPerRow(copies ? 'copy' : 'run'),
          creditsRemaining: deps.credits.remaining(scope),
          ...(firstRun ? { before: Date.parse(firstRun.startedAt) } : {}),
        },
        deps.readsElsewhere(project) ? deps.reading.rows : undefined,
      );
    },
    // What may go beside a run is the overlap table's to say, asked as the run starts (RunControl's admit).
    'run.start': (input) =>
      runs.start(input.projectId, {
        offline: input.offline,
        ...(input.concurrency ? { concurrency: input.concurrency } : {}),
        ...(input.autoAccept !== undefined ? { autoAccept: input.autoAccept } : {}),
        ...(input.minConfidence !== undefined ? { minConfidence: input.minConfidence } : {}),
      }),
    'run.pause': (input) => runs.pause(input.projectId),
    // A run going already is answered with its progress (RunControl.resume).
    'run.resume': (input) => runs.resume(input.projectId),
    'run.status': (input) => runs.status(input.projectId),
    'run.failures': (input) => runFailures(db, input.projectId),

    'export.run': (input) =>
      deps.jobs.run({ kind: 'export', projectId: input.projectId, options: input, stop: () => exports.cancel(input.projectId), phase: 'matches' }, (job) =>
        exports.run(input.projectId, async (signal) => {
          const project = await prep.planned(input.projectId);
          const tell = (progress: ExportProgress) => job.progress(progress.rowsDone, progress.rowsTotal, progress.part, progress);
          return exportProject(db, project, input, deps.exportDir, tell, signal, deps.unfinished, deps.exportHalves);
        }),
      ),

    'cache.stats': () => cacheFigures(),
    'cache.clear': async () => {
      const cleared = await clearCache();
      await deps.cleanUp();
      return cleared;
    },
  };

  return {
    handlers,
    clearing: () => clearing !== null,
    close: () => exports.cancelAll(),
  };
}
