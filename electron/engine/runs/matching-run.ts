import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { RunProgress, RunStatus } from '../../../shared/contract';
import type { Mapping, Settings, Strategy } from '../../../shared/model';
import { MAX_QUERIES_PER_FIND, toErrorInfo, type ServiceClient } from '../api';
import type { Clock } from '../clock';
import type { JobHandle } from '../jobs/job-board';
import { putLookups, stopReason, type Lookup } from '../store';
import { PersonDigests } from '../store/person-digests';
import { answerFacts } from '../matching';
import { answersOnFile, storedAnswers, type StoredAnswer } from './answer-facts';
import type { CallTiming } from '../rows/call-timing';
import { VerdictCopy, type CopiedRow } from './copied-verdicts';
import { HeldRows } from './held-rows';
import { LowestWaiting } from './lowest-waiting';
import type { PlanFrontier } from './plan-frontier';
import { IdBits } from '../id-bits';
import { storedQueryFields, type FindFields } from '../store/query-text';
import { nextStep, pendingQueryCount, pendingRowsAfter, storedQueryText, type PendingRow } from './query-records';
import { RowResolution, pendingRowCount, reopenAskable, type Answer, type ResolutionCount, type WaitingRow } from './row-resolution';
import { jobVerdicts, preparedReply, type LandedReply, type PreparedAnswers, type VerdictContext, type VerdictJob, type VerdictValues } from './row-verdict';
import { runFigure, type RowTiming } from '../rows/row-timing';
import { saveRun, type RunCounters } from './run-records';
import { CallFailures, PAUSE_GRACE_MS, RunStop } from '../rows/stop-request';
import type { AnswerResults, VerdictResults, VerdictThread } from './verdict-thread';
import { ProgressTimer } from '../progress-pace';

export interface MatchingRunDeps {
  db: Database;
  clock: Clock;
  /** Null for an offline run: nothing is sent. */
  client: ServiceClient | null;
  settings: Settings;
  mapping: Mapping;
  timing: CallTiming;
  /** Where a run the cache answered says what its rows took (the next previews' estimate). */
  rowTiming: RowTiming;
  /** The verdict worker, or null to work verdicts out on the run's own thread. */
  verdicts: () => VerdictThread | null;
  rowCount: number;
  /**
   * The project's first plan, going as the run starts: the run settles the rows planned so far and goes on as pages
   * are written (runs/plan-frontier.ts). Null or absent: the plan is whole.
   */
  frontier?: PlanFrontier | null;
  onProgress: (progress: RunProgress) => void;
  /** Opens the verdict copy's own job (kind verdictCopy) when the run has verdicts to copy. */
  copyJob?: () => JobHandle;
}

type StopStatus = Exclude<RunStatus, 'running' | 'done'>;

/** A query of this walk not answered yet: sent or about to be, with the walked rows waiting on its answer. */
interface Asked {
  /** The query's id (runs/query-ids.ts). */
  key: number;
  /** The query's terms as the call's body writes them, from its stored text (store/query-text.ts storedQueryFields). */
  fields: FindFields;
  strategy: Strategy;
  rows: WaitingRow[];
  /** The lowest of `rows`: a row moved on in memory may join after rows below it. */
  low: number;
}

/** Rows an answer found nobody for, with when it was fetched. */
interface Nobody {
  rows: readonly WaitingRow[];
  fetchedAt: number;
}

/** A call's answers, kept until the next commit. */
interface LandedCall {
  asked: Asked[];
  /** When it landed (ms): when the service gave its answers, and when the rows they settle are decided. */
  fetchedAt: number;
  /** Its answers made ready to store, with the verdicts of the rows waiting when it landed. */
  prepared: PreparedAnswers;
}

/** A cached answer with candidates, and the rows of a page it settles once their verdicts are worked out. */
interface FoundAnswer {
  /** The query's id. */
  key: number;
  rows: WaitingRow[];
  strategy: Strategy;
  fetchedAt: number;
  /** The rows' values when the worker read the answer and worked them out already; else its job's index in `jobs`. */
  values: VerdictValues[] | null;
  job: number;
  /** The answer's people's ids as stored, when known here: an accepted row's person is then bound, not looked up. */
  people: readonly number[] | null;
}

/** A page's answers as the verdict worker read them, by query id: with each row's values when it found candidates. */
type ReadAnswers = Map<number, StoredAnswer & { values?: VerdictValues[] }>;

/** What a page's rows wait on before they are written: everything but the calls it queued. */
interface PageWork {
  failed: [WaitingRow, number][];
  notFetched: WaitingRow[];
  /** Answers that found nobody at the rows' last step: they end with no candidates. */
  nobody: { rows: WaitingRow[]; fetchedAt: number }[];
  /** Answers with candidates; those whose rows' values are still to work out have a job in `jobs`. */
  found: FoundAnswer[];
  jobs: VerdictJob[];
  /** Answers stored without facts, whose facts were made from their candidates here. */
  foundFacts: { rows: WaitingRow[]; answer: Answer }[];
}

/** Rows per page of a walk: one cache read and one transaction each. */
const WALK_ROWS = 1000;
/** Queries waiting to be sent before the walk waits for a call to land: enough to keep every call slot busy. */
const QUEUED_CALLS = 2;
/** How often commits of calls and pages save the run's counters (persistDue). */
const COUNTERS_MS = 2_000;
/**
 * Pages read while earlier ones wait on their verdicts: enough to keep the worker busy, memory a few pages. With
 * two, a page the worker read held up the pages behind it, and the run's thread sat idle.
 */
const PAGES_AHEAD = 4;
/**
 * Of pages whose queries the cache mostly answers, every this many the verdict worker reads the answers itself:
 * the run's thread then reads one page while the worker reads the other, and each thread has about as much to do:
 * the run's thread also writes the rows, the worker works out the verdicts (docs/performance.md, "The cached re-run").
 */
const PAGES_PER_WORKER_READ = 2;

