import type { Database } from 'better-sqlite3';
import type { RunProgress, RunStatus } from '../../../shared/contract';
import type { Candidate, Mapping, Settings } from '../../../shared/model';
import { MAX_QUERIES_PER_FIND, ServiceError, isAbortError, isRetryableStatus, toErrorInfo, type ServiceClient } from '../api';
import type { Clock } from '../clock';
import { rankedFacts, storedFacts } from '../matching';
import { putLookups, type Lookup } from '../store';
import { answerFacts } from './answer-facts';
import type { CallTiming } from './call-timing';
import { pendingQueries, type PlannedQueryRecord } from './query-records';
import { RowResolution, type Answer, type ResolutionCount } from './row-resolution';
import { saveRun, type RunCounters } from './run-records';

function isPassingAuthFailure(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  if (error.kind === 'unauthorized') return true;
  return error.kind === 'login_failed' && error.status !== undefined && isRetryableStatus(error.status);
}

export interface MatchingRunDeps {
  db: Database;
  clock: Clock;
  /** Null for an offline run: nothing is sent. */
  client: ServiceClient | null;
  settings: Settings;
  mapping: Mapping;
  timing: CallTiming;
  rowCount: number;
  onProgress: (progress: RunProgress) => void;
}

type StopStatus = Exclude<RunStatus, 'running' | 'done'>;

/** A call's answers waiting for the commit of every call that landed with it. */
interface LandedCall {
  asked: PlannedQueryRecord[];
  answers: Candidate[][];
  committed: () => void;
  failed: (error: unknown) => void;
}

/** A stronger reason to stop wins: cancelling beats running out of credits beats a failure beats a pause. */
const STOP_WEIGHT: Record<StopStatus, number> = { paused: 1, failed: 2, out_of_credits: 3, cancelled: 4 };

/** Failures that will fail every call the same way: marking each query as failed would only hide the cause. */
const FATAL_KINDS = new Set(['login_failed', 'unauthorized', 'forbidden', 'not_found']);
/** Calls in a row that could not reach the service before the run gives up for now. */
const NETWORK_FAILURES_TO_STOP = 3;
/** Calls in a row refused a token (or a login) for a passing reason before the run gives up for now. */
const AUTH_FAILURES_TO_STOP = 5;
/** Keys per cache read and transaction. */
const CACHE_CHUNK = 500;
const PROGRESS_INTERVAL_MS = 100;

/**
 * One matching run of a project, round by round through the rows' waterfall of queries. Each round takes the
 * distinct queries the undecided rows wait on: fresh cached answers settle rows at once, the rest go to the
 * service in calls of up to 100 with bounded concurrency, and each call's answers are committed in one
 * transaction together with every row they settle. Rows that found nobody wait on their next query in the
 * next round. Everything is in SQLite as it lands, so a crash loses at most the calls in flight.
 */
