// The engine facade: every call of shared/contract.ts (except the host's own dialogs) over one SQLite file, the
// secret store and the People Data Service. Hosts (Electron IPC, the browser host, the CLI) only relay. Each room's
// handlers.ts answers its calls; this file wires them together and keeps what every call shares.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { calls, type CallInput, type CallName, type CallOutput, type CallParsedInput, type CallResult, type EventName, type Events, type RefreshProgress, type RunProgress } from '../../shared/contract';
import { appVersion } from './app-version';
import { CLOSING } from './cancellable-calls';
import { systemClock, type Clock } from './clock';
import { DEMO_PROFILE_ID, DemoService } from './demo/demo-service';
import { dispatch, type Handlers } from './dispatch';
import { EngineError, type ErrorMapper } from './engine-errors';
import { UnfinishedExports } from './export';
import { withHostDefaults, type Engine, type EngineOptions } from './facade/engine-api';
import { diskFullIn, mapKnownErrors } from './facade/known-errors';
import { defaultSecrets, makePrivate } from './facade/start-up';
import { applyHeapPolicy } from './heap-policy';
import { admit, enter, type Action, type Entry, type UnderWay } from './jobs/concurrency';
import { createJobHandlers } from './jobs/handlers';
import { JobBoard } from './jobs/job-board';
import { TextIndexJobs } from './review/text-index-jobs';
import { Connections } from './connections/connections';
import { createProfileHandlers } from './connections/handlers';
import { createProjectHandlers, type ProjectHandlers } from './projects/handlers';
import { deleteAbandonedImports } from './projects/import-project';
import { ProjectCleanup } from './projects/project-cleanup';
import { AnswerMove, answerMoveJob } from './runs/answer-people';
import { RefreshControl, markInterruptedRefreshes } from './refresh';
import { createRefreshHandlers } from './refresh/handlers';
import { ChangedRowsCounter } from './review/changed-count';
import { Decisions } from './review/decisions';
import { createReviewHandlers, type ReviewHandlers } from './review/handlers';
import { LISTS_WALKED_HERE } from './review/review-page';
import { onRowTextIndexProgress, stopRowTextIndexFill } from './review/row-text-index';
import { CallTiming } from './rows/call-timing';
import { requireProject, type ProjectRecord } from './rows/project-record';
import { RowTiming } from './rows/row-timing';
import { scopeOf } from './rows/service-scope';
import { createRunHandlers, type RunHandlers } from './runs/handlers';
import { MappingPreviews } from './runs/mapping-preview';
import { ProjectPreparation } from './runs/project-preparation';
import { READING_CACHE_MB, ReadingThread } from './runs/reading-thread';
import { HALF_CACHE_MB } from './runs/export-halves';
import { ExportHalfThread } from './runs/export-half-thread';
import { RunControl } from './runs/run-control';
import { markInterruptedRuns } from './runs/run-records';
import { ServiceCredits } from './runs/service-credits';
import { VerdictThread } from './runs/verdict-thread';
import { createSearchHandlers, type SearchHandlers } from './search';
import type { SecretStore } from './secrets';
import { damageOf, getProfile, getSettings, openDatabaseInSlices } from './store';
import { DigestIds } from './store/digest-ids';
import { WatchControl } from './watch';
import { within } from './within';
import { createWatchHandlers } from './watch/handlers';

export type { Engine, EngineOptions } from './facade/engine-api';

export const DATABASE_FILE = 'matchdesk.sqlite';
/** An import that has not written a batch for this long was cut off (a crash or a kill), not slow. */
const ABANDONED_IMPORT_MS = 10 * 60_000;
/** How long closing waits for calls still working (an import, a plan) before it closes the database anyway. */
const CLOSE_GRACE_MS = 30_000;
/** How long the engine must have had no call before background work (filling a text index) takes a turn. */
const IDLE_AFTER_MS = 250;
/** The page cache of the engine's temporary tables, in KiB (createEngine). */
export const TEMP_CACHE_KB = 4096;