/**
 * One matching run of a project, walk by walk through the rows' waterfall of queries. Each walk reads the rows
 * waiting on a query in row order, a page at a time: a fresh cached answer settles a row as soon as its verdict is
 * worked out (on the verdict worker's thread while the next page is read), the first row to ask a query the cache
 * lacks sends it (in calls of up to 100, with bounded concurrency), and later rows asking a query on its way wait
 * with it. Landed calls are committed as they land; the rows they settle are held until every row before them is
 * settled and written in row order (held-rows.ts). A row that found nobody moves on to its next query in memory, in
 * the same walk, and its step is written with its result. Where another project holds the same sheet, rows it
 * settled alike are copied from it a span ahead of the pages, in SQL (copied-verdicts.ts), and only the rest are read.
 * Memory holds a few pages, the rows held and the calls on their way, never the sheet's queries; a crash loses at
 * most the calls in flight and the one whose reply is being read (and the verdicts and moves of rows not written
 * yet, worked out again from the cache).
 *
 * A landed call is committed on the next turn of the event loop, with every call that landed meanwhile (several
 * while a page or a commit keeps the loop busy). Committing on a timer wrote less, but
 * whatever landed in the last interval was lost at a crash and asked again (test/safety/crashes.test.ts).
 */
export class MatchingRun {
  readonly settled: Promise<RunProgress>;
  private status: RunStatus = 'running';
  private readonly stopping = new RunStop<StopStatus>(() => this.status === 'running');
  private readonly failures = new CallFailures('run');
  private message: string | null = null;
  /** The kind of service failure that stopped the run, when one did (RunProgress.stopKind). */
  private stopKind: string | null = null;
  private readonly resolution: RowResolution;
  /** Queries whose call failed in this run, with when: later rows asking them fail too, without a call. */
  private readonly failedKeys = new Map<number, number>();
  private readonly activeSince: number;
  private readonly doneAtStart: number;
  private readonly callsAtStart: number;
  /** Rows settled when this run began (by earlier runs, or with nothing to ask). */
  private rowsAtStart = 0;
  /** Rows whose verdicts this run copied from another project of the sheet: such a run is timed as a copy. */
  private copiedRows = 0;
  private pendingRows = 0;
  /** Queries whose call was turned away for a passing reason: still waiting, asked again next walk. */
  private abandoned = 0;
  /** Rows that changed in this run (settled or moved on): a walk that moves none would loop forever. */
  private moved = 0;
  /** When the counters were last saved (performance.now()). */
  private persistedAt = Number.NEGATIVE_INFINITY;
  /** At most ~10 events a second while running, and always on a change of status. */
  private readonly told = new ProgressTimer(() => this.deps.onProgress(this.progress()));
  /** This walk's queries not answered yet, by id: queued or on their way, or landed and not committed yet. */
  private readonly asked = new Map<number, Asked>();
  /** The lowest row waiting on each query of `asked`, for the watermark. */
  private readonly askedLows = new LowestWaiting<Asked>((q) => this.asked.get(q.key) === q);
  private queue: Asked[] = [];
  private readonly calls = new Set<Promise<void>>();
  /** Calls sent whose reply has not arrived yet (of `calls`, the others are being read). */
  private onWire = 0;
  private landed: LandedCall[] = [];
  /** Rows settled while calls are out, not written yet (held-rows.ts). */
  private readonly held = new HeldRows();
  private heldTimer: NodeJS.Timeout | null = null;
  /** The first row of each page read and not settled yet (and of rows moved on waiting on their verdicts): the watermark. */
  private readonly unsettledPages: number[] = [];
  /** The queries this walk met so far. */
  private seen = new IdBits();
  /** The highest query id of the pages read so far: the walk reads the text of those above it only (pendingRowsAfter). */
  private textAbove = -1;
  private commitScheduled: NodeJS.Immediate | null = null;
  private commitError: unknown = null;
  /** Pages whose rows wait on their verdicts before they are written, oldest first. */
  private readonly settling: Promise<void>[] = [];
  private pagesTaken = 0;
  /** Whether the cache answered most of the last page's queries (then the worker may read some pages' answers). */
  private mostlyCached = false;
  /** The plan followed, as far as the run has counted its rows (rows, of them without a query); rows below `counted` had their queries counted. */
  private planned = { rows: 0, withoutQuery: 0, counted: Number.POSITIVE_INFINITY };

  constructor(
    private readonly deps: MatchingRunDeps,
    readonly projectId: number,
    readonly runId: number,
    readonly offline: boolean,
    private readonly startedAt: string,
    private readonly counters: RunCounters,
  ) {
    this.resolution = new RowResolution(deps.db, projectId, deps.mapping, deps.settings.autoAccept);
    this.activeSince = deps.clock.now();
    this.doneAtStart = counters.queriesDone;
    this.callsAtStart = counters.calls;
    this.settled = this.execute();
  }

  progress(): RunProgress {
    const now = this.deps.clock.now();
    const seconds = (now - this.activeSince) / 1000;
    const rate = seconds > 0.5 ? (this.counters.queriesDone - this.doneAtStart) / seconds : 0;
    // The time left goes by rows, as the bar does (shared/progress.ts): the lookups left grow when a round adds some.
    const rowRate = seconds > 0.5 ? (this.counters.rowsResolved - this.rowsAtStart) / seconds : 0;
    const rowsLeft = Math.max(0, this.deps.rowCount - this.counters.rowsResolved);
    return {
      projectId: this.projectId,
      runId: this.runId,
      status: this.status,
      offline: this.offline,
      autoAccept: this.deps.settings.autoAccept,
      queriesTotal: this.counters.queriesTotal,
      queriesDone: this.counters.queriesDone,
      rowsTotal: this.deps.rowCount,
      rowsResolved: this.counters.rowsResolved,
      ...(this.following ? { rowsPlanned: this.planned.rows } : {}),
      calls: this.counters.calls,
      cacheHits: this.counters.cacheHits,
      errors: this.counters.errors,
      ratePerSec: Math.round(rate * 10) / 10,
      etaSeconds: this.status === 'running' && rowRate > 0 ? Math.ceil(rowsLeft / rowRate) : null,
      message: this.message,
      ...(this.stopKind === null ? {} : { stopKind: this.stopKind }),
      startedAt: this.startedAt,
      updatedAt: new Date(now).toISOString(),
    };
  }

