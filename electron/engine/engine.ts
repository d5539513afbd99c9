// The engine facade: every call of shared/contract.ts (except the host's own dialogs) over one SQLite file, the
// secret store and the People Data Service. Hosts (Electron IPC, the browser host, the CLI) only relay.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import {
  calls,
  type AppInfo,
  type CallInput,
  type CallName,
  type CallOutput,
  type CallParsedInput,
  type CallResult,
  type BulkDecision,
  type ContractError,
  type DecisionsProgress,
  type EventName,
  type Events,
  type ExportProgress,
  type PlanProgress,
  type FailedQuery,
  type ProfileInput,
  type ProfileTestResult,
  type ProjectSummary,
  type RefreshProgress,
  type RunProgress,
} from '../../shared/contract';
import type { Profile, Settings } from '../../shared/model';
import { ServiceClient, ServiceError, type Credentials } from './api';
import { appVersion } from './app-version';
import { CLOSING, CancellableCalls } from './cancellable-calls';
import { systemClock, type Clock } from './clock';
import { DEMO_PROFILE_ID, DEMO_PROFILE_NAME, DEMO_PROJECT_NAME, DEMO_SHEET, DemoService, findResourcesDir } from './demo/demo-service';
import { dispatch, type Handlers } from './dispatch';
import { KeyedWork } from './keyed-work';
import { EngineError, notFound, toContractError, type ErrorMapper } from './engine-errors';
import { ExportError, UnfinishedExports } from './export';
import { applyHeapPolicy } from './heap-policy';
import { deleteAbandonedImports, importProject } from './projects/import-project';
import { deleteProject, renameProject } from './projects/manage-projects';
import { ProjectCleanup } from './projects/project-cleanup';
import { AnswerMove } from './runs/answer-people';
import { readyProjectIds, requireProject, type ProjectRecord } from './rows/project-record';
import { listProjectSummaries, projectDetail, projectSummary } from './projects/project-summary';
import { LastWords } from './last-words';
import { progressPace } from './progress-pace';
import { Decisions } from './review/decisions';
import { learnFromDecisions, learningSummary, learningToStartFrom, patternPage, resetLearning, reviewGroups } from './review/learning';
import { ChangedRowsCounter } from './review/changed-count';
import { LISTS_WALKED_HERE, reviewPage, type ChangedCount } from './review/review-page';
import { reviewCounts } from './review/view-counts';
import { rowDetail } from './review/row-detail';
import { onRowTextIndexProgress, prefillRowTextIndex } from './review/row-text-index';
import { RefreshControl, markInterruptedRefreshes } from './refresh';
import { WatchControl, changesExport, importantMarks, markColumnValue, markRows } from './watch';
import { clearAnswers } from './runs/clear-answers';
import { CallTiming } from './rows/call-timing';
import { ServiceCredits } from './runs/service-credits';
import { RowTiming } from './rows/row-timing';
import { VerdictCopy } from './runs/copied-verdicts';
import { verdictBasis } from './runs/verdict-basis';
import { exportProject } from './runs/export-project';
import { MappingPreviews } from './runs/mapping-preview';
import { planProject, type PlanRequest } from './runs/plan-queries';
import { describeQuery, plannedQuery } from './runs/query-records';
import { reassessRows, unassessedProbe } from './runs/reassess-rows';
import { RunControl } from './runs/run-control';
import { createSearchHandlers, type SearchHandlers } from './search';
import { runPreview } from './runs/run-preview';
import { markInterruptedRuns } from './runs/run-records';
import { stateRowsHint } from './rows/row-status';
import { NO_SCOPE, scopeId, scopeOf, type ServiceScope } from './rows/service-scope';
import { READING_CACHE_MB, ReadingThread, readRows } from './runs/reading-thread';
import { VerdictThread } from './runs/verdict-thread';
import { KeychainUnavailable, KeychainSecretStore, SessionSecretStore, probeKeychain, type SecretStore } from './secrets';
import { SheetError, listSheets } from './sheets';
import {
  DatabaseNeedsUpgrade,
  DatabaseTooNew,
  DatabaseUnreadable,
  InvalidSetting,
  MigrationFailed,
  CACHE_COUNTED_HERE,
  cacheEntriesBound,
  cacheStatsQuery,
  damageOf,
  toCacheStats,
  type CacheStats,
  deleteProfile,
  getLookups,
  getProfile,
  getSettings,
  isDiskFull,
  listProfiles,
  makeDataFolderPrivate,
  openDatabase,
  saveProfile,
  updateSettings,
} from './store';

export interface EngineOptions {
  /** The database goes to `${dataDir}/matchdesk.sqlite`. */
  dataDir: string;
  host: 'electron' | 'web' | 'cli';
  /** Default: the OS keychain when it works here, else secrets for this session only. */
  secrets?: SecretStore;
  clock?: Clock;
  fetch?: typeof fetch;
  version?: string;
  /** Where export.run writes when no destination is given (the browser host turns the file into a download). */
  exportDir?: string;
  /** The folder holding demo/sample-people.csv; found beside the app or the repo when absent. */
  resourcesDir?: string;
  /** False: a run works out rows' verdicts on the engine's own thread instead of the verdict worker's (runs/verdict-thread.ts). */
  verdictWorker?: boolean;
  /**
   * Rows up to which the engine reads a figure or list that reads them all on its own thread: a refresh's changed rows
   * (default review/changed-rows.ts COUNTED_HERE), the cache's answers (store/lookups.ts CACHE_COUNTED_HERE), a
   * project's rows for the review's lists (review-page.ts LISTS_WALKED_HERE). More are read by a worker
   * (runs/reading-thread.ts) while the engine answers other calls. The CLI reads them all itself.
   */
  readHereUpTo?: number;
  /**
   * How long closing waits for a run's and a refresh's calls in flight, and for a refresh's rows being brought up to
   * date, before leaving them to be resumed. Default 10 s.
   */
  closeGraceMs?: number;
  /** How often the app looks for due watches and runs them (default 5 minutes); the CLI never does (`refresh --due` does). */
  watchSweepMs?: number;
}

/** How often the desktop app and the browser host look for due watches. */
const WATCH_SWEEP_MS = 5 * 60_000;

