import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { RefreshPreview, RefreshProgress } from '../../../shared/contract';
import type { Settings } from '../../../shared/model';
import type { ServiceClient } from '../api';
import type { Clock } from '../clock';
import { EngineError } from '../engine-errors';
import type { JobBoard, JobHandle } from '../jobs/job-board';
import { jobStateOf } from '../jobs/job-states';
import { requireProject, type ProjectRecord } from '../rows/project-record';
import type { CallTiming } from '../rows/call-timing';
import type { RowsReader } from '../runs/reading-thread';
import type { RowTiming } from '../rows/row-timing';
import { scopeId, type ServiceScope } from '../rows/service-scope';
import { createRefresh, planRefresh, refreshPreview } from './refresh-plan';
import { dropLists, latestRefresh, saveRefresh, storedRefreshProgress, type RefreshCounters, type RefreshRecord } from './refresh-records';
import { writeLeftRows } from './refresh-rows';
import { RefreshRun, type Listed } from './refresh-run';

export interface RefreshControlDeps {
  db: Database;
  clock: Clock;
  timing: CallTiming;
  rowTiming: RowTiming;
  settings(): Settings;
  /** The selected connection's service; null when none is selected. */
  service(): ServiceScope | null;
  /** The active profile's client; throws an EngineError the user can act on when there is none. */
  client(concurrency: number): Promise<ServiceClient>;
  /**
   * Refuses (throws busy, in the table's words) what the overlap table (jobs/concurrency.ts) refuses a refresh beside
   * (a run, a plan, another refresh of the project): asked in the same turn the refresh is marked starting.
   */
  admit(projectId: number): void;
  /** Hears each word of a refresh before its job tells it (the watch, so a screen reloading on the job's end sees the watch's result). */
  onProgress(progress: RefreshProgress): void;
  /** Each refresh is a job there (job.progress, its RefreshProgress the detail), storing the options a resume goes on under. */
  jobs: JobBoard;
  /** Called when a refresh ends and none is left going (the engine lets go of what they held). */
  noneGoing?(): void;
}

/** What a refresh started with, kept with its job: a resume goes on under it, whatever the settings say by then. */
interface RefreshJobOptions {
  refreshId: number;
  olderThanDays: number | null;
  concurrency: number;
}

const RESUMABLE = new Set(['paused', 'failed', 'out_of_credits']);

/** Another connection than the selected one (a watch refreshes with its own profile). */
export interface RefreshConnection {
  scope: ServiceScope;
  client(concurrency: number): Promise<ServiceClient>;
}

/** Starts, pauses, resumes and cancels refreshes; what may go beside one is the overlap table's to say. */
export class RefreshControl {
  private readonly active = new Map<number, RefreshRun>();
  private readonly starting = new Set<number>();
  /** Projects whose refresh was cancelled (or deleted) while it was being listed: it stops before its next slice. */
  private readonly abandoned = new Set<number>();
  /** Projects whose stopped refresh's rows left are being written (writeRowsLeft). */
  private readonly writingLeft = new Map<number, Promise<RefreshCounters>>();
  private closing = false;
  /** Each project's refresh job, from start to its end (a paused refresh's stays, to be resumed). */
  private readonly jobs = new Map<number, JobHandle<'refresh'>>();

  constructor(private readonly deps: RefreshControlDeps) {}

  isBusy(projectId: number): boolean {
    return this.active.has(projectId) || this.starting.has(projectId);
  }

  /** True while any project's refresh is starting or going. */
  anyBusy(): boolean {
    return this.active.size > 0 || this.starting.size > 0;
  }

  /** `elsewhere`: reads the project's matched people on the reading worker (a large project's), else they are listed here. */
  async preview(projectId: number, olderThanDays: number | null, elsewhere?: RowsReader, via?: RefreshConnection): Promise<RefreshPreview> {
    const project = requireProject(this.deps.db, projectId);
    const scope = this.scopeFor(project, via);
    const plan = await planRefresh(this.deps.db, projectId, scopeId(scope), olderThanDays, this.deps.clock.now(), () => this.turn(), { elsewhere });
    return refreshPreview(plan, olderThanDays, {
      concurrency: this.deps.settings().concurrency,
      secondsPerCall: this.deps.timing.secondsPerCall(this.deps.service()),
      secondsPerRow: this.deps.rowTiming.secondsPerRow('refresh'),
    });
  }