  /** Stop sending calls; the ones in flight that land within PAUSE_GRACE_MS are kept, the rest abandoned. */
  pause(message: string | null = null): Promise<RunProgress> {
    return this.pauseWithin(PAUSE_GRACE_MS, message);
  }

  /** Stop now: calls in flight are abandoned (their queries stay unasked), everything landed is kept. */
  cancel(): Promise<RunProgress> {
    this.stopping.ask('cancelled', null);
    return this.settled;
  }

  /** Pauses, giving calls in flight `graceMs` to land before abandoning them (their queries stay waiting). */
  pauseWithin(graceMs: number, message: string | null): Promise<RunProgress> {
    this.stopping.ask('paused', message);
    return this.stopping.within(this.settled, graceMs);
  }

  /** Whether the run was asked to stop. */
  private get stopAsked(): boolean {
    return this.stopping.request !== null;
  }

  private async execute(): Promise<RunProgress> {
    // Let the caller see the run as started before any work (and any event) happens.
    await Promise.resolve();
    try {
      const { db } = this.deps;
      db.transaction(() => reopenAskable(db, this.projectId))();
      this.pendingRows = pendingRowCount(db, this.projectId);
      const frontier = this.deps.frontier;
      if (frontier) this.planned = { rows: frontier.rows, withoutQuery: frontier.withoutQuery, counted: frontier.before };
      // Rows not planned yet are neither waiting nor settled.
      this.counters.rowsResolved = (this.following ? this.planned.rows : this.deps.rowCount) - this.pendingRows;
      this.rowsAtStart = this.counters.rowsResolved;
      this.persist();
      this.told.now();
      // The copy is the run's first step, tried once when rows wait, before the queries waiting are counted: at a
      // sheet's re-run it leaves few rows or none, where the count read every row's query. Rows a walk reaches are
      // worked out as always.
      let seen: IdBits | null = new IdBits();
      // A run follows a plan only when there is nothing to copy (run-control.ts).
      if (this.pendingRows > 0 && !this.following) await this.copyFirst(seen);
      while (!this.stopAsked) {
        const following = this.following;
        this.planned.counted = following ? this.deps.frontier!.before : Number.POSITIVE_INFINITY;
        const queries = pendingQueryCount(db, this.projectId, seen ?? undefined);
        if (queries === 0 && !following) {
          // Every query is answered (a query counted both as a row's next step and as another row's first is one).
          this.counters.queriesTotal = this.counters.queriesDone;
          break;
        }
        this.counters.queriesTotal = this.counters.queriesDone + queries;
        const movedBefore = this.moved;
        const abandonedBefore = this.abandoned;
        try {
          // The first walk counts no query the copy counted.
          await this.walk(seen ?? new IdBits());
          seen = null;
        } finally {
          await this.drain();
        }
        if (this.commitError !== null) throw this.commitError;
        if (following) {
          // The plan is whole (or the run stops): every row is counted as it stands.
          this.pendingRows = pendingRowCount(db, this.projectId);
          this.counters.rowsResolved = this.deps.rowCount - this.pendingRows;
          this.persist();
          continue;
        }
        if (this.moved === movedBefore && this.abandoned === abandonedBefore && !this.stopAsked) {
          throw new Error('some rows wait on queries that are no longer planned; save the mapping again to plan them');
        }
      }
      const stop = this.stopping.request;
      this.stopKind = stop?.kind ?? null;
      this.finish(stop?.status ?? 'done', stop?.message ?? this.doneMessage());
    } catch (error) {
      this.finish('failed', `The run stopped: ${stopReason(error)}`);
    }
    return this.progress();
  }

  /**
   * One pass over the rows waiting now, in row order; returns once every page is read and settled (calls may still
   * be out). While the verdict worker works out one page's verdicts, the next page is read.
   */
  private async walk(seen: IdBits): Promise<void> {
    this.seen = seen;
    const enough = Math.max(1, this.deps.settings.concurrency) * MAX_QUERIES_PER_FIND * QUEUED_CALLS;
    try {
      for (let after = -1; !this.stopAsked && this.commitError === null; ) {
        // Read on only while the queries found so far would not keep every call slot busy: memory stays a few pages.
        while (this.queue.length >= enough && this.calls.size > 0 && !this.stopAsked) await Promise.race(this.calls);
        while (this.settling.length >= PAGES_AHEAD) await this.settling[0];
        const page = pendingRowsAfter(this.deps.db, this.projectId, after, WALK_ROWS, this.textAbove);
        if (page.length === 0) {
          if (!this.following) return;
          await this.nextPlanned();
          continue;
        }
        after = page[page.length - 1]!.rowIndex;
        for (const row of page) if (row.queryId > this.textAbove) this.textAbove = row.queryId;
        this.takePage(page, seen);
        this.sendQueued(false);
        this.told.soon();
        await nextTurn();
      }
    } finally {
      while (this.settling.length > 0) await this.settling[0];
    }
  }

  /** Whether the run follows its project's plan, not whole yet (deps.frontier). */
  private get following(): boolean {
    const frontier = this.deps.frontier;
    return frontier !== null && frontier !== undefined && !frontier.whole && !this.stopAsked;
  }

  /**
   * Waits for the plan followed to write its next page (or end), and counts the rows it planned: those with nothing
   * to ask are settled, the others wait. A plan that stops before it is whole pauses the run, keeping what it settled:
   * its resume plans the project first (its plan_scope is NULL), then goes on.
   */
  private async nextPlanned(): Promise<void> {
    const frontier = this.deps.frontier!;
    try {
      await frontier.next();
    } catch (error) {
      this.stopping.ask('paused', `The plan this run followed stopped (${stopReason(error)}); everything that landed is kept, and a resume plans the rest first.`);
    }
    const settled = frontier.withoutQuery - this.planned.withoutQuery;
    this.pendingRows += frontier.rows - this.planned.rows - settled;
    this.counters.rowsResolved += settled;
    this.planned.rows = frontier.rows;
    this.planned.withoutQuery = frontier.withoutQuery;
    this.told.soon();
  }