export interface Engine {
  /** Parses input with the contract and never throws: every failure is a ContractError. */
  call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>>;
  /** The same calls without the envelope, for hosts and tests: parsed with the contract, typed errors thrown. */
  invoke<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  /**
   * Holds background work (filling a text index) back while a host serves the user something that is not a call,
   * a download or an upload; returns the release. Background work gives the event loop back only between slices.
   */
  holdBackground(): () => void;
  /** Resolves when the project's current run has stopped (at once when none runs), with its final progress. */
  runSettled(projectId: number): Promise<RunProgress | null>;
  /** Resolves when the project's current refresh has stopped (at once when none runs), with its final progress. */
  refreshSettled(projectId: number): Promise<RefreshProgress | null>;
  /** Pauses runs cleanly (everything landed is committed), stops the demo simulator, closes the database. */
  close(): Promise<void>;
  readonly dbPath: string;
  /** What this start made private in the data folder (it was open to other users), for the host to show once; else null. */
  readonly privacyNotice: string | null;
}

export const DATABASE_FILE = 'matchdesk.sqlite';
/** An import that has not written a batch for this long was cut off (a crash or a kill), not slow. */
const ABANDONED_IMPORT_MS = 10 * 60_000;
/** How long closing waits for calls still working (an import, a plan) before it closes the database anyway. */
const CLOSE_GRACE_MS = 30_000;
/** How long the engine must have had no call before background work (filling a text index) takes a turn. */
const IDLE_AFTER_MS = 250;

export async function createEngine(opts: EngineOptions): Promise<Engine> {
  applyHeapPolicy();
  const clock = opts.clock ?? systemClock;
  const dbPath = join(opts.dataDir, DATABASE_FILE);
  const privacyNotice = makePrivate(opts.dataDir);
  const db = openDatabase(dbPath);
  try {
    // Planning a 100,000-row sheet inserts a few hundred thousand keys in hash order: with SQLite's default 2 MB
    // page cache nearly every insert reads a page back from the file. 16 MB measured as fast as 64 MB for planning,
    // the run and the review, and holds the engine's memory lower (docs/performance.md, "SQLite").
    db.pragma('cache_size = -16384');
    // The WAL's checkpoint point follows the file's size (store/wal-budget.ts): a run needs little room beyond its file.
    const { secrets, keychainProblem } = opts.secrets ? { secrets: opts.secrets, keychainProblem: null } : await defaultSecrets();
    // An export a kill cut off left its part file beside its target: gone before anything else starts.
    const unfinished = new UnfinishedExports(opts.dataDir);
    await unfinished.removeLeftovers();
    return new MatchdeskEngine(opts, db, dbPath, clock, secrets, keychainProblem, { privacyNotice, unfinished });
  } catch (error) {
    db.close();
    throw error;
  }
}