  async start(projectId: number, olderThanDays: number | null, via?: RefreshConnection): Promise<RefreshProgress> {
    const project = requireProject(this.deps.db, projectId);
    this.deps.admit(project.id);
    const scope = this.scopeFor(project, via);
    return this.launch(project, scope, via, null, async () => {
      // A stopped refresh this one replaces may have found people whose rows were not written (the app closed
      // meanwhile): recent now, they would be left out of this one, and their rows never brought up to date.
      const stopped = latestRefresh(this.deps.db, projectId);
      if (stopped && RESUMABLE.has(stopped.status)) await this.writeRowsLeft(project, stopped);
      const since = this.deps.clock.now();
      const { plan } = await createRefresh(this.deps.db, projectId, scopeId(scope), olderThanDays, since, () => this.turn(projectId));
      const listed = { seconds: (this.deps.clock.now() - since) / 1000, matchedRows: plan.matchedRows };
      return { refresh: latestRefresh(this.deps.db, projectId), listed };
    });
  }

  async resume(projectId: number, via?: RefreshConnection): Promise<RefreshProgress | null> {
    const project = requireProject(this.deps.db, projectId);
    const running = this.active.get(projectId);
    if (running) return running.progress();
    const last = latestRefresh(this.deps.db, projectId);
    if (!last || !RESUMABLE.has(last.status)) return null;
    this.deps.admit(project.id);
    const scope = this.scopeFor(project, via);
    if (scopeId(scope) !== last.scope) throw new EngineError('invalid_input', 'This refresh asked another service or organization than the selected connection. Select that connection to resume it, or start a new refresh.');
    return this.launch(project, scope, via, last, async () => ({ refresh: last, listed: null }));
  }

  async pause(projectId: number): Promise<RefreshProgress | null> {
    requireProject(this.deps.db, projectId);
    const run = this.active.get(projectId);
    return run ? run.pause() : this.status(projectId);
  }

  /** Cancels the running refresh, or a stopped one waiting to be resumed: nothing is left to resume; what landed stays. */
  async cancel(projectId: number): Promise<RefreshProgress | null> {
    const project = requireProject(this.deps.db, projectId);
    const run = this.active.get(projectId);
    if (run) return run.cancel();
    const starting = this.starting.has(projectId);
    if (starting) this.abandoned.add(projectId);
    const last = latestRefresh(this.deps.db, projectId);
    if (last && RESUMABLE.has(last.status)) {
      // Busy meanwhile, as a refresh being started is: no run or other refresh writes the project's rows beside it.
      if (!starting) this.starting.add(projectId);
      let counters: RefreshCounters;
      try {
        counters = await this.writeRowsLeft(project, last);
      } finally {
        if (!starting) this.starting.delete(projectId);
      }
      const at = new Date(this.deps.clock.now()).toISOString();
      const message = 'Cancelled. Everything that had arrived is kept.';
      saveRefresh(this.deps.db, last.id, { status: 'cancelled', counters, message, updatedAt: at, finishedAt: at });
      // Paused in an earlier session, it has no job here to tell: its stored one ends as this one's would.
      if (!this.jobs.has(projectId)) this.deps.jobs.endEarlier(projectId, 'refresh', 'cancelled', message);
      void dropLists(this.deps.db, last.id, 'rows');
      const progress = this.status(projectId);
      if (progress) this.tell(progress);
      return progress;
    }
    return this.status(projectId);
  }

  /** The running refresh's progress, else the last one's as stored. */
  status(projectId: number): RefreshProgress | null {
    requireProject(this.deps.db, projectId);
    const run = this.active.get(projectId);
    if (run) return run.progress();
    const last = latestRefresh(this.deps.db, projectId);
    return last ? storedRefreshProgress(last) : null;
  }

  async settled(projectId: number): Promise<RefreshProgress | null> {
    const run = this.active.get(projectId);
    return run ? run.settled : this.status(projectId);
  }

  async closeAll(graceMs = 10_000): Promise<void> {
    this.closing = true;
    await Promise.all([...this.active.values()].map((run) => run.pauseWithin(graceMs, 'Paused when Matchdesk closed. Everything that had arrived is kept; resume to ask for the rest.')));
  }

  /**
   * Between two slices of listing a refresh's people: other calls take their turn, and a refresh being started stops
   * (its record left unlisted, store/refresh-tables.ts LISTED) once it is cancelled or the engine closes.
   */
  private async turn(projectId?: number): Promise<void> {
    await nextTurn();
    if (this.closing) throw new EngineError('cancelled', 'Matchdesk is closing: the refresh was not started.');
    if (projectId !== undefined && this.abandoned.has(projectId)) throw new EngineError('cancelled', 'The refresh was cancelled before it asked anyone.');
  }