  /**
   * A page of waiting rows: those whose query has a fresh answer on file are settled in one transaction, once their
   * verdicts are worked out (by the verdict worker when there is one); the first to ask a query the cache lacks
   * queues it for a call now, and rows asking a query on its way wait with it. A row whose answer on file found
   * nobody follows its next steps (follow), so its page is written once, not again by the next walk.
   */
  private takePage(page: PendingRow[], seen: IdBits): void {
    const { clock } = this.deps;
    this.unsettledPages.push(page[0]!.rowIndex);
    const freshAfter = this.freshAfter();
    const context = this.resolution.verdictContext(new Date(clock.now()).toISOString());
    const before = this.settling[this.settling.length - 1];
    const reader = this.pagesTaken++ % PAGES_PER_WORKER_READ === 1 && this.mostlyCached ? this.deps.verdicts() : null;
    if (reader?.readsAnswers) {
      // The worker reads this page's answers and works out their verdicts; the page is sorted once it has, in turn.
      const { keys, rows } = rowsByKey(page);
      const answers = reader
        .answers({ context, freshAfter, keys, strategies: rows.map((same) => same[0]!.strategy), cells: rows.map((same) => same.map((r) => r.cells)) })
        .then((results) => this.readAnswers(keys, results, freshAfter))
        .catch(() => undefined);
      this.settleLater(
        // The few jobs left (rows followed to their next step) are worked out here, not queued behind later pages.
        Promise.all([answers, before]).then(([read]) => ({ work: this.pageWork(page, seen, freshAfter, read), results: null })),
        context,
        page[0]!.rowIndex,
      );
      return;
    }
    const work = this.pageWork(page, seen, freshAfter);
    const thread = work.jobs.length > 0 ? this.deps.verdicts() : null;
    if (!thread && !before) {
      this.settlePage(work, context, null, page[0]!.rowIndex);
      return;
    }
    // Pages are written in the order they were read. A worker that fails leaves its pages to this thread.
    const results = thread ? thread.verdicts(work.jobs, context).catch(() => null) : Promise.resolve(null);
    this.settleLater(
      Promise.all([results, before]).then(([verdicts]) => ({ work, results: verdicts })),
      context,
      page[0]!.rowIndex,
    );
  }

  /**
   * The run's first step, a job of its own (verdictCopy): the verdicts another project of this sheet worked out alike
   * are copied a span at a time, and the walk then reads only the rows left. Its cancel stops the copy, not the run,
   * which works the rest out as always; the run's pause or cancel stops it too, and a resume copies on.
   */
  private async copyFirst(seen: IdBits): Promise<void> {
    const copy = VerdictCopy.open(this.deps.db, this.projectId, this.resolution.basis);
    if (!copy) return;
    const job = this.deps.copyJob?.() ?? null;
    try {
      for (let after = -1; !copy.done && !this.stopAsked && this.commitError === null && !job?.signal.aborted; after = copy.through) {
        this.copyVerdicts(copy, after, seen);
        job?.progress(Math.min(copy.through + 1, copy.rows), copy.rows);
        this.told.soon();
        await nextTurn();
      }
    } catch (error) {
      job?.state('failed', `The copy stopped: ${stopReason(error)}`);
      throw error;
    }
    if (copy.done) job?.state('done', `${this.copiedRows.toLocaleString('en-US')} rows' verdicts copied from another project of this sheet.`);
    else if (job?.signal.aborted) job.state('cancelled', 'Stopped: the run works out the rest of the rows itself.');
    else job?.state('cancelled', 'Stopped with its run: a resume copies on from where it got to.');
  }

  /** The next span's verdicts copied from another project of the sheet (copied-verdicts.ts), counted as cache hits. */
  private copyVerdicts(copy: VerdictCopy, after: number, seen: IdBits): void {
    const { db, clock } = this.deps;
    db.transaction(() => {
      const copied: CopiedRow[] = copy.copyNext(after, new Date(clock.now()).toISOString(), this.freshAfter());
      for (const { queries } of copied) {
        for (const queryId of queries) {
          if (!seen.add(queryId)) continue;
          this.counters.cacheHits++;
          this.counters.queriesDone++;
          // Counted before the queries waiting are (the walk then leaves these out), at whatever step.
          this.counters.queriesTotal++;
        }
      }
      if (copied.length > 0) {
        this.copiedRows += copied.length;
        this.count({ resolved: copied.length, advanced: 0 });
        this.persist();
      }
    })();
  }

  /** The oldest answer on file this run takes (ms): offline any will do, however old; online only fresh ones (the cache TTL). */
  private freshAfter(): number {
    return this.offline ? Number.MIN_SAFE_INTEGER : this.deps.clock.now() - this.deps.settings.cacheTtlDays * 86_400_000;
  }

  /** A page's rows sorted into work, following rows whose answer on file found nobody to their next steps. */
  private pageWork(page: PendingRow[], seen: IdBits, freshAfter: number, read?: ReadAnswers): PageWork {
    const work = emptyWork();
    this.follow(this.lookUp(page, seen, work, freshAfter, false, read), seen, work, freshAfter);
    return work;
  }

  /**
   * Rows whose answer found nobody, each moved on to its next step in memory and sorted into `work` there (settled
   * from the cache, waiting on a call, or queued for one), or ending with no candidates at its last step. A row's step
   * is written only with its result: a crash before loses the move, which the next run makes again from the cache.
   */
  private follow(nobody: Nobody[], seen: IdBits, work: PageWork, freshAfter: number): void {
    while (nobody.length > 0) {
      const next: PendingRow[] = [];
      for (const { rows, fetchedAt } of nobody) {
        const last: WaitingRow[] = [];
        for (const row of rows) {
          const step = nextStep(this.deps.db, this.projectId, row);
          if (step) next.push(step);
          else last.push(row);
        }
        if (last.length > 0) work.nobody.push({ rows: last, fetchedAt });
      }
      this.count({ resolved: 0, advanced: next.length });
      nobody = next.length > 0 ? this.lookUp(next, seen, work, freshAfter, true) : [];
    }
  }