function makePrivate(dataDir: string): string | null {
  try {
    return makeDataFolderPrivate(dataDir);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Matchdesk could not make its data folder "${dataDir}" private (${reason}). Check that the folder is yours and that you may change it.`, { cause: error });
  }
}

async function defaultSecrets(): Promise<{ secrets: SecretStore; keychainProblem: string | null }> {
  const probe = await probeKeychain();
  return probe.ok ? { secrets: new KeychainSecretStore(), keychainProblem: null } : { secrets: new SessionSecretStore(), keychainProblem: probe.reason };
}

type Listener = (payload: never) => void;

class MatchdeskEngine implements Engine {
  private readonly listeners = new Map<EventName, Set<Listener>>();
  /** Secrets the user chose to keep for this session only, and the demo's: never written anywhere. */
  private readonly sessionSecrets = new SessionSecretStore();
  private readonly clients = new Map<string, { client: ServiceClient; concurrency: number }>();
  private readonly timing: CallTiming;
  private readonly credits: ServiceCredits;
  private readonly rowTiming: RowTiming;
  private readonly demo = new DemoService();
  private readonly decisions: Decisions;
  private readonly runs: RunControl;
  private readonly refreshes: RefreshControl;
  private readonly watches: WatchControl;
  /** Projects whose plan is being (re)computed, and when that ends: nothing else may touch their rows meanwhile. */
  private readonly planning = new KeyedWork<number>();
  /** Projects whose rows all carry a verdict of the confidence model (see ensureAssessed). */
  private readonly assessed = new Set<number>();
  /** Imports under way by file, mappings being saved (planned) and exports by project: the user may cancel each part-way. */
  private readonly imports = new CancellableCalls<string>();
  private readonly mappingSaves = new CancellableCalls<number>();
  /** Mapping previews: going on by project and the screen that asked (a newer one lets the same screen's older one go), and the last few kept. */
  private readonly mappingPreviews = new MappingPreviews();
  private readonly exports = new CancellableCalls<number>();
  /** Accepts of a project's confident rows (long for a large queue): cancelled, they take back their rows; closing keeps them. */
  private readonly accepts = new CancellableCalls<number>();
  /** Learnings from a project's decisions: cancelled (or the engine closing), they change nothing. */
  private readonly learns = new CancellableCalls<number>();
  /** The last word of each decision over many rows, export and mapping saved going on: what a screen opened meanwhile shows. */
  private readonly bulkWords = new LastWords<DecisionsProgress>();
  private readonly exportWords = new LastWords<ExportProgress>();
  private readonly mappingWords = new LastWords<PlanProgress>();
  /** A clearing of the cache under way, and what it removed once done. */
  private clearing: Promise<{ removed: number }> | null = null;
  private readonly search: SearchHandlers;
  private readonly handlers: Handlers;
  private readonly mappers: ErrorMapper[] = [mapKnownErrors, (err) => this.diskFull(err)];
  private closing: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** When the last call ended (performance.now()): background work waits for a quiet moment. */
  private lastCallEnded = 0;
  /** Hosts' transfers under way (holdBackground): background work waits for them as for calls. */
  private held = 0;
  /** Removes what deleted projects left behind, while the engine is idle. */
  private readonly cleanup: ProjectCleanup;
  private readonly answerMove: AnswerMove;
  /** Started by the first run that settles rows from the cache; null once it could not start, or when turned off. */
  private verdictThread: VerdictThread | null | undefined;
  /** A worker for reads that would hold the engine's thread for seconds on a large file; started when one is asked. */
  private readonly reading: ReadingThread;
  /** Counts the rows changed at a large project's last refresh off the engine's thread; null in the CLI. */
  private readonly changedRows: ChangedRowsCounter | null;
  /** How the figures count them: the counter's, or walked on the spot (undefined). */
  private readonly changed: ChangedCount | undefined;
  readonly privacyNotice: string | null;
  /** The profile chosen for this engine's life only (profiles.select forThisSession), over the saved one. */
  private sessionProfileId: string | null = null;
  /** Exports' part files while they are written, so that a kill leaves none behind for long. */
  private readonly unfinished: UnfinishedExports;

  constructor(
    private readonly opts: EngineOptions,
    private readonly db: Database,
    readonly dbPath: string,
    private readonly clock: Clock,
    private readonly secrets: SecretStore,
    private readonly keychainProblem: string | null,
    atStart: { privacyNotice: string | null; unfinished: UnfinishedExports },
  ) {
    this.privacyNotice = atStart.privacyNotice;
    this.unfinished = atStart.unfinished;
    this.timing = new CallTiming(db);
    this.credits = new ServiceCredits(db);
    this.rowTiming = new RowTiming(db);
    const now = this.now();
    markInterruptedRuns(db, now);
    markInterruptedRefreshes(db, now);
    deleteAbandonedImports(db, new Date(clock.now() - ABANDONED_IMPORT_MS).toISOString());
    this.reading = new ReadingThread(() => VerdictThread.start(dbPath, READING_CACHE_MB));
    // The CLI waits for its answers and shows no event: it counts the rows a refresh changed as it goes.
    this.changedRows = opts.host === 'cli' ? null : new ChangedRowsCounter(db, this.reading, (counted) => this.emit('project.changedCount', counted), opts.readHereUpTo);
    this.changed = this.changedRows?.count;
    this.decisions = new Decisions(db, clock, this.changed);
    this.runs = new RunControl({
      db,
      clock,
      timing: this.timing,
      rowTiming: this.rowTiming,
      verdicts: () => this.verdicts(),
      settings: () => getSettings(db),
      client: (concurrency) => this.activeClient(concurrency),
      ensurePlan: (projectId) => this.ensurePlan(projectId),
      onProgress: (p) => this.emit('run.progress', p),
    });
    this.refreshes = new RefreshControl({
      db,
      clock,
      timing: this.timing,
      rowTiming: this.rowTiming,
      settings: () => getSettings(db),
      service: () => this.activeScope(),
      client: (concurrency) => this.activeClient(concurrency),
      refuseWhileRunning: (projectId) => {
        this.refuseWhileRewriting(projectId);
        if (this.runs.isBusy(projectId)) throw new EngineError('busy', 'A run of this project is going. Let it finish (or pause it) before refreshing.');
      },
      onProgress: (p) => {
        // The watch hears its refresh end first, so a screen reloading on the event sees the watch's result.
        this.watches.refreshProgress(p);
        this.emit('refresh.progress', p);
      },
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
        await this.secretOf(profile);
        return { scope: scopeOf(profile), client: (concurrency) => this.clientFor(profile, concurrency) };
      },
      selectedProfileId: () => getSettings(db).activeProfileId,
      onImportant: (found) => this.emit('watch.important', found),
      ready: async (projectId) => void (await this.plannedProject(projectId)),
    });
    if (opts.host !== 'cli') this.watches.startBackground(opts.watchSweepMs ?? WATCH_SWEEP_MS);
    this.search = createSearchHandlers({
      db,
      clock,
      clientForActiveProfile: async () => {
        const client = await this.activeClient();
        return { client, profile: this.activeProfile()! };
      },
      emit: (event, payload) => this.emit(event, payload),
      settings: () => this.settings(),
      exportDir: this.exportDir(),
      unfinished: this.unfinished,
    });
    this.handlers = { ...this.buildHandlers(), ...this.search.handlers };
    // A text filter waits for its project's index to fill (long in a large project): the review says how far it is.
    onRowTextIndexProgress(db, (progress) => this.emit('review.textIndex', progress));
    // Projects deleted (or imports abandoned) before a quit or a crash may have left rows behind: their removal goes on.
    this.cleanup = new ProjectCleanup(db, () => this.isIdle());
    void this.cleanup.wake();
    // Answers an older version stored move to the current layout in the background (runs/answer-people.ts); the pages
    // their records took are then given back.
    this.answerMove = new AnswerMove(db, () => this.isIdle(), (progress) => this.emit('cache.moving', progress));
    void this.answerMove.wake().then(() => this.cleanup.wake());
  }

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
      this.imports.cancelAll();
      this.exports.cancelAll();
      this.mappingPreviews.cancelAll();
      // An accept of confident rows stops before its next slice and keeps those written: they are one action undo reverts.
      this.accepts.cancelAll(CLOSING);
      this.learns.cancelAll();
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
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
      await this.demo.close().catch(() => undefined);
      await this.verdictThread?.close();
      await counting;
      // A damaged file is written to no more (store/damage-watch.ts); the connection still closes.
      if (!damageOf(this.db)) {
        this.timing.save();
        this.credits.save();
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

  // ---------- the calls ----------

  private buildHandlers(): Handlers {
    const db = this.db;
    return {
      'app.info': (): AppInfo => ({
        version: this.opts.version ?? appVersion(),
        host: this.opts.host,
        dataDir: this.opts.dataDir,
        secrets: this.secrets.kind,
        keychainProblem: this.keychainProblem,
        demoRunning: this.demo.running !== null,
      }),

      'profiles.list': () => listProfiles(db),
      'profiles.save': (input) => this.saveProfile(input),
      'profiles.test': (input) => this.testProfile(input.id),
      'profiles.remove': (input) => this.removeProfile(input.id),
      'profiles.select': (input) => this.selectProfile(input.id, input.forThisSession),
      'demo.start': () => this.startDemo(),

      'projects.list': () => listProjectSummaries(db, this.changed, this.clock.now()),
      'projects.sheets': (input) => listSheets(input.file),
      'projects.import': (input) =>
        this.imports.run(input.file, async (signal) => {
          try {
            const id = await importProject(db, this.clock, input, (progress) => this.emit('import.progress', { file: input.file, ...progress }), { signal });
            return projectDetail(db, id, this.changed);
          } finally {
            // A cancelled import left its rows to the cleanup.
            if (signal.aborted) await this.cleanUp();
          }
        }),
      'projects.cancelImport': (input) => ({ cancelled: this.imports.cancel(input.file) }),
      'projects.get': (input) => projectDetail(db, input.projectId, this.changed),
      'projects.rename': (input) => {
        renameProject(db, input.projectId, input.name, this.now());
        return projectSummary(db, requireProject(db, input.projectId), this.changed);
      },
      'projects.delete': async (input) => {
        requireProject(db, input.projectId);
        // Not refused while the cache is cleared (refuseWhileRewriting): that only sends rows back, gone or not.
        this.refuseWhilePlanning(input.projectId);
        this.decisions.refuseWhileBulk(input.projectId);
        if (this.runs.isBusy(input.projectId)) await this.runs.cancel(input.projectId);
        if (this.refreshes.isBusy(input.projectId)) await this.refreshes.cancel(input.projectId);
        deleteProject(db, input.projectId);
        this.mappingPreviews.forget(input.projectId);
        await this.cleanUp();
      },

      'mapping.preview': (input) => this.mappingPreviews.preview(db, requireProject(db, input.projectId), input),
      'mapping.save': async (input) => {
        const project = requireProject(db, input.projectId);
        this.refuseWhileBusy(project.id, project.name);
        await this.withPlanLock(project.id, () =>
          this.mappingSaves.run(project.id, (signal) =>
            this.mappingWords.keep(project.id, async (say) => {
              await this.plan(project, { mapping: input.mapping, strategies: input.strategies, scope: this.activeScope() ?? NO_SCOPE }, signal, say);
              // Rows that keep their candidates are compared with them again: another column is other evidence.
              if (JSON.stringify(project.mapping) !== JSON.stringify(input.mapping)) await reassessRows(db, project.id, input.mapping, 'all');
            }),
          ),
        );
        db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(this.now(), project.id);
        return projectDetail(db, project.id, this.changed);
      },
      'mapping.cancel': (input) => ({ cancelled: this.mappingSaves.cancel(input.projectId) }),
      'mapping.underWay': (input) => this.mappingWords.get(requireProject(db, input.projectId).id),

      'run.preview': async (input) => {
        const project = requireProject(db, input.projectId);
        if (!this.runs.isBusy(project.id)) await this.ensurePlan(project.id);
        const settings = getSettings(db);
        // Rows whose verdicts the run would copy from another project of this sheet go at a copy's pace (row-timing.ts).
        const copies = VerdictCopy.available(db, project.id, verdictBasis(project.mapping, settings.autoAccept));
        // A large project not run yet has its queries counted on the reading worker (a walk of every row).
        return runPreview(
          db,
          project.id,
          project.rowCount,
          project.blankRows,
          {
            offline: input.offline,
            freshAfterMs: this.freshAfter(settings),
            concurrency: settings.concurrency,
            secondsPerCall: this.timing.secondsPerCall(this.activeScope()),
            secondsPerRow: this.rowTiming.secondsPerRow(copies ? 'copy' : 'run'),
            creditsRemaining: this.credits.remaining(this.activeScope()),
          },
          this.readsElsewhere(project) ? this.reading.rows : undefined,
        );
      },
      'run.start': (input) => {
        this.refuseWhileRewriting(input.projectId);
        this.refuseWhileRefreshing(input.projectId);
        return this.runs.start(input.projectId, {
          offline: input.offline,
          ...(input.concurrency ? { concurrency: input.concurrency } : {}),
          ...(input.autoAccept !== undefined ? { autoAccept: input.autoAccept } : {}),
          ...(input.minConfidence !== undefined ? { minConfidence: input.minConfidence } : {}),
        });
      },
      'run.pause': (input) => this.runs.pause(input.projectId),
      'run.resume': (input) => {
        this.refuseWhileRewriting(input.projectId);
        this.refuseWhileRefreshing(input.projectId);
        return this.runs.resume(input.projectId);
      },
      'run.cancel': (input) => this.runs.cancel(input.projectId),
      'run.status': (input) => this.runs.status(input.projectId),
      'run.failures': (input) => this.failures(input.projectId),

      'review.page': async (input) => {
        const project = await this.plannedProject(input.projectId);
        if (input.order !== 'file') await this.ensureAssessed(project);
        if (input.pattern) return patternPage(db, await this.ensureAssessed(project), input.pattern, input.offset, input.limit, this.changed);
        // The changed rows' filter needs their list: one walked in the background is waited for, not walked again.
        if (input.changedAtLastRefresh) await this.changedRows?.walked(input.projectId);
        // A large project's lists (a sort by confidence takes seconds) are walked on the reading worker.
        const page = await reviewPage(db, input.projectId, input, { changed: this.changed, walk: this.readsElsewhere(project) ? this.reading.rowList : undefined });
        // Someone is reviewing: the text index fills while they read, so their first text filter need not wait for it.
        prefillRowTextIndex(db, input.projectId, () => this.isIdle());
        return page;
      },
      'review.counts': async (input) => {
        await this.plannedProject(input.projectId);
        if (input.changedAtLastRefresh) await this.changedRows?.walked(input.projectId);
        return reviewCounts(db, input.projectId, input, this.changed);
      },
      'review.row': async (input) => rowDetail(db, await this.plannedProject(input.projectId), input.rowIndex),
      // A decision made while the project's confident rows are accepted, or an action undone, waits for that to end.
      'decisions.choose': (input) =>
        this.afterBulk(input.projectId, async () => this.decisions.choose(await this.plannedProject(input.projectId), input.rowIndex, input.rank, input.applyToIdentical)),
      'decisions.reject': (input) =>
        this.afterBulk(input.projectId, async () => this.decisions.reject(await this.plannedProject(input.projectId), input.rowIndex, input.applyToIdentical)),
      'decisions.skip': (input) => this.afterBulk(input.projectId, async () => this.decisions.skip(await this.plannedProject(input.projectId), input.rowIndex)),
      'decisions.clear': (input) => this.afterBulk(input.projectId, async () => this.decisions.clear(await this.plannedProject(input.projectId), input.rowIndex)),
      'decisions.undo': (input) =>
        this.afterBulk(input.projectId, () => this.tellingBulk(input.projectId, 'undo', (tell) => this.decisions.undo(requireProject(db, input.projectId), tell))),
      'decisions.record': (input) => this.afterBulk(input.projectId, async () => this.decisions.record(await this.plannedProject(input.projectId), input.entries)),
      'decisions.acceptPreview': async (input) => {
        const project = await this.ensureAssessed(await this.plannedProject(input.projectId));
        return this.decisions.acceptPreview(project, getSettings(db).autoAccept, this.readsElsewhere(project) ? this.reading.rows : undefined);
      },
      // Cancellable from the start: a cancel while the project's verdicts are made (ensureAssessed) accepts nothing.
      'decisions.acceptAtOrAbove': (input) =>
        this.afterBulk(input.projectId, () =>
          this.accepts.run(input.projectId, async (signal) => {
            const project = await this.ensureAssessed(await this.plannedProject(input.projectId));
            const rule = getSettings(db).autoAccept;
            return this.tellingBulk(project.id, 'accept', (tell) => this.decisions.acceptAtOrAbove(project, rule, input.minConfidence ?? rule.minConfidence, tell, signal));
          }),
        ),
      'decisions.cancelAccept': (input) => ({ cancelled: this.accepts.cancel(input.projectId) }),
      // Learning waits for an accept or undo under way, then works out every lift before writing any: cancelled, it changes nothing.
      'learning.learn': (input) =>
        this.afterBulk(input.projectId, () =>
          this.learns.run(input.projectId, async (signal) => {
            const project = await this.ensureAssessed(await this.plannedProject(input.projectId));
            const startFrom = input.startFromProjectId === undefined ? null : learningToStartFrom(db, requireProject(db, input.startFromProjectId), project);
            const at = new Date(this.clock.now()).toISOString();
            return this.tellingBulk(project.id, 'learn', (tell) => learnFromDecisions(db, project, at, startFrom, tell, signal));
          }),
        ),
      'learning.summary': (input) => learningSummary(db, requireProject(db, input.projectId)),
      'learning.reset': (input) => this.afterBulk(input.projectId, async () => resetLearning(db, await this.plannedProject(input.projectId))),
      'learning.cancel': (input) => ({ cancelled: this.learns.cancel(input.projectId) }),
      'review.groups': async (input) => reviewGroups(db, await this.ensureAssessed(await this.plannedProject(input.projectId))),
      'decisions.underWay': (input) => this.bulkWords.get(requireProject(db, input.projectId).id),

      'refresh.preview': async (input) => {
        const project = await this.plannedProject(input.projectId);
        return this.refreshes.preview(input.projectId, input.olderThanDays ?? null, this.readsElsewhere(project) ? this.reading.rows : undefined);
      },
      'refresh.start': async (input) => {
        await this.plannedProject(input.projectId);
        // The demo's world moves on before its first refresh, so that refresh shows who moved and who left.
        if (this.activeProfile()?.id === DEMO_PROFILE_ID) this.demo.moveOnForRefresh();
        return this.refreshes.start(input.projectId, input.olderThanDays ?? null);
      },
      'refresh.pause': (input) => this.refreshes.pause(input.projectId),
      'refresh.resume': (input) => this.refreshes.resume(input.projectId),
      'refresh.cancel': (input) => this.refreshes.cancel(input.projectId),
      'refresh.status': (input) => this.refreshes.status(input.projectId),

      'watch.set': (input) => this.watches.set(input),
      'watch.clear': (input) => this.watches.clear(input.projectId),
      'watch.list': () => this.watches.list(),
      'watch.runDue': async (input) => {
        await this.plannedProject(input.projectId);
        return this.watches.runDue(input.projectId);
      },
      'watch.changes': (input) => this.watches.changes(input.projectId, input.since),
      'watch.exportChanges': (input) => changesExport(db, input, this.exportDir()),
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
      'watch.inbox': (input) => this.watches.inbox(input.projectId),
      'watch.markSeen': (input) => this.watches.markSeen(input.projectId),

      'export.run': (input) =>
        this.exports.run(input.projectId, async (signal) => {
          const project = await this.plannedProject(input.projectId);
          return this.exportWords.keep(project.id, (say) =>
            exportProject(
              db,
              project,
              input,
              this.exportDir(),
              (progress) => {
                say(progress);
                this.emit('export.progress', progress);
              },
              signal,
              this.unfinished,
            ),
          );
        }),
      'export.cancel': (input) => ({ cancelled: this.exports.cancel(input.projectId) }),
      'export.underWay': (input) => this.exportWords.get(requireProject(db, input.projectId).id),

      'settings.get': () => this.settings(),
      'settings.update': (input) => {
        if (input.activeProfileId) this.requireProfile(input.activeProfileId);
        const before = getSettings(db);
        const after = updateSettings(db, input);
        if (after.concurrency !== before.concurrency) this.clients.clear();
        return after;
      },
      'cache.stats': () => this.cacheFigures(),
      'cache.clear': async () => {
        const cleared = await this.clearCache();
        await this.cleanUp();
        return cleared;
      },
    };
  }

  // ---------- profiles and secrets ----------

  private async saveProfile(input: ProfileInput): Promise<Profile> {
    const db = this.db;
    const existing = input.id ? getProfile(db, input.id) : null;
    if (input.id && !existing) throw notFound(`The profile "${input.name}"`);
    const id = existing?.id ?? `p_${randomUUID()}`;
    const login = input.kind === 'api_key' ? null : (input.login?.trim() ?? '');
    if (login === '') {
      throw new EngineError('invalid_input', input.kind === 'service_account' ? 'Enter the client id of the service account.' : 'Enter the username to log in with.');
    }
    if (!input.secret && (!existing || existing.kind !== input.kind)) {
      const what = input.kind === 'service_account' ? 'client secret' : input.kind === 'password' ? 'password' : 'API key';
      throw new EngineError('invalid_input', `Enter the ${what} of this profile.`);
    }
    if (input.secret) {
      // The secret first: a keychain that refuses leaves no profile behind without its secret.
      if (input.sessionOnly && this.secrets.kind === 'keychain') {
        await this.sessionSecrets.set(id, input.secret);
        await this.secrets.delete(id).catch(() => false);
      } else {
        await this.secrets.set(id, input.secret);
        await this.sessionSecrets.delete(id);
      }
    }
    const profile: Profile = { id, name: input.name, baseUrl: input.baseUrl.trim(), orgId: input.orgId, kind: input.kind, login, createdAt: existing?.createdAt ?? this.now() };
    saveProfile(db, profile);
    this.clients.delete(id);
    return getProfile(db, id)!;
  }

  private async testProfile(id: string): Promise<ProfileTestResult> {
    const profile = this.requireProfile(id);
    try {
      const client = await this.clientFor(profile);
      await client.testConnection();
      return { ok: true, reason: null, error: null };
    } catch (error) {
      if (error instanceof ServiceError || error instanceof EngineError || error instanceof KeychainUnavailable) {
        return { ok: false, reason: error.message, error: toContractError(error, this.mappers) };
      }
      throw error;
    }
  }

  private async removeProfile(id: string): Promise<void> {
    this.requireProfile(id);
    // The secret first: a keychain that refuses keeps the profile, so the user can try again.
    await this.secrets.delete(id);
    await this.sessionSecrets.delete(id);
    deleteProfile(this.db, id);
    this.clients.delete(id);
    if (getSettings(this.db).activeProfileId === id) updateSettings(this.db, { activeProfileId: null });
    if (this.sessionProfileId === id) this.sessionProfileId = null;
  }

  /**
   * For this session only, the saved choice stays as it was: a `matchdesk match` with MATCHDESK_* variables made its
   * profile (whose secret lives in that process alone) the one the app and the browser host then failed to run with.
   */
  private selectProfile(id: string | null, forThisSession: boolean): Settings {
    if (id !== null) this.requireProfile(id);
    if (forThisSession) {
      this.sessionProfileId = id;
      return this.settings();
    }
    this.sessionProfileId = null;
    return updateSettings(this.db, { activeProfileId: id });
  }

  /** The saved settings, with the profile chosen for this session when there is one. */
  private settings(): Settings {
    const saved = getSettings(this.db);
    return this.sessionProfileId === null ? saved : { ...saved, activeProfileId: this.sessionProfileId };
  }

  private requireProfile(id: string): Profile {
    const profile = getProfile(this.db, id);
    if (!profile) throw notFound('That connection profile');
    return profile;
  }

  private activeProfile(): Profile | null {
    const id = this.settings().activeProfileId;
    return id ? getProfile(this.db, id) : null;
  }

  private activeScope(): ServiceScope | null {
    const profile = this.activeProfile();
    return profile ? scopeOf(profile) : null;
  }

  private async activeClient(concurrency?: number): Promise<ServiceClient> {
    const profile = this.activeProfile();
    if (!profile) {
      throw new EngineError('invalid_input', 'No connection is selected. Add a connection profile on the Account screen (or try the demo), then run again.', 'no_profile');
    }
    return this.clientFor(profile, concurrency);
  }

  /** The profile's secret; throws (no_secret) when none is kept, for this session or in the keychain. */
  private async secretOf(profile: Profile): Promise<string> {
    const secret = (await this.sessionSecrets.get(profile.id)) ?? (profile.id === DEMO_PROFILE_ID ? null : await this.secrets.get(profile.id));
    if (secret) return secret;
    throw new EngineError(
      'login_failed',
      profile.id === DEMO_PROFILE_ID
        ? 'The demo service is not running. Start the demo again to use it.'
        : `No secret is stored for the profile "${profile.name}" (it may have been kept for an earlier session only). Enter it again in the profile.`,
      'no_secret',
    );
  }

  /** One client per profile (its token and limiter live there), made again when the profile or concurrency changes. */
  private async clientFor(profile: Profile, concurrency = getSettings(this.db).concurrency): Promise<ServiceClient> {
    const cached = this.clients.get(profile.id);
    if (cached && cached.concurrency === concurrency) return cached.client;
    const secret = await this.secretOf(profile);
    const client = new ServiceClient({
      baseUrl: profile.baseUrl,
      orgId: profile.orgId,
      credentials: credentialsOf(profile, secret),
      concurrency,
      onCredits: (credits) => this.credits.record(scopeOf(profile), credits),
      ...(this.opts.fetch ? { fetch: this.opts.fetch } : {}),
      ...(this.opts.clock ? { clock: this.opts.clock } : {}),
    });
    this.clients.set(profile.id, { client, concurrency });
    return client;
  }

  // ---------- demo ----------

  private async startDemo(): Promise<{ profile: Profile; project: ProjectSummary }> {
    const sim = await this.demo.start();
    const existing = getProfile(this.db, DEMO_PROFILE_ID);
    await this.sessionSecrets.set(DEMO_PROFILE_ID, sim.demo.clientSecret);
    const profile: Profile = {
      id: DEMO_PROFILE_ID,
      name: DEMO_PROFILE_NAME,
      baseUrl: sim.baseUrl,
      orgId: sim.orgId,
      kind: 'service_account',
      login: sim.demo.clientId,
      createdAt: existing?.createdAt ?? this.now(),
    };
    saveProfile(this.db, profile);
    this.clients.delete(DEMO_PROFILE_ID);
    updateSettings(this.db, { activeProfileId: DEMO_PROFILE_ID });

    const reuse = this.db.prepare("SELECT id FROM projects WHERE name = ? AND status = 'ready' ORDER BY id DESC LIMIT 1").pluck().get(DEMO_PROJECT_NAME) as number | undefined;
    if (reuse !== undefined) return { profile, project: projectSummary(this.db, requireProject(this.db, reuse), this.changed) };
    const resources = findResourcesDir(this.opts.resourcesDir);
    if (!resources) throw new EngineError('not_found', 'The demo sheet (resources/demo/sample-people.csv) is missing from this installation.');
    const file = join(resources, DEMO_SHEET);
    const id = await importProject(this.db, this.clock, { file, name: DEMO_PROJECT_NAME }, (progress) => this.emit('import.progress', { file, ...progress }));
    return { profile, project: projectSummary(this.db, requireProject(this.db, id), this.changed) };
  }

  // ---------- plans, runs, cache ----------

  /** Re-plans a project whose queries were made for another service (or whose plan was cut off). */
  private async ensurePlan(projectId: number): Promise<void> {
    // A plan under way (a mapping being saved, a run or another screen's plan) is waited for, then looked at again. In
    // this loop, not planning.settled: with none under way it goes on in the same turn, so two callers cannot both
    // find none and then both start one.
    for (let pending = this.planning.current(projectId); pending; pending = this.planning.current(projectId)) await pending;
    const project = requireProject(this.db, projectId);
    const scope = this.activeScope();
    const wanted = scope ?? NO_SCOPE;
    if (project.planScope !== null && (scope === null || project.planScope === scopeId(wanted))) return;
    await this.withPlanLock(projectId, () => this.plan(project, { mapping: project.mapping, strategies: project.strategies, scope: wanted }));
  }

  /**
   * Plans the project's queries, telling how far it is (plan.progress): at the start, a few times a second, at the end;
   * `say` is given every word told.
   */
  private async plan(project: ProjectRecord, req: PlanRequest, signal?: AbortSignal, say: (progress: PlanProgress) => void = () => undefined): Promise<void> {
    const pace = progressPace();
    const tell = (rowsPlanned: number) => {
      const progress = { projectId: project.id, rowsPlanned, rowsTotal: project.rowCount };
      say(progress);
      this.emit('plan.progress', progress);
    };
    tell(0);
    await planProject(
      this.db,
      project.id,
      req,
      (rowsPlanned) => {
        if (rowsPlanned < project.rowCount && pace()) tell(rowsPlanned);
      },
      signal,
    );
    tell(project.rowCount);
  }

  /**
   * The project, its rows' statuses made: one never planned (just imported, its mapping not saved yet) is planned
   * first with the mapping it stores, as a run would be. One being planned or run is left to that.
   */
  private async plannedProject(projectId: number): Promise<ProjectRecord> {
    const project = requireProject(this.db, projectId);
    if (project.planScope !== null || this.planning.has(projectId) || this.runs.isBusy(projectId)) return project;
    await this.ensurePlan(projectId);
    return requireProject(this.db, projectId);
  }

  /**
   * Rows settled before the confidence model existed get their verdict once per project and session, before
   * anything reads verdicts in bulk (sorting by confidence, accepting at a threshold); rows settled since carry one.
   */
  private async ensureAssessed(project: ProjectRecord): Promise<ProjectRecord> {
    if (this.assessed.has(project.id)) return project;
    // Finding that no row needs it reads the whole project: in a large one a worker looks first.
    const { sql, params } = unassessedProbe(project.id);
    const probe = this.readsElsewhere(project) ? this.reading.rowList(sql, params) : null;
    if (probe && (await probe.catch(() => null))?.length === 0) {
      this.assessed.add(project.id);
      return project;
    }
    await reassessRows(this.db, project.id, project.mapping, 'unassessed');
    this.assessed.add(project.id);
    return project;
  }

  /** Nothing asked of the engine for a moment and nothing running in it: when background work may take a turn. */
  private isIdle(): boolean {
    return (
      this.closing === null &&
      this.inFlight.size === 0 &&
      this.held === 0 &&
      performance.now() - this.lastCallEnded >= IDLE_AFTER_MS &&
      this.planning.size === 0 &&
      !this.runs.anyBusy() &&
      !this.refreshes.anyBusy()
    );
  }

  private withPlanLock<T>(projectId: number, work: () => Promise<T>): Promise<T> {
    return this.planning.run(projectId, 'This project is being prepared (its queries are being planned).', work);
  }

  private refuseWhilePlanning(projectId: number): void {
    this.planning.refuse(projectId);
  }

  /**
   * Refuses while something rewrites the project's rows a piece at a time: a plan, an accept or an undo of many rows,
   * or the clearing of the cache (every project's rows).
   */
  private refuseWhileRewriting(projectId: number): void {
    this.refuseWhileClearing();
    this.refuseWhilePlanning(projectId);
    this.decisions.refuseWhileBulk(projectId);
  }

  private refuseWhileBusy(projectId: number, name: string): void {
    this.refuseWhileRewriting(projectId);
    if (this.runs.isBusy(projectId)) throw new EngineError('busy', `A run of "${name}" is going. Pause or cancel it first.`);
    if (this.refreshes.isBusy(projectId)) throw new EngineError('busy', `A refresh of "${name}" is going. Pause or cancel it first.`);
  }

  /** Decides once no action changes the project's rows a slice at a time (review/decisions.ts: an accept, an undo). */
  private async afterBulk<T>(projectId: number, decide: () => T | Promise<T>): Promise<T> {
    await this.decisions.bulkSettled(projectId);
    return decide();
  }

  /**
   * Runs a decision over many rows with a teller that sends how far it is (decisions.progress: the start and the end
   * always, a few times a second between) and keeps the last word for decisions.underWay until the decision ends.
   */
  private tellingBulk<T>(projectId: number, action: BulkDecision, decide: (tell: (rowsDone: number, rowsTotal: number) => void) => Promise<T>): Promise<T> {
    const pace = progressPace();
    return this.bulkWords.keep(projectId, (say) =>
      decide((rowsDone, rowsTotal) => {
        const progress = { projectId, action, rowsDone, rowsTotal };
        say(progress);
        if (rowsDone === 0 || rowsDone >= rowsTotal || pace()) this.emit('decisions.progress', progress);
      }),
    );
  }

  /** A run and a refresh would both write the project's rows: one at a time. */
  private refuseWhileRefreshing(projectId: number): void {
    if (this.refreshes.isBusy(projectId)) throw new EngineError('busy', 'A refresh of this project is going. Let it finish (or pause it) before running.');
  }

  private failures(projectId: number): FailedQuery[] {
    requireProject(this.db, projectId);
    const groups = this.db
      .prepare(
        `SELECT query_key AS key, strategy, count(*) AS n, min(row_index) AS first FROM row_status ${stateRowsHint(this.db, projectId, 'error')}
         WHERE project_id = ? AND state = 'error' AND query_key IS NOT NULL GROUP BY query_key ORDER BY first LIMIT 1000`,
      )
      .all(projectId) as { key: string; strategy: FailedQuery['strategy']; n: number; first: number }[];
    const lookups = getLookups(
      this.db,
      groups.map((g) => g.key),
      Number.MIN_SAFE_INTEGER,
    );
    return groups.map((g) => {
      const lookup = lookups.get(g.key);
      const query = lookup?.query ?? plannedQuery(this.db, projectId, g.first, g.key);
      return {
        queryKey: g.key,
        strategy: g.strategy,
        terms: query ? describeQuery(query) : '',
        error: lookup?.error?.message ?? 'The query failed without a message.',
        errorKind: lookup?.error?.kind ?? null,
        rows: g.n,
      };
    });
  }

  /** A write the disk had no room for: which folder, and that what was saved before stays (each write is a transaction). */
  private diskFull(err: unknown): ContractError | null {
    if (!isDiskFull(err)) return null;
    const message = `The disk holding Matchdesk's data (${this.opts.dataDir}) is full. Free some space on it, then try again: nothing saved before is lost.`;
    return { kind: 'database', message, code: 'disk_full' };
  }

  /**
   * Removes what a deleted project left and gives freed pages back to the disk (ProjectCleanup): while the engine is
   * idle, or before returning in the CLI, which may exit as soon as the call returns and where nobody waits on the
   * engine meanwhile.
   */
  private async cleanUp(): Promise<void> {
    if (this.opts.host === 'cli') await this.cleanup.finishNow();
    else void this.cleanup.wake();
  }

  /**
   * Empties the cache. Rows settled from it go back to waiting on their first query (a decision is kept, with
   * the chosen person stored beside it), so the next run asks again instead of showing answers that are gone. A slice
   * of rows at a time (runs/clear-answers.ts); a second ask while it works waits for the same.
   */
  private clearCache(): Promise<{ removed: number }> {
    if (this.clearing) return this.clearing;
    const busy = readyProjectIds(this.db)
      .map((id) => requireProject(this.db, id))
      .find((p) => this.runs.isBusy(p.id) || this.refreshes.isBusy(p.id) || this.planning.has(p.id));
    if (busy) throw new EngineError('busy', `A run, refresh or plan of "${busy.name}" is going. Let it finish (or pause it) before clearing the cache.`);
    this.clearing = clearAnswers(this.db)
      .then((removed) => ({ removed }))
      .finally(() => (this.clearing = null));
    return this.clearing;
  }

  /** While the cache is cleared its rows are sent back to be asked again: nothing may settle or plan rows meanwhile. */
  private refuseWhileClearing(): void {
    if (this.clearing) throw new EngineError('busy', 'The cache is being cleared. Try again in a moment.');
  }

  /**
   * Whether a read over all of a project's rows (a review list, the run's preview) goes to the reading worker: in a
   * project over LISTS_WALKED_HERE rows, except in the CLI, which waits for its answer anyway.
   */
  private readsElsewhere(project: ProjectRecord): boolean {
    return this.readsPast(project.rowCount, LISTS_WALKED_HERE);
  }

  /** Whether a read over `rows` goes to the reading worker: past `hereUpTo` (or readHereUpTo), except in the CLI. */
  private readsPast(rows: number, hereUpTo: number): boolean {
    return this.opts.host !== 'cli' && rows > (this.opts.readHereUpTo ?? hereUpTo);
  }

  /**
   * The cache's figures. Counting them reads every answer (the bytes of its JSON): seconds for a large cache, far
   * longer after a restart, in which the engine (in Electron the main process, and its
   * window) answered nothing. A large cache is counted by the reading worker meanwhile, except in the CLI, which waits.
   */
  private async cacheFigures(): Promise<CacheStats> {
    const { sql, params } = cacheStatsQuery(this.freshAfter(getSettings(this.db)));
    const elsewhere = this.readsPast(cacheEntriesBound(this.db), CACHE_COUNTED_HERE) ? this.reading.rows : undefined;
    return toCacheStats((await readRows(this.db, sql, params, elsewhere))[0]);
  }

  private freshAfter(settings: Settings): number {
    return this.clock.now() - settings.cacheTtlDays * 86_400_000;
  }

  private exportDir(): string {
    return this.opts.exportDir ?? join(this.opts.dataDir, 'exports');
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

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function credentialsOf(profile: Profile, secret: string): Credentials {
  switch (profile.kind) {
    case 'service_account':
      return { kind: 'service_account', clientId: profile.login ?? '', clientSecret: secret };
    case 'password':
      return { kind: 'password', username: profile.login ?? '', password: secret };
    case 'api_key':
      return { kind: 'api_key', apiKey: secret };
  }
}

/** Typed errors of the engine's modules, in words the user can act on. */
const mapKnownErrors: ErrorMapper = (err): ContractError | null => {
  if (err instanceof SheetError) return { kind: 'sheet', message: err.message, code: err.code };
  if (err instanceof ServiceError) {
    switch (err.kind) {
      case 'login_failed':
      case 'unauthorized':
        return { kind: 'login_failed', message: err.message, code: err.kind };
      case 'forbidden':
        return { kind: 'forbidden', message: err.message, code: '403' };
      case 'payment_required':
        return { kind: 'payment_required', message: err.message, code: '402' };
      case 'cancelled':
        return { kind: 'cancelled', message: err.message };
      default:
        return { kind: 'service', message: err.message, code: err.status === undefined ? err.kind : String(err.status) };
    }
  }
  if (err instanceof KeychainUnavailable) return { kind: 'keychain_unavailable', message: err.message };
  if (err instanceof DatabaseTooNew || err instanceof DatabaseUnreadable || err instanceof DatabaseNeedsUpgrade || err instanceof MigrationFailed) {
    return { kind: 'database', message: err.message, code: err.name };
  }
  if (err instanceof InvalidSetting) return { kind: 'invalid_input', message: err.message };
  if (err instanceof ExportError) return { kind: 'invalid_input', message: err.message, code: `export_${err.code}` };
  return null;
};
