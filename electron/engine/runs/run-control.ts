import type { Database } from 'better-sqlite3';
import type { RunProgress } from '../../../shared/contract';
import type { Settings } from '../../../shared/model';
import type { ServiceClient } from '../api';
import type { Clock } from '../clock';
import type { JobBoard, JobHandle } from '../jobs/job-board';
import { jobStateOf } from '../jobs/job-states';
import { requireProject } from '../rows/project-record';
import type { CallTiming } from '../rows/call-timing';
import { MatchingRun } from './matching-run';
import type { RowTiming } from '../rows/row-timing';
import { createRun, jobOptions, latestRun, saveRun, zeroCounters, type RunRecord } from './run-records';
import { VerdictCopy } from './copied-verdicts';
import { verdictBasis } from './verdict-basis';
import type { PlanFrontier } from './plan-frontier';
import type { VerdictThread } from './verdict-thread';

export interface RunControlDeps {
  db: Database;
  clock: Clock;
  timing: CallTiming;
  rowTiming: RowTiming;
  /** The verdict worker (started on first use), or null to work verdicts out on the engine's thread. */
  verdicts(): VerdictThread | null;
  /** Told when the last run going has ended (the engine stops its verdict worker then). */
  noneGoing?(): void;
  settings(): Settings;
  /** The active profile's client (with this many calls in flight at most); throws an EngineError the user can act on when there is none. */
  client(concurrency: number): Promise<ServiceClient>;
  /** Brings the project's planned queries up to date with the active service before a run. */
  ensurePlan(projectId: number): Promise<void>;
  /** The project's first plan going, which a run may follow instead of waiting for it (runs/plan-frontier.ts); null: none. */
  followPlan?(projectId: number): PlanFrontier | null;
  /**
   * Refuses (throws busy, in the table's words) what the overlap table (jobs/concurrency.ts) refuses a run beside:
   * asked in the same turn the run is marked starting, so a second start of the project finds this one.
   */
  admit(projectId: number): void;
  /** Each run is a job there (job.progress, its RunProgress the detail; job.cancel), from its start or resume to its end; a pause keeps it. */
  jobs: JobBoard;
}

const RESUMABLE = new Set(['paused', 'failed', 'out_of_credits']);

/**
 * What one run may do differently from the settings (the CLI's flags). What it starts with is stored with it, and a
 * resumed run goes on under exactly that, whatever the settings say by then.
 */
export interface RunOptions {
  offline: boolean;
  concurrency?: number;
  /** false: leave every row for review, whatever the auto-accept rule says. */
  autoAccept?: boolean;
  /** This run's auto-accept threshold instead of the setting's. */
  minConfidence?: number;
}

/** Starts, pauses, resumes and cancels runs; what may go beside one (another run of the project: no) is the overlap table's to say. */
export class RunControl {
  private readonly active = new Map<number, MatchingRun>();
  /** Projects between "start" and their run existing (planning, logging in): a second start must wait its turn. */
  private readonly starting = new Set<number>();
  /** Each project's run job, from start to its end (a paused run's stays, to be resumed). */
  private readonly jobs = new Map<number, JobHandle<'run'>>();

  constructor(private readonly deps: RunControlDeps) {}

  isBusy(projectId: number): boolean {
    return this.active.has(projectId) || this.starting.has(projectId);
  }

  /** True while any project's run is starting or going. */
  anyBusy(): boolean {
    return this.active.size > 0 || this.starting.size > 0;
  }

  async start(projectId: number, options: RunOptions): Promise<RunProgress> {
    return this.launch(projectId, options, null);
  }

  async resume(projectId: number): Promise<RunProgress | null> {
    requireProject(this.deps.db, projectId);
    const running = this.active.get(projectId);
    if (running) return running.progress();
    const last = latestRun(this.deps.db, projectId);
    if (!last || !RESUMABLE.has(last.status)) return null;
    return this.launch(projectId, { offline: last.offline }, last);
  }

  /** The project's last run when it can be resumed (paused, failed, out of credits), with what it started with. */
  resumable(projectId: number): RunRecord | null {
    requireProject(this.deps.db, projectId);
    const last = latestRun(this.deps.db, projectId);
    return last && RESUMABLE.has(last.status) ? last : null;
  }

  async pause(projectId: number): Promise<RunProgress | null> {
    requireProject(this.deps.db, projectId);
    const run = this.active.get(projectId);
    return run ? run.pause() : this.status(projectId);
  }

  /**
   * Cancels the running run, or a stopped one still waiting to be resumed (paused, failed, out of credits): either
   * way nothing is left to resume, and the next start begins a fresh run (answers that landed stay cached).
   */
  async cancel(projectId: number): Promise<RunProgress | null> {
    requireProject(this.deps.db, projectId);
    const run = this.active.get(projectId);
    if (run) return run.cancel();
    const last = latestRun(this.deps.db, projectId);
    if (last && RESUMABLE.has(last.status)) {
      const at = new Date(this.deps.clock.now()).toISOString();
      const message = 'Cancelled. Everything that had arrived is kept.';
      saveRun(this.deps.db, last.id, { status: 'cancelled', counters: last.counters, message, updatedAt: at, finishedAt: at });
      // Paused in an earlier session, it has no job here to tell: its stored one ends as this one's would.
      if (!this.jobs.has(projectId)) this.deps.jobs.endEarlier(projectId, 'run', 'cancelled', message);
      const progress = this.status(projectId);
      if (progress) this.tell(progress);
      return progress;
    }
    return this.status(projectId);
  }