  /** The worker's answers by query id; those whose facts it could not read are read here, as a page of this thread's would be. */
  private readAnswers(keys: readonly number[], results: AnswerResults, freshAfter: number): ReadAnswers {
    const read: ReadAnswers = new Map();
    const unread: number[] = [];
    keys.forEach((key, i) => {
      const result = results[i];
      if (!result) return;
      // No facts are kept for these: an answer that found nobody has none, and the worker read the others' already.
      if (result.kind === 'unread') unread.push(key);
      else if (result.kind === 'nobody') read.set(key, { count: 0, facts: [], fetchedAt: result.fetchedAt, people: null });
      else read.set(key, { count: result.count, facts: [], fetchedAt: result.fetchedAt, values: result.values, people: result.people });
    });
    if (unread.length > 0) for (const [key, answer] of storedAnswers(this.deps.db, unread, freshAfter)) read.set(key, answer);
    return read;
  }

  /** Writes a page once its work is ready and every page read before it is written. `first`: the page's first row. */
  private settleLater(ready: Promise<{ work: PageWork; results: VerdictResults | null }>, context: VerdictContext, first: number): void {
    const settled: Promise<void> = ready
      .then(({ work, results }) => this.settlePage(work, context, results, first))
      .catch((error: unknown) => {
        this.commitError ??= error;
      })
      .finally(() => {
        this.settling.splice(this.settling.indexOf(settled), 1);
        this.pageSettled(first);
      });
    this.settling.push(settled);
  }

  /**
   * Sorts rows into the page's work by what their query has: a failure in this run, a call on its way, an answer on
   * file, or nothing yet (queued for a call). Returns the rows whose answer on file found nobody. `following`: the
   * rows were moved on to these steps in memory (follow).
   */
  private lookUp(rows: readonly PendingRow[], seen: IdBits, work: PageWork, freshAfter: number, following: boolean, read?: ReadAnswers): Nobody[] {
    // Indexed loops over a query's rows: a Map's entries, destructured, each took an array (a run looks up every row).
    const grouped = rowsByKey(rows);
    const byKey: Grouped = { keys: [], rows: [] };
    for (let i = 0; i < grouped.keys.length; i++) {
      const key = grouped.keys[i]!;
      const same = grouped.rows[i]!;
      const failedAt = this.failedKeys.get(key);
      const onItsWay = this.asked.get(key);
      if (failedAt !== undefined) {
        if (seen.add(key)) this.counters.queriesDone++;
        for (const row of same) work.failed.push([waitingRow(row, following), failedAt]);
      } else if (onItsWay) {
        const low = onItsWay.low;
        for (const row of same) {
          onItsWay.rows.push(waitingRow(row, following));
          onItsWay.low = Math.min(onItsWay.low, row.rowIndex);
        }
        if (onItsWay.low < low) this.askedLows.push(onItsWay);
      } else {
        byKey.keys.push(key);
        byKey.rows.push(same);
      }
    }
    const foundNobody: Nobody[] = [];
    const cached: ReadAnswers = read ?? (byKey.keys.length > 0 ? storedAnswers(this.deps.db, byKey.keys, freshAfter) : new Map());
    if (!following) this.mostlyCached = countCached(byKey.keys, cached) * 2 > byKey.keys.length;
    for (let i = 0; i < byKey.keys.length; i++) {
      const key = byKey.keys[i]!;
      const same = byKey.rows[i]!;
      const first = same[0]!;
      const answer = cached.get(key);
      // A query to ask whose text the walk did not read (below its threshold: pendingRowsAfter) is read now; one
      // `queries` does not hold is not asked, and its rows wait, as rows of a step with no query do.
      const toAsk = !answer && !this.offline && !seen.has(key);
      const text = toAsk ? (first.query ?? storedQueryText(this.deps.db, key)) : null;
      if (toAsk && text === null) continue;
      const firstSight = seen.add(key);
      // A next step's query was not among those the walk counted when it started (unless another row asks it first),
      // nor a query of rows planned since.
      if (firstSight && (following || first.rowIndex >= this.planned.counted)) this.counters.queriesTotal++;
      const waiting = same.map((r) => waitingRow(r, following));
      if (answer) {
        if (firstSight) {
          this.counters.cacheHits++;
          this.counters.queriesDone++;
        }
        const { fetchedAt } = answer;
        if (answer.count === 0) {
          foundNobody.push({ rows: waiting, fetchedAt });
        } else if (answer.values) {
          // Read by the worker, which asked with the same rows: a query's rows all wait on it or none do.
          work.found.push({ key, rows: waiting, strategy: first.strategy, fetchedAt, values: answer.values, job: -1, people: answer.people });
        } else if (typeof answer.facts === 'string') {
          work.found.push({ key, rows: waiting, strategy: first.strategy, fetchedAt, values: null, job: work.jobs.length, people: answer.people });
          work.jobs.push({ strategy: first.strategy, facts: answer.facts, cells: waiting.map((r) => r.cells) });
        } else work.foundFacts.push({ rows: waiting, answer: { strategy: first.strategy, facts: answer.facts, fetchedAt } });
      } else if (this.offline) {
        if (firstSight) this.counters.queriesDone++;
        work.notFetched.push(...waiting);
      } else if (firstSight) {
        const asked: Asked = { key, fields: storedQueryFields(text!), strategy: first.strategy, rows: waiting, low: lowest(waiting) };
        this.asked.set(key, asked);
        this.askedLows.push(asked);
        this.queue.push(asked);
      }
      // Else it was asked in this walk and turned away for a passing reason: the rows wait for the next walk.
    }
    return foundNobody;
  }

  /**
   * Writes what a page's answers did to its rows, in one transaction. `results`: the worker's verdicts for
   * `work.jobs`, null to work them out here (no worker, or it failed).
   */
  private settlePage(work: PageWork, context: VerdictContext, results: VerdictResults | null, first: number): void {
    const { db } = this.deps;
    // Every row of the page is settled here, held, or waits on a call: the watermark passes the page.
    this.pageSettled(first);
    // After a failed commit the run ends: rows settled by answers it rolled back are not written.
    if (this.commitError !== null) return;
    db.transaction(() => {
      if (this.settleWork(work, context, results)) this.persistDue();
    })();
    this.holdOn();
  }