export class MatchingRun {
  readonly settled: Promise<RunProgress>;
  private status: RunStatus = 'running';
  private stop: { status: StopStatus; message: string | null } | null = null;
  private message: string | null = null;
  private readonly abort = new AbortController();
  private readonly resolution: RowResolution;
  private readonly failedKeys = new Set<string>();
  private readonly activeSince: number;
  private readonly doneAtStart: number;
  private pendingRows = 0;
  private networkFailuresInARow = 0;
  private authFailuresInARow = 0;
  /** Queries whose call was turned away for a passing reason: still waiting, asked again next round. */
  private abandoned = 0;
  /** Rows that changed in this run (settled or moved on): a round that moves none would loop forever. */
  private moved = 0;
  private lastEmit = 0;
  private emitTimer: NodeJS.Timeout | null = null;
  private landed: LandedCall[] = [];

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
    this.settled = this.execute();
  }

  progress(): RunProgress {
    const now = this.deps.clock.now();
    const seconds = (now - this.activeSince) / 1000;
    const rate = seconds > 0.5 ? (this.counters.queriesDone - this.doneAtStart) / seconds : 0;
    const remaining = Math.max(0, this.counters.queriesTotal - this.counters.queriesDone);
    return {
      projectId: this.projectId,
      runId: this.runId,
      status: this.status,
      offline: this.offline,
      queriesTotal: this.counters.queriesTotal,
      queriesDone: this.counters.queriesDone,
      rowsTotal: this.deps.rowCount,
      rowsResolved: this.counters.rowsResolved,
      calls: this.counters.calls,
      cacheHits: this.counters.cacheHits,
      errors: this.counters.errors,
      ratePerSec: Math.round(rate * 10) / 10,
      etaSeconds: this.status === 'running' && rate > 0 ? Math.ceil(remaining / rate) : null,
      message: this.message,
      startedAt: this.startedAt,
      updatedAt: new Date(now).toISOString(),
    };
  }

  /** Stop sending calls; the ones in flight land and are kept. */
  pause(message: string | null = null): Promise<RunProgress> {
    this.requestStop('paused', message);
    return this.settled;
  }

  /** Stop now: calls in flight are abandoned (their queries stay unasked), everything landed is kept. */
  cancel(): Promise<RunProgress> {
    this.requestStop('cancelled', null);
    return this.settled;
  }

  /** Pauses, but gives calls in flight only `graceMs` to land before abandoning them (the app is closing). */
  async pauseWithin(graceMs: number, message: string): Promise<RunProgress> {
    this.requestStop('paused', message);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const first = await Promise.race([this.settled, late]);
    clearTimeout(timer);
    if (first === 'late') this.abort.abort();
    return this.settled;
  }

  private requestStop(status: StopStatus, message: string | null): void {
    if (this.status !== 'running') return;
    if (!this.stop || STOP_WEIGHT[status] > STOP_WEIGHT[this.stop.status]) this.stop = { status, message };
    if (status === 'cancelled') this.abort.abort();
  }

  private async execute(): Promise<RunProgress> {
    // Let the caller see the run as started before any work (and any event) happens.
    await Promise.resolve();
    try {
      this.deps.db.transaction(() => this.resolution.reopenAskable())();
      this.pendingRows = this.resolution.pendingRows();
      this.counters.rowsResolved = this.deps.rowCount - this.pendingRows;
      this.persist();
      this.emit(true);
      while (!this.stop) {
        const queries = pendingQueries(this.deps.db, this.projectId);
        if (queries.size === 0) break;
        this.counters.queriesTotal = this.counters.queriesDone + queries.size;
        const movedBefore = this.moved;
        const abandonedBefore = this.abandoned;
        const misses = await this.answerFromCache([...queries.values()]);
        if (misses.length > 0 && !this.stop) await this.fetchAll(misses);
        if (this.moved === movedBefore && this.abandoned === abandonedBefore && !this.stop) {
          throw new Error('some rows wait on queries that are no longer planned; save the mapping again to plan them');
        }
      }
      this.finish(this.stop?.status ?? 'done', this.stop?.message ?? this.doneMessage());
    } catch (error) {
      this.finish('failed', `The run stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.progress();
  }

  private async answerFromCache(queries: PlannedQueryRecord[]): Promise<PlannedQueryRecord[]> {
    const { db, clock, settings } = this.deps;
    // Offline, any answer on file will do, however old; online only fresh ones count (the cache TTL).
    const freshAfter = this.offline ? Number.MIN_SAFE_INTEGER : clock.now() - settings.cacheTtlDays * 86_400_000;
    const misses: PlannedQueryRecord[] = [];
    for (let i = 0; i < queries.length && !this.stop; i += CACHE_CHUNK) {
      const chunk = queries.slice(i, i + CACHE_CHUNK);
      const cached = answerFacts(
        db,
        chunk.map((q) => q.key),
        freshAfter,
      );
      const at = new Date(clock.now()).toISOString();
      db.transaction(() => {
        const answers: Answer[] = [];
        for (const query of chunk) {
          const key = query.key;
          const facts = cached.get(key);
          if (this.failedKeys.has(key)) {
            this.count(this.resolution.failed(key));
          } else if (facts) {
            answers.push({ key, strategy: query.strategy, facts });
            this.counters.cacheHits++;
          } else if (this.offline) {
            this.count(this.resolution.notFetched(key));
          } else {
            misses.push(query);
            continue;
          }
          this.counters.queriesDone++;
        }
        this.count(this.resolution.answerAll(answers, at));
        this.persist();
      })();
      this.emit(false);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return misses;
  }

  private async fetchAll(misses: PlannedQueryRecord[]): Promise<void> {
    const concurrency = Math.max(1, this.deps.settings.concurrency);
    // A call gives up its place as soon as it lands, so the next one is on its way while the landed answers are
    // committed: the commit overlaps a call's wait instead of adding to it.
    const inFlight = new Set<Promise<void>>();
    const commits: Promise<void>[] = [];
    const commitErrors: unknown[] = [];
    let next = 0;
    while (true) {
      while (!this.stop && commitErrors.length === 0 && inFlight.size < concurrency && next < misses.length) {
        const batch = misses.slice(next, next + MAX_QUERIES_PER_FIND);
        next += MAX_QUERIES_PER_FIND;
        const call: Promise<void> = this.sendCall(batch)
          .then((landed) => {
            if (landed) commits.push(landed.committed.catch((error: unknown) => void commitErrors.push(error)));
          })
          .finally(() => inFlight.delete(call));
        inFlight.add(call);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    await Promise.all(commits);
    if (commitErrors.length > 0) throw commitErrors[0];
  }

  /** Sends one call; once it has landed, resolves with its answers' commit to wait for (null when it failed). */
  private async sendCall(asked: PlannedQueryRecord[]): Promise<{ committed: Promise<void> } | null> {
    const { clock, client, timing } = this.deps;
    if (asked.length === 0 || !client) return null;
    const started = clock.now();
    let answers: Candidate[][];
    try {
      answers = await client.findBatch(
        asked.map((q) => q.query),
        { signal: this.abort.signal },
      );
    } catch (error) {
      this.callFailed(asked, error);
      this.emit(false);
      return null;
    }
    timing.record(clock.now() - started);
    this.networkFailuresInARow = 0;
    this.authFailuresInARow = 0;
    return { committed: this.commitLanded(asked, answers).then(() => this.emit(false)) };
  }

  /**
   * Commits a landed call's answers and every row they settle in one transaction, together with the calls that
   * landed in the same turn of the event loop (so at once: never behind a call still on its way).
   */
  private commitLanded(asked: PlannedQueryRecord[], answers: Candidate[][]): Promise<void> {
    return new Promise((committed, failed) => {
      this.landed.push({ asked, answers, committed, failed });
      if (this.landed.length === 1) setImmediate(() => this.commitAllLanded());
    });
  }

  private commitAllLanded(): void {
    const { db, clock } = this.deps;
    const calls = this.landed;
    this.landed = [];
    const fetchedAt = clock.now();
    const at = new Date(fetchedAt).toISOString();
    try {
      db.transaction(() => {
        for (const { asked, answers } of calls) {
          const facts = asked.map((_, i) => rankedFacts(answers[i] ?? []));
          putLookups(
            db,
            asked.map((q, i): Lookup => ({ queryKey: q.key, query: q.query, fetchedAt, status: 'ok', candidates: answers[i] ?? [], error: null, facts: storedFacts(facts[i]!) })),
          );
          this.count(this.resolution.answerAll(asked.map((q, i) => ({ key: q.key, strategy: q.strategy, facts: facts[i]! })), at));
          this.counters.calls++;
          this.counters.fetched += asked.length;
          this.counters.queriesDone += asked.length;
        }
        this.persist();
      })();
    } catch (error) {
      for (const call of calls) call.failed(error);
      return;
    }
    for (const call of calls) call.committed();
  }

  private callFailed(asked: PlannedQueryRecord[], error: unknown): void {
    const kind = error instanceof ServiceError ? error.kind : null;
    // Abandoned on purpose: the queries were not answered, so they stay waiting for the next run.
    if (this.abort.signal.aborted && (isAbortError(error) || kind === 'cancelled')) return;
    if (kind === 'cancelled') return;
    const message = error instanceof Error ? error.message : String(error);
    if (kind === 'payment_required') return this.requestStop('out_of_credits', message);
    if (isPassingAuthFailure(error)) {
      // A token revoked between the client's fresh login and its one retry, or a login the service failed
      // (5xx): the queries were not answered, so they wait for the next round. Only a streak stops the run.
      this.abandoned += asked.length;
      if (++this.authFailuresInARow >= AUTH_FAILURES_TO_STOP) this.requestStop('failed', message);
      return;
    }
    if (kind !== null && FATAL_KINDS.has(kind)) return this.requestStop('failed', message);

    const { db, clock } = this.deps;
    const fetchedAt = clock.now();
    const at = new Date(fetchedAt).toISOString();
    const info = toErrorInfo(error);
    db.transaction(() => {
      // putLookups never lets an error replace an answer on file, so a stale answer survives a failed refresh.
      putLookups(
        db,
        asked.map((q): Lookup => ({ queryKey: q.key, query: q.query, fetchedAt, status: 'error', candidates: null, error: info })),
      );
      const onFile = answerFacts(
        db,
        asked.map((q) => q.key),
        Number.MIN_SAFE_INTEGER,
      );
      const staleAnswers: Answer[] = [];
      for (const q of asked) {
        const stale = onFile.get(q.key);
        if (stale) {
          staleAnswers.push({ key: q.key, strategy: q.strategy, facts: stale });
        } else {
          this.count(this.resolution.failed(q.key));
          this.failedKeys.add(q.key);
          this.counters.errors++;
        }
      }
      this.count(this.resolution.answerAll(staleAnswers, at));
      this.counters.calls++;
      this.counters.queriesDone += asked.length;
      this.persist();
    })();

    if (kind === 'network_error' && ++this.networkFailuresInARow >= NETWORK_FAILURES_TO_STOP) {
      this.requestStop('failed', `${message} The run stopped after ${NETWORK_FAILURES_TO_STOP} calls in a row failed to reach the service; resume once the connection is back.`);
    }
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
    if (this.emitTimer) clearTimeout(this.emitTimer);
    this.emitTimer = null;
    try {
      this.persist(status === 'paused' ? null : new Date(this.deps.clock.now()).toISOString());
    } catch {
      // The database itself failed (that may be why the run ends): the next start marks the run interrupted.
    }
    this.emit(true);
  }

  private persist(finishedAt: string | null = null): void {
    saveRun(this.deps.db, this.runId, {
      status: this.status,
      counters: this.counters,
      message: this.message,
      updatedAt: new Date(this.deps.clock.now()).toISOString(),
      finishedAt,
    });
  }

  /** At most ~10 events a second while running, and always on a change of status. */
  private emit(force: boolean): void {
    const now = performance.now();
    if (force || now - this.lastEmit >= PROGRESS_INTERVAL_MS) {
      if (this.emitTimer) clearTimeout(this.emitTimer);
      this.emitTimer = null;
      this.lastEmit = now;
      this.deps.onProgress(this.progress());
      return;
    }
    if (!this.emitTimer) {
      this.emitTimer = setTimeout(() => {
        this.emitTimer = null;
        if (this.status === 'running') this.emit(true);
      }, PROGRESS_INTERVAL_MS - (now - this.lastEmit));
    }
  }
}