export async function createEngine(opts: EngineOptions): Promise<Engine> {
  applyHeapPolicy();
  const clock = opts.clock ?? systemClock;
  const dbPath = join(opts.dataDir, DATABASE_FILE);
  const privacyNotice = makePrivate(opts.dataDir);
  // A folder an older version made may take a while to bring up to this version: the host shows how far it is.
  const db = await openDatabaseInSlices(dbPath, {
    // Planning a 100,000-row sheet inserts a few hundred thousand keys in hash order: with SQLite's default 2 MB
    // page cache nearly every insert reads a page back from the file. 16 MB measured as fast as 64 MB for planning,
    // the run and the review, and holds the engine's memory lower (docs/performance.md, "SQLite").
    configure: (opened) => {
      opened.pragma('cache_size = -16384');
      // Temporary tables (a refresh lists a project's matched rows into one) had SQLite's default 16 MB cache of their
      // own, filled and kept by a large refresh; past 4 MB their pages go to a temporary file, which the OS caches.
      opened.pragma(`temp.cache_size = -${TEMP_CACHE_KB}`);
    },
    onProgress: ({ phase, done, total }) => opts.onStartProgress?.({ state: 'updating', phase, done, total }),
    signal: opts.signal,
  });
  try {
    // The WAL's checkpoint point follows the file's size (store/wal-budget.ts): a run needs little room beyond its file.
    const { secrets, keychainProblem } = opts.secrets ? { secrets: opts.secrets, keychainProblem: null } : await defaultSecrets();
    // An export a kill cut off left its part file beside its target: gone before anything else starts.
    const unfinished = new UnfinishedExports(opts.dataDir);
    await unfinished.removeLeftovers();
    return new MatchdeskEngine(withHostDefaults(opts), db, dbPath, clock, secrets, keychainProblem, { privacyNotice, unfinished });
  } catch (error) {
    db.close();
    throw error;
  }
}

type Listener = (payload: never) => void;

class MatchdeskEngine implements Engine {
  private readonly listeners = new Map<EventName, Set<Listener>>();
  private readonly timing: CallTiming;
  private readonly credits: ServiceCredits;
  private readonly rowTiming: RowTiming;
  private readonly demo = new DemoService();
  private readonly mappingPreviews = new MappingPreviews();
  private readonly jobs: JobBoard;
  private readonly textIndexJobs: TextIndexJobs;
  private readonly connections: Connections;
  private readonly prep: ProjectPreparation;
  private readonly decisions: Decisions;
  private readonly runs: RunControl;
  private readonly refreshes: RefreshControl;
  private readonly watches: WatchControl;
  private readonly search: SearchHandlers;
  private readonly projectCalls: ProjectHandlers;
  private readonly runCalls: RunHandlers;
  private readonly reviewCalls: ReviewHandlers;
  private readonly handlers: Handlers;
  private readonly mappers: ErrorMapper[];
  private closing: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** When the last call ended (performance.now()): background work waits for a quiet moment. */
  private lastCallEnded = 0;
  /** Hosts' transfers under way (holdBackground): background work waits for them as for calls. */
  private held = 0;
  /** While the engine is idle: answers stored by an older version move (runs/answer-people.ts), then what deleted projects left behind goes. */
  private readonly cleanup: ProjectCleanup;
  private readonly answerMove: AnswerMove;
  /** Started by a run that settles rows from the cache or reads replies, stopped when no run is going; null once it could not start, or when turned off. */
  private verdictThread: VerdictThread | null | undefined;
  /** A worker for reads that would hold the engine's thread for seconds on a large file; started when one is asked. */
  private readonly reading: ReadingThread;
  /** Counts the rows changed at a large project's last refresh off the engine's thread; null where reads are made here. */
  private readonly changedRows: ChangedRowsCounter | null;
  readonly privacyNotice: string | null;