  /**
   * Settles or holds the rows of `work` within the caller's transaction (settlePage); whether it had any. Rows settled
   * at once (failed, not fetched, an answer stored without facts) are few and written as they come.
   */
  private settleWork(work: PageWork, context: VerdictContext, results: VerdictResults | null): boolean {
    for (const [row, failedAt] of work.failed) this.count(this.resolution.failed([row], failedAt));
    if (work.notFetched.length > 0) this.count(this.resolution.notFetched(work.notFetched));
    for (const { rows, fetchedAt } of work.nobody) this.count(this.held.add(rows, null, fetchedAt));
    for (const { rows, answer } of work.foundFacts) this.count(this.resolution.answer(rows, answer, context.at));
    for (const found of work.found) {
      const values = found.values ?? (results ? results[found.job] : jobVerdicts(work.jobs[found.job]!, context));
      if (values) this.count(this.held.add(found.rows, values, found.fetchedAt, found.people));
      else this.settleUnread(found, context.at);
    }
    // With no call out, nothing else is about to write near these rows: those below the watermark are written now.
    this.writeHeldDue(this.calls.size === 0);
    return work.failed.length + work.notFetched.length + work.nobody.length + work.foundFacts.length + work.found.length > 0;
  }

  /** An answer whose stored facts do not read: made again from its candidates, as answersOnFile does. Missing now, its rows wait for the next walk. */
  private settleUnread({ key, rows, strategy, fetchedAt }: FoundAnswer, at: string): void {
    const answer = answersOnFile(this.deps.db, [key], fetchedAt).get(key);
    if (answer) this.count(this.resolution.answer(rows, { strategy, ...answer }, at));
  }

  /**
   * Sends the queued queries in calls of up to 100 while a call slot is free; `all`: a last, shorter call too. A call
   * gives up its slot as soon as its reply arrives, so the next one is on its way while the reply is read and its
   * answers wait for their commit. As many calls may be read beside the calls on the wire as there are slots (a crash
   * loses no more than those, and what landed since the last commit): with one, a reply waiting its turn on the worker
   * behind a page's verdicts held the next call back though its slot was free.
   */
  private sendQueued(all: boolean): void {
    const concurrency = Math.max(1, this.deps.settings.concurrency);
    while (
      !this.stopAsked &&
      this.commitError === null &&
      this.onWire < concurrency &&
      this.calls.size < concurrency * 2 &&
      (this.queue.length >= MAX_QUERIES_PER_FIND || (all && this.queue.length > 0))
    ) {
      const batch = this.queue.splice(0, MAX_QUERIES_PER_FIND);
      this.onWire++;
      let onWire = true;
      const offWire = () => {
        if (onWire) this.onWire--;
        onWire = false;
      };
      const next = () => this.sendQueued(all);
      const call: Promise<void> = this.sendCall(batch, () => {
        offWire();
        next();
      }).finally(() => {
        this.calls.delete(call);
        offWire();
        next();
      });
      this.calls.add(call);
    }
  }

  /** After a walk: the last queries sent, every call waited for, everything landed committed. */
  private async drain(): Promise<void> {
    for (;;) {
      this.sendQueued(true);
      while (this.calls.size > 0) {
        await Promise.race(this.calls);
        this.sendQueued(true);
      }
      this.commitLanded();
      // Rows the last answers moved on may wait on their verdicts, or have queued their next queries.
      while (this.settling.length > 0) await this.settling[0];
      if (this.queue.length === 0 || this.stopAsked || this.commitError !== null) break;
    }
    this.writeHeld(true);
    // Queries never sent (the run is stopping): their rows wait for the next run.
    this.queue = [];
    this.asked.clear();
    this.askedLows.clear();
  }

  /** Sends one call; its answers wait for the next commit, a failure is dealt with at once. `arrived`: its reply is in. */
  private async sendCall(asked: Asked[], arrived: () => void): Promise<void> {
    const { clock, client, timing } = this.deps;
    if (asked.length === 0 || !client) return;
    const started = clock.now();
    let fetchedAt = started;
    let prepared: PreparedAnswers;
    try {
      // The reply's bytes are read where its answers are prepared (on the worker), while the next call is on its way.
      prepared = await client.findBatchReading(
        { fields: asked.map((q) => q.fields) },
        ({ bytes }) => {
          fetchedAt = clock.now();
          arrived();
          return this.prepare(asked, bytes, fetchedAt);
        },
        { signal: this.stopping.signal },
      );
    } catch (error) {
      try {
        this.callFailed(asked, error);
      } catch (commitError) {
        this.commitError ??= commitError;
      }
      for (const q of asked) this.asked.delete(q.key);
      // The watermark may have passed held rows.
      this.holdOn();
      this.told.soon();
      return;
    }
    timing.record(client.scope, fetchedAt - started);
    this.failures.answered();
    this.landed.push({ asked, fetchedAt, prepared });
    this.commitScheduled ??= setImmediate(() => this.commitLanded());
  }

  /**
   * A call's reply read and made ready to store (its answers' facts and JSON, the waiting rows' verdicts): by the
   * worker, or here without one or when it fails. A reply that does not read fails here as the client's own reading
   * would (row-verdict.ts preparedReply).
   */
  private async prepare(asked: Asked[], bytes: Uint8Array, fetchedAt: number): Promise<PreparedAnswers> {
    const reply: LandedReply = {
      bytes,
      strategies: asked.map((q) => q.strategy),
      cells: asked.map((q) => q.rows.map((r) => r.cells)),
      context: this.resolution.verdictContext(new Date(fetchedAt).toISOString()),
    };
    const thread = this.deps.verdicts();
    if (thread) {
      const prepared = await thread.reply(reply).catch(() => null);
      if (prepared) return prepared;
    }
    return preparedReply(reply);
  }