  /** The run's progress to its job (job.progress). */
  private tell(progress: RunProgress): void {
    const job = this.jobs.get(progress.projectId);
    if (job) {
      job.progress(progress.rowsResolved, progress.rowsTotal, undefined, progress);
      const state = jobStateOf(progress.status);
      if (state !== 'running' && state !== 'paused') this.jobs.delete(progress.projectId);
      job.state(state, progress.message);
    }
  }

  /** The running run's progress, else the last run's as stored (so a restart still shows how it ended). */
  status(projectId: number): RunProgress | null {
    const project = requireProject(this.deps.db, projectId);
    const run = this.active.get(projectId);
    if (run) return run.progress();
    const last = latestRun(this.deps.db, projectId);
    return last ? storedProgress(last, project.rowCount) : null;
  }

  /** Resolves when the project's current run (if any) has stopped, with how it ended. */
  async settled(projectId: number): Promise<RunProgress | null> {
    const run = this.active.get(projectId);
    return run ? run.settled : this.status(projectId);
  }

  /** Pauses every run, giving calls in flight a few seconds to land: what has landed is committed. */
  async closeAll(graceMs = 10_000): Promise<void> {
    await Promise.all([...this.active.values()].map((run) => run.pauseWithin(graceMs, 'Paused when Matchdesk closed. Everything that had arrived is kept; resume to finish.')));
  }

  /**
   * The first plan of the project going, when the run may follow it: settling the rows planned while the rest are.
   * Not when another project of the sheet holds verdicts to copy: the copy goes first, over the whole plan. Looked at
   * once the first page is written, as the copy's source is found by the project's rows.
   */
  private async following(projectId: number, settings: Settings): Promise<PlanFrontier | null> {
    const frontier = this.deps.followPlan?.(projectId) ?? null;
    if (!frontier) return null;
    while (frontier.rows === 0 && !frontier.whole && !frontier.failed) await frontier.next();
    if (frontier.whole) return null;
    return VerdictCopy.available(this.deps.db, projectId, verdictBasis(frontier.mapping, settings.autoAccept)) ? null : frontier;
  }

  private async launch(projectId: number, options: RunOptions, resumed: RunRecord | null): Promise<RunProgress> {
    const { offline } = options;
    const { db, clock } = this.deps;
    const project = requireProject(db, projectId);
    this.deps.admit(projectId);
    this.starting.add(projectId);
    try {
      // A resume goes on under what its run's job kept; a run from before runs kept them, under the settings.
      const started = resumed?.settings ?? null;
      const settings = started ? { ...this.deps.settings(), ...started } : runSettings(this.deps.settings(), options);
      const client = offline ? null : await this.deps.client(settings.concurrency);
      const frontier = await this.following(projectId, settings);
      if (!frontier) await this.deps.ensurePlan(projectId);
      const mapping = frontier ? frontier.mapping : requireProject(db, projectId).mapping;
      const now = new Date(clock.now()).toISOString();
      const runId = resumed ? resumed.id : createRun(db, projectId, offline, now);
      // A new run replaces a paused one: that one's job ends, and the new run has its own, holding its options.
      const previous = this.jobs.get(projectId);
      if (previous && !resumed) {
        this.jobs.delete(projectId);
        previous.state('cancelled', 'A new run of the project was started instead.');
      }
      if (!this.jobs.has(projectId)) {
        const options = jobOptions(runId, offline, settings);
        // Unpaced: the run paces its own words (at most every 100 ms, the last one held back told later).
        this.jobs.set(projectId, this.deps.jobs.open({ kind: 'run', projectId, options, stop: () => this.cancel(projectId), phase: 'matching rows', paced: false }));
      }
      const run = new MatchingRun(
        {
          db,
          clock,
          client,
          settings,
          mapping,
          timing: this.deps.timing,
          rowTiming: this.deps.rowTiming,
          verdicts: () => this.deps.verdicts(),
          rowCount: project.rowCount,
          frontier,
          onProgress: (p) => this.tell(p),
          // Its own job, beside the run's: job.cancel stops the copy and the run goes on working the rest out.
          copyJob: () => this.deps.jobs.open({ kind: 'verdictCopy', projectId, options: { runId }, phase: 'copying verdicts' }),
        },
        projectId,
        runId,
        offline,
        resumed ? resumed.startedAt : now,
        resumed ? { ...resumed.counters } : zeroCounters(),
      );
      this.active.set(projectId, run);
      void run.settled.finally(() => {
        if (this.active.get(projectId) === run) this.active.delete(projectId);
        if (!this.anyBusy()) this.deps.noneGoing?.();
      });
      return run.progress();
    } finally {
      this.starting.delete(projectId);
    }
  }
}

function runSettings(settings: Settings, options: RunOptions): Settings {
  return {
    ...settings,
    concurrency: options.concurrency ?? settings.concurrency,
    autoAccept: {
      ...settings.autoAccept,
      ...(options.autoAccept !== undefined ? { enabled: options.autoAccept } : {}),
      ...(options.minConfidence !== undefined ? { minConfidence: options.minConfidence } : {}),
    },
  };
}

export function storedProgress(run: RunRecord, rowCount: number): RunProgress {
  return {
    projectId: run.projectId,
    runId: run.id,
    status: run.status,
    offline: run.offline,
    autoAccept: run.settings?.autoAccept ?? null,
    queriesTotal: run.counters.queriesTotal,
    queriesDone: run.counters.queriesDone,
    rowsTotal: rowCount,
    rowsResolved: run.counters.rowsResolved,
    calls: run.counters.calls,
    cacheHits: run.counters.cacheHits,
    errors: run.counters.errors,
    ratePerSec: 0,
    etaSeconds: null,
    message: run.message,
    startedAt: run.startedAt,
    updatedAt: run.updatedAt,
  };
}