  constructor(
    private readonly opts: ReturnType<typeof withHostDefaults>,
    private readonly db: Database,
    readonly dbPath: string,
    clock: Clock,
    private readonly secrets: SecretStore,
    private readonly keychainProblem: string | null,
    atStart: { privacyNotice: string | null; unfinished: UnfinishedExports },
  ) {
    this.privacyNotice = atStart.privacyNotice;
    this.mappers = [mapKnownErrors, diskFullIn(opts.dataDir)];
    this.timing = new CallTiming(db);
    this.credits = new ServiceCredits(db);
    this.rowTiming = new RowTiming(db);
    const now = new Date(clock.now()).toISOString();
    markInterruptedRuns(db, now);
    markInterruptedRefreshes(db, now);
    JobBoard.markInterrupted(db, now, ['run', 'refresh']);
    const jobs = (this.jobs = new JobBoard(db, clock, (progress) => this.emit('job.progress', progress)));
    this.textIndexJobs = new TextIndexJobs(jobs, (projectId) => stopRowTextIndexFill(db, projectId), () => clock.now());
    deleteAbandonedImports(db, new Date(clock.now() - ABANDONED_IMPORT_MS).toISOString());
    const readsElsewhere = (project: ProjectRecord) => this.readsPast(project.rowCount, LISTS_WALKED_HERE);
    const enterOn = (action: Action, projectId: number, entry?: Entry) => enter(action, projectId, requireProject(db, projectId).name, this.underWay, entry);
    // Synchronous: the table refuses a run or a refresh (its own kind too, being started or going), never makes it wait.
    const admitOn = (action: Action) => (projectId: number) => void admit(action, this.underWay.kinds(projectId), requireProject(db, projectId).name);
    const exportDir = opts.exportDir ?? join(opts.dataDir, 'exports');
    this.connections = new Connections({ db, clock, secrets, mappers: this.mappers, onCredits: (scope, c) => this.credits.record(scope, c), fetch: opts.fetch, clientClock: opts.clock });
    const connections = this.connections;
    this.reading = new ReadingThread(() => VerdictThread.start(dbPath, READING_CACHE_MB));
    // A host that waits for its answers (the CLI) shows no event: it counts the rows a refresh changed as it goes.
    this.changedRows = opts.readsElsewhere ? new ChangedRowsCounter(db, this.reading, (counted) => this.emit('project.changedCount', counted), opts.readHereUpTo) : null;
    const changed = this.changedRows?.count;
    this.decisions = new Decisions(db, clock, changed);
    this.prep = new ProjectPreparation({
      jobs,
      db,
      activeScope: () => connections.activeScope(),
      runBusy: (projectId) => this.runs.isBusy(projectId),
      walkElsewhere: (project) => (readsElsewhere(project) ? this.reading.rowList : undefined),
      verdicts: () => this.verdicts(),
      plansEnded: () => this.letGoAfterWork(),
    });
    const shared = { db, clock, jobs, timing: this.timing, rowTiming: this.rowTiming, settings: () => getSettings(db), client: (n: number) => connections.activeClient(n) };
    // A run may start beside its project's first plan, following it (runs/plan-frontier.ts): that plan is let be.
    const admitRun = (projectId: number) => {
      const kinds = this.underWay.kinds(projectId);
      const followed = this.prep.frontier(projectId) ? kinds.indexOf('plan') : -1;
      if (followed >= 0) kinds.splice(followed, 1);
      admit('run', kinds, requireProject(db, projectId).name);
    };
    this.runs = new RunControl({
      ...shared,
      verdicts: () => this.verdicts(),
      noneGoing: () => this.letGoAfterWork(),
      ensurePlan: (id) => this.prep.ensurePlan(id, 'run'),
      followPlan: (id) => this.prep.frontier(id),
      admit: admitRun,
    });
    this.refreshes = new RefreshControl({
      ...shared,
      service: () => connections.activeScope(),
      admit: admitOn('refresh'),
      onProgress: (p) => this.watches.refreshProgress(p),
      noneGoing: () => this.letGoAfterWork(),
    });
    this.watches = new WatchControl({
      db,
      clock,
      refreshes: this.refreshes,
      connection: async (profileId) => {
        const profile = getProfile(db, profileId);
        if (!profile) throw new EngineError('invalid_input', `The watch's connection profile "${profileId}" was removed. Set the watch again with a profile.`, 'no_profile');
        // Looked up now, even with a client made before, so a profile whose secret is gone blocks the watch before
        // anything is listed or sent.
        await connections.secretOf(profile);
        return { scope: scopeOf(profile), client: (concurrency) => connections.clientFor(profile, concurrency) };
      },
      selectedProfileId: () => getSettings(db).activeProfileId,
      onImportant: (found) => this.emit('watch.important', found),
      ready: async (projectId) => void (await this.prep.planned(projectId)),
    });
    if (opts.watchSweepMs) this.watches.startBackground(opts.watchSweepMs);
    this.search = createSearchHandlers({
      db,
      clock,
      clientForActiveProfile: async () => ({ client: await connections.activeClient(), profile: connections.activeProfile()! }),
      jobs,
      settings: () => connections.settings(),
      exportDir,
      unfinished: atStart.unfinished,
    });
    const cleanUp = () => this.cleanUp();
    const prep = this.prep;
    this.projectCalls = createProjectHandlers({ db, clock, changed, prep, jobs, connections, demo: this.demo, mappingPreviews: this.mappingPreviews, resourcesDir: opts.resourcesDir, enter: enterOn, cleanUp });
    this.runCalls = createRunHandlers({
      ...shared,
      runs: this.runs,
      jobs,
      prep,
      connections,
      credits: this.credits,
      reading: this.reading,
      readsElsewhere,
      readsPast: (rows, hereUpTo) => this.readsPast(rows, hereUpTo),
      underWay: this.underWay,
      cleanUp,
      exportDir,
      unfinished: atStart.unfinished,
      exportHalves: {
        worker: () => (this.opts.verdictWorker === false || this.closing ? null : ExportHalfThread.start(dbPath, HALF_CACHE_MB)),
        ...(opts.exportHalvesFrom !== undefined ? { fromRows: opts.exportHalvesFrom } : {}),
      },
    });
    this.reviewCalls = createReviewHandlers({ db, clock, decisions: this.decisions, jobs, prep, changedRows: this.changedRows, changed, reading: this.reading, readsElsewhere, enter: enterOn, isIdle: () => this.isIdle(), textIndex: this.textIndexJobs });
    // The demo's world moves on before its first refresh, so that refresh shows who moved and who left.
    const beforeRefresh = () => connections.activeProfile()?.id === DEMO_PROFILE_ID && this.demo.moveOnForRefresh();
    this.handlers = {
      // A host answers this itself while the engine starts (facade/starting-engine.ts); the engine is ready by now.
      'app.startup': () => ({ state: 'ready' }),
      'app.info': () => ({
        version: opts.version ?? appVersion(),
        host: opts.host,
        dataDir: opts.dataDir,
        secrets: this.secrets.kind,
        keychainProblem: this.keychainProblem,
        demoRunning: this.demo.running !== null,
      }),
      ...createJobHandlers(jobs, { stored: { run: this.runs, refresh: this.refreshes }, search: (searchId) => this.search.cancel(searchId) }),
      ...createProfileHandlers(db, connections),
      ...this.projectCalls.handlers,
      ...this.runCalls.handlers,
      ...this.reviewCalls.handlers,
      ...createRefreshHandlers({ refreshes: this.refreshes, prep, reading: this.reading, readsElsewhere, beforeStart: () => void beforeRefresh() }),
      ...createWatchHandlers({ db, watches: this.watches, prep, exportDir }),
      ...this.search.handlers,
    };
    // A text filter waits for its project's index to fill (long in a large project): its job says how far it is.
    onRowTextIndexProgress(db, (progress) => this.textIndexJobs.tell(progress));
    // Projects deleted (or imports abandoned) before a quit or a crash may have left rows behind: their removal goes on.
    this.cleanup = new ProjectCleanup(db, () => this.isIdle());
    this.answerMove = new AnswerMove(db, () => this.isIdle(), answerMoveJob(jobs));
    void this.answerMove.wake().then(() => this.cleanup.wake());
  }