  /**
   * Commits the landed calls' answers and every row waiting on them in one transaction. A query leaves `asked` only
   * now, so a row that asked it after it landed waited with the others and is settled here too.
   */
  private commitLanded(): void {
    if (this.commitScheduled) clearImmediate(this.commitScheduled);
    this.commitScheduled = null;
    const calls = this.landed;
    this.landed = [];
    if (calls.length === 0) return;
    const { db } = this.deps;
    const people = PersonDigests.of(db);
    try {
      db.transaction(() => {
        // Nothing is written yet in this transaction: the people known now are committed (store/digest-ids.ts).
        people.catchUp(true);
        for (const call of calls) {
          const nobody = this.commitCall(call);
          this.counters.calls++;
          this.counters.fetched += call.asked.length;
          this.counters.queriesDone += call.asked.length;
          for (const q of call.asked) this.asked.delete(q.key);
          if (nobody.length > 0) this.followLanded(nobody);
        }
        this.writeHeldDue(this.calls.size === 0);
        this.persistDue();
      })();
      // The people its answers stored are committed: the next call's transaction need not read them back to check.
      if (!db.inTransaction) people.committed();
    } catch (error) {
      this.commitError ??= error;
      return;
    } finally {
      for (const { asked } of calls) for (const q of asked) this.asked.delete(q.key);
    }
    this.holdOn();
    // Rows the answers moved on may have queued their next queries.
    this.sendQueued(false);
    this.told.soon();
  }

  /**
   * Writes held rows in a transaction of their own: those below the watermark when due by time, or `all` before the
   * run reads its rows again.
   */
  private writeHeld(all: boolean): void {
    if (this.heldTimer) clearTimeout(this.heldTimer);
    this.heldTimer = null;
    if (this.held.size === 0 || this.commitError !== null) return;
    try {
      this.deps.db.transaction(() => {
        if (all) this.writeHeldNow();
        else this.writeHeldDue(true);
        // The counters go with it every COUNTERS_MS at most, as with a call's commit: a write the hold's timer makes
        // while a slow call is out saved them each time.
        this.persistDue();
      })();
    } catch (error) {
      this.commitError ??= error;
      return;
    }
    this.told.soon();
  }

  /** Writes every held row within the caller's transaction. */
  private writeHeldNow(): void {
    if (this.held.size > 0) this.count(this.held.write(this.resolution));
  }

  /**
   * Writes the held rows below the watermark within the caller's transaction, when enough wait or they waited long
   * enough (`now`: whatever their number); every held row when memory says.
   */
  private writeHeldDue(now: boolean): void {
    if (this.held.size === 0) return;
    const low = this.watermark();
    const below = this.held.dueBelow(low) ?? (now ? low : null);
    if (below !== null) this.count(this.held.write(this.resolution, below));
  }

  /**
   * The lowest row this walk may still settle, held rows aside: a row waiting on a query not committed yet, or the
   * first of a page not settled yet. Rows before it are final.
   */
  private watermark(): number {
    let low = this.askedLows.lowest();
    for (const first of this.unsettledPages) if (first < low) low = first;
    return low;
  }

  /** A page read is settled (or failed): the watermark no longer waits on it. */
  private pageSettled(first: number): void {
    const i = this.unsettledPages.indexOf(first);
    if (i >= 0) this.unsettledPages.splice(i, 1);
  }

  /**
   * Rows below the watermark are written when due even if nothing else is committed meanwhile (a slow service, the
   * last calls); rows above it wait for a commit or a page to move it.
   */
  private holdOn(): void {
    if (this.held.size === 0 || this.held.countBelow(this.watermark(), 1) === 0) {
      if (this.heldTimer) clearTimeout(this.heldTimer);
      this.heldTimer = null;
    } else {
      this.heldTimer ??= setTimeout(() => this.writeHeld(false), this.held.waitLeft());
    }
  }

  /**
   * A landed call's answers, and the rows waiting on them held to be written with the rows of the calls landing next
   * (held-rows.ts), as its reply's reading prepared them; rows that came to wait on the call since it landed are
   * assessed here, from the facts stored with its answers.
   */
  private commitCall({ asked, fetchedAt, prepared }: LandedCall): Nobody[] {
    const people = putLookups(
      this.deps.db,
      asked.map(
        (q, i): Lookup => ({
          queryId: q.key,
          query: null,
          fetchedAt,
          status: 'ok',
          candidates: null,
          error: null,
          stored: prepared.stored[i],
        }),
      ),
    );
    const nobody: Nobody[] = [];
    const late = emptyWork();
    for (let i = 0; i < asked.length; i++) {
      const q = asked[i]!;
      if (prepared.counts[i] === 0) {
        nobody.push({ rows: q.rows, fetchedAt });
        continue;
      }
      const values = prepared.values[i]!;
      if (q.rows.length > values.length) {
        const rows = q.rows.slice(values.length);
        late.found.push({ key: q.key, rows, strategy: q.strategy, fetchedAt, values: null, job: late.jobs.length, people: people[i] ?? null });
        late.jobs.push({ strategy: q.strategy, facts: answerFacts(prepared.stored[i]!), cells: rows.map((r) => r.cells) });
      }
      this.count(this.held.add(q.rows.slice(0, values.length), values, fetchedAt, people[i]));
    }
    // Their verdicts at the answer's time, as those of the rows waiting when it landed.
    if (late.jobs.length > 0) this.settleSoon(late, fetchedAt);
    return nobody;
  }

  /**
   * Rows a landed call's answers found nobody for, moved on to their next steps (follow) once the call's queries left
   * `asked`: a next step that is another of its queries is then settled from the answer just stored.
   */
  private followLanded(nobody: Nobody[]): void {
    const work = emptyWork();
    this.follow(nobody, this.seen, work, this.freshAfter());
    this.settleSoon(work, this.deps.clock.now());
  }