  /**
   * The rows of the people `stopped` (the project's last refresh, stopped without ending: the app closed or stopped
   * while it went) found and did not write; its counters after.
   */
  private writeRowsLeft(project: ProjectRecord, stopped: RefreshRecord): Promise<RefreshCounters> {
    const going = this.writingLeft.get(project.id);
    if (going) return going;
    // One at a time for a project (a cancel while a new refresh is started shares the start's); only closing stops it.
    const writing = writeLeftRows(this.deps.db, stopped, project.mapping, () => new Date(this.deps.clock.now()).toISOString(), () => this.turn()).finally(() =>
      this.writingLeft.delete(project.id),
    );
    this.writingLeft.set(project.id, writing);
    return writing;
  }

  /** The options the refresh started with, from its job; null for one started before refreshes kept them. */
  private startedWith(refresh: RefreshRecord): RefreshJobOptions | null {
    const options = this.deps.jobs.lastOptions(refresh.projectId, 'refresh') as Partial<RefreshJobOptions> | null;
    return options?.refreshId === refresh.id && typeof options.concurrency === 'number' ? (options as RefreshJobOptions) : null;
  }

  /** The refresh's progress to the engine's watch, then to its job (job.progress). */
  private tell(progress: RefreshProgress): void {
    this.deps.onProgress(progress);
    const job = this.jobs.get(progress.projectId);
    if (job) {
      job.progress(progress.peopleDone, progress.peopleTotal, progress.rowsWriting ? 'writing rows' : 'asking', progress);
      const state = jobStateOf(progress.status);
      if (state !== 'running' && state !== 'paused') this.jobs.delete(progress.projectId);
      job.state(state, progress.message);
    }
  }

  /** The selected service, which must be the one the project's people were found on: a slug means a person only there. */
  private scopeFor(project: ProjectRecord, via?: RefreshConnection): ServiceScope {
    const scope = via ? via.scope : this.deps.service();
    if (!scope) {
      throw new EngineError('invalid_input', 'No connection is selected. Add a connection profile on the Account screen (or try the demo), then refresh again.', 'no_profile');
    }
    if (project.planScope === null) throw new EngineError('invalid_input', `"${project.name}" has not been run yet: there is nobody to refresh.`);
    if (project.planScope !== scopeId(scope)) {
      throw new EngineError('invalid_input', `"${project.name}" was matched on another service or organization than the selected connection. Select that connection to refresh it.`);
    }
    return scope;
  }

  /** `record`: the refresh to run, and how long a new one took to list its matched rows (a resumed one lists nothing). */
  private async launch(
    project: ProjectRecord,
    scope: ServiceScope,
    via: RefreshConnection | undefined,
    resumed: RefreshRecord | null,
    record: () => Promise<{ refresh: RefreshRecord | null; listed: Listed | null }>,
  ): Promise<RefreshProgress> {
    const { db, clock } = this.deps;
    this.starting.add(project.id);
    try {
      const concurrency = (resumed && this.startedWith(resumed)?.concurrency) || this.deps.settings().concurrency;
      const client = await (via ? via.client(concurrency) : this.deps.client(concurrency));
      const { refresh, listed } = await record();
      if (!refresh) throw new Error('the refresh was not recorded');
      // Closing began while it was listed: it is recorded as running, and the next start finds it interrupted, to resume.
      if (this.closing) throw new EngineError('cancelled', 'Matchdesk is closing: the refresh will go on when it is resumed.');
      if (refresh.status !== 'running') {
        saveRefresh(db, refresh.id, { status: 'running', counters: refresh.counters, message: null, updatedAt: new Date(clock.now()).toISOString(), finishedAt: null });
      }
      if (!this.jobs.has(project.id)) {
        const options: RefreshJobOptions = { refreshId: refresh.id, olderThanDays: refresh.olderThanDays, concurrency };
        // Unpaced: the refresh paces its own words (a few a second, the last one held back told later).
        this.jobs.set(project.id, this.deps.jobs.open({ kind: 'refresh', projectId: project.id, options, stop: () => this.cancel(project.id), phase: 'asking', paced: false }));
      }
      const run = new RefreshRun(
        {
          db,
          clock,
          client,
          concurrency,
          service: { baseUrl: scope.baseUrl, orgId: scope.orgId, scope: scopeId(scope) },
          mapping: project.mapping,
          // Row positions, as the rows being brought up to date are counted: the blank rows between them too.
          rowCount: project.rowCount + project.blankRows,
          timing: this.deps.timing,
          rowTiming: this.deps.rowTiming,
          listed,
          onProgress: (p) => this.tell(p),
        },
        project.id,
        refresh.id,
        refresh.startedAt,
        { ...refresh.counters },
      );
      this.active.set(project.id, run);
      void run.settled.finally(() => {
        if (this.active.get(project.id) === run) this.active.delete(project.id);
        if (!this.anyBusy()) this.deps.noneGoing?.();
      });
      return run.progress();
    } finally {
      this.starting.delete(project.id);
      this.abandoned.delete(project.id);
    }
  }
}