  /** What is under way on a project, for the overlap table (jobs/concurrency.ts). */
  private readonly underWay: UnderWay = {
    kinds: (projectId) => {
      const kinds = new Set([...this.jobs.kinds(null).filter((kind) => kind === 'cacheClear'), ...(projectId === null ? [] : this.jobs.kinds(projectId))]);
      // A run or refresh being started (logging in, planning) is one before its job opens.
      if (projectId !== null && this.runs.isBusy(projectId)) kinds.add('run');
      if (projectId !== null && this.refreshes.isBusy(projectId)) kinds.add('refresh');
      return [...kinds];
    },
    settled: (projectId, kind) => this.jobs.settled(projectId, kind),
    cancel: (projectId, kind) => (kind === 'run' ? this.runs.cancel(projectId) : this.refreshes.cancel(projectId)),
  };

  async call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>> {
    if (this.closing) return { ok: false, error: { kind: 'internal', message: 'Matchdesk is closing; try again after it restarts.' } };
    return (await this.tracked(dispatch(this.handlers, this.mappers, name, input))) as CallResult<K>;
  }

  async invoke<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
    const parsed = calls[name].input.safeParse(input ?? {});
    if (!parsed.success) throw new EngineError('invalid_input', parsed.error.issues.map((i) => i.message).join('; '));
    const handler = this.handlers[name] as ((input: CallParsedInput<K>) => Promise<CallOutput<K>>) | undefined;
    if (!handler) throw new EngineError('invalid_input', `"${name}" is not available in this host.`);
    return this.tracked(handler(parsed.data as CallParsedInput<K>));
  }

  holdBackground(): () => void {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      this.lastCallEnded = performance.now();
    };
  }

  /** A call under way: closing waits for it, and background work for its end. */
  private async tracked<T>(pending: Promise<T>): Promise<T> {
    this.inFlight.add(pending);
    try {
      return await pending;
    } finally {
      this.inFlight.delete(pending);
      this.lastCallEnded = performance.now();
    }
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  runSettled(projectId: number): Promise<RunProgress | null> {
    return this.runs.settled(projectId);
  }

  refreshSettled(projectId: number): Promise<RefreshProgress | null> {
    return this.refreshes.settled(projectId);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // An import or an export part-way is cancelled: it undoes what it began rather than meet a closed database. A
      // mapping being planned is not: the user saved it, so its plan gets the wait below, and is redone when next needed
      // if that cuts it off.
      this.projectCalls.close();
      this.runCalls.close();
      // An accept of confident rows stops before its next slice and keeps those written: they are one action undo reverts.
      this.reviewCalls.close(CLOSING);
      // A long read on the worker (a cold walk takes seconds) is not waited for: its figure is not needed any more.
      this.reading.close();
      const counting = this.changedRows?.close();
      await this.cleanup.stop();
      await this.answerMove.stop();
      // A background watch's refresh is paused below with the others; the next start's sweep goes on with it.
      const sweeping = this.watches.stopBackground();
      await this.runs.closeAll(this.opts.closeGraceMs);
      await this.refreshes.closeAll(this.opts.closeGraceMs);
      await sweeping;
      await this.search.close();
      // An import or a plan still writing would find the database gone: let it finish, within reason.
      await within(Promise.allSettled([...this.inFlight]), CLOSE_GRACE_MS, undefined);
      await this.demo.close().catch(() => undefined);
      await this.verdictThread?.close();
      await counting;
      // A damaged file is written to no more (store/damage-watch.ts); the connection still closes.
      if (!damageOf(this.db)) {
        // Figures kept for the next session's estimates: a full disk loses them, never the close.
        try {
          this.timing.save();
          this.credits.save();
        } catch {
          // The next session starts from the figures saved before.
        }
      }
      this.db.close();
    })();
    return this.closing;
  }

  /** The verdict worker, started on first use; null when it is turned off, could not start or failed. */
  private verdicts(): VerdictThread | null {
    if (this.verdictThread === undefined) this.verdictThread = this.opts.verdictWorker === false || this.closing ? null : VerdictThread.start(this.dbPath);
    return this.verdictThread?.usable ? this.verdictThread : null;
  }

  /**
   * Lets go of what long work held, once none goes: the verdict worker once no run or plan goes (the next starts
   * another), the digests of queries and people once no run, plan or refresh does (the next reads them again). Kept,
   * they stayed resident for the engine's whole life, under the memory of every step after (the export's peak at 1M:
   * the worker's heap and page cache, the digests' ~25 MB; docs/performance.md, "Memory").
   */
  private letGoAfterWork(): void {
    if (this.closing || this.runs.anyBusy()) return;
    if (!this.prep.anyPlanning && !this.refreshes.anyBusy()) DigestIds.forgetAll(this.db);
    if (!this.verdictThread || this.prep.planGoing) return;
    const thread = this.verdictThread;
    this.verdictThread = undefined;
    void thread.close();
  }

  /** Nothing asked of the engine for a moment and nothing running in it: when background work may take a turn. */
  private isIdle(): boolean {
    return (
      this.closing === null &&
      this.inFlight.size === 0 &&
      this.held === 0 &&
      performance.now() - this.lastCallEnded >= IDLE_AFTER_MS &&
      !this.prep.anyPlanning &&
      !this.runs.anyBusy() &&
      !this.refreshes.anyBusy()
    );
  }

  /**
   * Removes what a deleted project left and gives freed pages back to the disk (ProjectCleanup): while the engine is
   * idle, or before returning where nobody waits on the engine meanwhile (the CLI, which may exit as soon as the call
   * returns).
   */
  private async cleanUp(): Promise<void> {
    if (!this.opts.readsElsewhere) await this.cleanup.finishNow();
    else void this.cleanup.wake();
  }

  /** Whether a read over `rows` goes to the reading worker: past `hereUpTo` (or readHereUpTo), unless the host waits anyway. */
  private readsPast(rows: number, hereUpTo: number): boolean {
    return this.opts.readsElsewhere && rows > (this.opts.readHereUpTo ?? hereUpTo);
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: Events[E]) => void)(payload);
      } catch {
        // A listener's failure is the host's problem; the run or import goes on.
      }
    }
  }
}