  /**
   * Settles work that came of a landed call (rows that joined a query after its reply was read, rows moved on): at
   * once within the caller's transaction, or, with verdicts to work out, by the worker as a page's are, the rows
   * waiting as a page's do. `at`: when their verdicts are taken (ms).
   */
  private settleSoon(work: PageWork, at: number): void {
    const context = this.resolution.verdictContext(new Date(at).toISOString());
    const thread = work.jobs.length > 0 ? this.deps.verdicts() : null;
    if (!thread) {
      this.settleWork(work, context, null);
      return;
    }
    const first = Math.min(
      lowest(work.failed.map(([row]) => row)),
      lowest(work.notFetched),
      ...[...work.nobody, ...work.found, ...work.foundFacts].map(({ rows }) => lowest(rows)),
    );
    this.unsettledPages.push(first);
    const before = this.settling[this.settling.length - 1];
    const results = thread.verdicts(work.jobs, context).catch(() => null);
    this.settleLater(
      Promise.all([results, before]).then(([verdicts]) => ({ work, results: verdicts })),
      context,
      first,
    );
  }

  private callFailed(asked: Asked[], error: unknown): void {
    const failure = this.failures.failed(error, this.stopping.signal.aborted);
    // Abandoned on purpose: the queries were not answered, so they stay waiting for the next run.
    if (failure.kind === 'abandoned') return;
    if (failure.kind === 'stop') return this.stopping.askFor(failure.stop);
    if (failure.kind === 'passing') {
      // Not answered: the queries wait for the next round. Only a streak stops the run.
      this.abandoned += asked.length;
      if (failure.stop) this.stopping.askFor(failure.stop);
      return;
    }

    const { db, clock } = this.deps;
    const fetchedAt = clock.now();
    const at = new Date(fetchedAt).toISOString();
    const info = toErrorInfo(error);
    db.transaction(() => {
      // putLookups never lets an error replace an answer on file, so a stale answer survives a failed refresh.
      putLookups(
        db,
        asked.map((q): Lookup => ({ queryId: q.key, query: null, fetchedAt, status: 'error', candidates: null, error: info })),
      );
      const onFile = answersOnFile(
        db,
        asked.map((q) => q.key),
        Number.MIN_SAFE_INTEGER,
      );
      for (const q of asked) {
        const stale = onFile.get(q.key);
        if (stale) {
          this.count(this.resolution.answer(q.rows, { strategy: q.strategy, ...stale }, at));
        } else {
          this.count(this.resolution.failed(q.rows, fetchedAt));
          this.failedKeys.set(q.key, fetchedAt);
          this.counters.errors++;
        }
      }
      this.counters.calls++;
      this.counters.queriesDone += asked.length;
      this.persist();
    })();

    // Out of reach: the run stops once the call's queries are marked.
    if (failure.stop) this.stopping.askFor(failure.stop);
  }

  private count(change: ResolutionCount): void {
    this.pendingRows -= change.resolved;
    this.counters.rowsResolved += change.resolved;
    this.moved += change.resolved + change.advanced;
  }

  private doneMessage(): string | null {
    if (this.offline) return 'Offline: answered from the cache only; rows without a cached answer are marked "not fetched".';
    if (this.counters.errors > 0) {
      const n = this.counters.errors;
      return `${n} ${n === 1 ? 'query' : 'queries'} failed; their rows are marked as errors. Run again to retry them.`;
    }
    return null;
  }

  private finish(status: RunStatus, message: string | null): void {
    this.status = status;
    this.message = message;
    try {
      this.persist(status === 'paused' ? null : new Date(this.deps.clock.now()).toISOString());
    } catch {
      // The database itself failed (that may be why the run ends): the next start marks the run interrupted.
    }
    this.told.end();
    if (status === 'done') this.timeRows();
  }

  /**
   * What this run's rows took, for the next previews (rows/row-timing.ts): only when the cache answered all of it (online
   * and no call). Calls overlap the rows' work, and offline the rows with no answer on file cost next to nothing. Timed
   * as a copy when it copied nearly all its rows, as a run when nearly none (runFigure).
   */
  private timeRows(): void {
    if (this.offline || this.counters.calls !== this.callsAtStart) return;
    const rows = this.counters.rowsResolved - this.rowsAtStart;
    const work = runFigure(rows, this.copiedRows);
    if (work) this.deps.rowTiming.record(work, { rows, seconds: (this.deps.clock.now() - this.activeSince) / 1000 });
  }

  /**
   * Saves the counters from the commits of calls and pages only every COUNTERS_MS: the run's row is a page of its own,
   * which each save writes to the WAL again. A crash loses only the counts since (calls, queries done); the answers
   * and rows are committed, the resumed run counts its waiting rows and queries again, and its end saves them all.
   */
  private persistDue(): void {
    if (performance.now() - this.persistedAt >= COUNTERS_MS) this.persist();
  }

  private persist(finishedAt: string | null = null): void {
    this.persistedAt = performance.now();
    saveRun(this.deps.db, this.runId, {
      status: this.status,
      counters: this.counters,
      message: this.message,
      updatedAt: new Date(this.deps.clock.now()).toISOString(),
      finishedAt,
    });
  }
}

/** A row the run walked, or moved on in memory (`moved`), as it waits on its query. */
function waitingRow({ rowIndex, cells, step, queryId, strategy }: PendingRow, moved: boolean): WaitingRow {
  return { rowIndex, cells, step, queryId, strategy, moved };
}

function lowest(rows: readonly WaitingRow[]): number {
  let low = Number.POSITIVE_INFINITY;
  for (const row of rows) if (row.rowIndex < low) low = row.rowIndex;
  return low;
}

function emptyWork(): PageWork {
  return { failed: [], notFetched: [], nobody: [], found: [], foundFacts: [], jobs: [] };
}

/** Rows by the query they ask: each query's id and its rows, by the same position, in the order first met. */
interface Grouped {
  keys: number[];
  rows: PendingRow[][];
}

/** A page's rows by the query they ask, in the page's order. */
function rowsByKey(rows: readonly PendingRow[]): Grouped {
  const grouped: Grouped = { keys: [], rows: [] };
  const at = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const known = at.get(row.queryId);
    if (known !== undefined) grouped.rows[known]!.push(row);
    else {
      at.set(row.queryId, grouped.keys.length);
      grouped.keys.push(row.queryId);
      grouped.rows.push([row]);
    }
  }
  return grouped;
}

function countCached(keys: readonly number[], cached: ReadonlyMap<number, unknown>): number {
  let count = 0;
  for (let i = 0; i < keys.length; i++) if (cached.has(keys[i]!)) count++;
  return count;
}
