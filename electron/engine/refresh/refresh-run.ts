import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database, Statement } from 'better-sqlite3';
import type { RefreshProgress, RefreshStatus } from '../../../shared/contract';
import type { Candidate, FindQuery, Mapping } from '../../../shared/model';
import { MAX_QUERIES_PER_FIND, ServiceError, readPeople, type ServiceClient } from '../api';
import type { Clock } from '../clock';
import { answerPeople, storedPersonFacts } from '../matching';
import type { CallTiming } from '../rows/call-timing';
import type { RowTiming } from '../rows/row-timing';
import { CallFailures, PAUSE_GRACE_MS, RunStop, type StopRequest } from '../rows/stop-request';
import { putLookups, queryDigests, stopReason, type Lookup } from '../store';
import { QueryIds } from '../runs/query-ids';
import { PersonDigests } from '../store/person-digests';
import { storedQuery } from '../store/query-text';
import { FreshPersonWriter } from './apply-fresh-person';
import { dropLists, peopleDone, saveRefresh, storedRefreshProgress, type RefreshCounters } from './refresh-records';
import { writeWaitingRows } from './refresh-rows';
import { putRefreshedPerson } from '../rows/refreshed-people';
import { PersonHistoryWriter } from '../rows/person-history';
import { stateOfFacts } from '../rows/person-state';
import { ProgressTimer } from '../progress-pace';

export interface RefreshRunDeps {
  db: Database;
  clock: Clock;
  client: ServiceClient;
  concurrency: number;
  /** The service asked, and its id as refreshes and refreshed_people keep it. */
  service: { baseUrl: string; orgId: string; scope: string };
  mapping: Mapping;
  /** The project's row positions (blank rows too): how far the rows being brought up to date are. */
  rowCount: number;
  timing: CallTiming;
  /** Where a refresh that went from its listing to its end says what its matched rows took (the next previews' estimate). */
  rowTiming: RowTiming;
  /** How long this refresh took to list its matched rows, and how many: null for a resumed one, which is not timed. */
  listed: Listed | null;
  onProgress: (progress: RefreshProgress) => void;
}

/** A new refresh's listing: how long it took and the matched rows it listed. */
export interface Listed {
  seconds: number;
  matchedRows: number;
}

type StopStatus = Exclude<RefreshStatus, 'running' | 'done'>;

/** A person is found by their profile slug under `social`, the slug only. */
export function slugQuery(slug: string): FindQuery {
  return { fields: [{ field_name: 'social', search_term: slug }] };
}

/**
 * One refresh of a project, in two passes. First the people still pending go to the service by profile slug, up to
 * 100 to a call with bounded concurrency, never through the cache; each landed call is committed in one transaction
 * with the fresh answers (into the cache too), the people's fresh facts and the people marked as asked. Then the rows
 * that chose the people found are brought up to date, in sheet order (refresh-rows.ts), before the refresh stops for
 * any reason: done, paused, cancelled or failed. A crash loses at most the calls in flight and a slice of rows;
 * resuming asks only for who is pending and writes the rows not written yet.
 */
export class RefreshRun {
  readonly settled: Promise<RefreshProgress>;
  private status: RefreshStatus = 'running';
  private readonly stopping = new RunStop<StopStatus>(() => this.status === 'running');
  private readonly failures = new CallFailures('refresh');
  private message: string | null = null;
  /** The kind of service failure that stopped the refresh, when one did (RefreshProgress.stopKind). */
  private stopKind: string | null = null;
  /** The kind of the last call's failure (api/errors.ts ServiceErrorKind), for a refresh whose every call failed. */
  private lastFailureKind: string | null = null;
  /** Why the last call turned away for a passing reason was (a refused token, a login the service failed). */
  private turnedAway: StopRequest<'failed'> | null = null;
  private readonly writer: FreshPersonWriter;
  /** The state each person found is in, kept for "changes since" a date (rows/person-history.ts). */
  private readonly history: PersonHistoryWriter;
  private readonly activeSince: number;
  private readonly doneAtStart: number;
  /** At most ~10 events a second while running, and always on a change of status. */
  private readonly told = new ProgressTimer(() => this.deps.onProgress(this.progress()));
  private readonly markPerson: Statement;
  private readonly keepFound: Statement;
  /** While the rows are brought up to date: the last row read (-1 before the first slice); null while asking. */
  private rowsWritten: number | null = null;
  /** How long bringing the rows up to date took (s). */
  private rowsSeconds = 0;
  /** The app is closing and its wait is over: the rows not written yet are left for the resume (or a cancel, or the next refresh). */
  private leaveRows = false;

  constructor(
    private readonly deps: RefreshRunDeps,
    readonly projectId: number,
    readonly refreshId: number,
    private readonly startedAt: string,
    private readonly counters: RefreshCounters,
  ) {
    this.writer = new FreshPersonWriter(deps.db, projectId, refreshId, deps.mapping, deps.service.scope);
    this.history = new PersonHistoryWriter(deps.db, deps.service.scope, refreshId);
    this.markPerson = deps.db.prepare('UPDATE refresh_people SET state = ?, found_id = ? WHERE refresh_id = ? AND slug = ?');
    this.keepFound = deps.db.prepare('INSERT INTO refresh_found (refresh_id, facts, person) VALUES (?, ?, ?)');
    this.activeSince = deps.clock.now();
    this.doneAtStart = peopleDone(counters);
    this.settled = this.execute();
  }

  progress(): RefreshProgress {
    const c = this.counters;
    const now = this.deps.clock.now();
    const seconds = (now - this.activeSince) / 1000;
    const done = peopleDone(c);
    const rate = seconds > 0.5 ? (done - this.doneAtStart) / seconds : 0;
    const { projectId, refreshId: id, status, message, startedAt } = this;
    return {
      ...storedRefreshProgress({ id, projectId, status, counters: c, message, startedAt, updatedAt: new Date(now).toISOString() }),
      ratePerSec: Math.round(rate * 10) / 10,
      etaSeconds: status === 'running' && this.rowsWritten === null && rate > 0 ? Math.ceil(Math.max(0, c.peopleTotal - done) / rate) : null,
      rowsWriting: status === 'running' && this.rowsWritten !== null ? { done: this.rowsWritten + 1, total: this.deps.rowCount } : null,
      ...(this.stopKind === null ? {} : { stopKind: this.stopKind }),
    };
  }

  /**
   * Stop sending; calls in flight that land within PAUSE_GRACE_MS are kept (a reply that trickles in must not hold the
   * pause; the people of a call abandoned stay pending), and the rows of everyone found are brought up to date.
   */
  pause(message: string | null = null): Promise<RefreshProgress> {
    this.stopping.ask('paused', message);
    return this.stopping.within(this.settled, PAUSE_GRACE_MS);
  }

  /** Stop now: calls in flight are abandoned (their people stay pending); everything landed is kept and written to the rows. */
  cancel(): Promise<RefreshProgress> {
    this.stopping.ask('cancelled', null);
    return this.settled;
  }

  /** Pauses, giving calls in flight `graceMs` to land before abandoning them (the app is closing). */
  pauseWithin(graceMs: number, message: string): Promise<RefreshProgress> {
    this.stopping.ask('paused', message);
    const late = setTimeout(() => (this.leaveRows = true), graceMs);
    if (graceMs <= 0) this.leaveRows = true;
    return this.stopping.within(this.settled, graceMs).finally(() => clearTimeout(late));
  }

  private async execute(): Promise<RefreshProgress> {
    await Promise.resolve();
    let failure: string | null = null;
    try {
      await this.askEveryone();
      failure = this.reachedNobody();
    } catch (error) {
      failure = `The refresh stopped: ${stopReason(error)}`;
    }
    const rowsFrom = this.deps.clock.now();
    try {
      // Whatever stopped the asking, the rows of the people found so far are brought up to date before it ends.
      await this.writeRows();
      this.rowsSeconds = (this.deps.clock.now() - rowsFrom) / 1000;
    } catch (error) {
      failure ??= `The refresh stopped: ${stopReason(error)}`;
    }
    this.stopKind ??= this.stopping.request?.kind ?? null;
    if (failure !== null) this.finish('failed', failure);
    else this.finish(this.stopping.request?.status ?? 'done', this.stopping.request?.message ?? this.doneMessage());
    return this.progress();
  }

  /** The first pass: every pending person asked, until none is left or the refresh is asked to stop. */
  private async askEveryone(): Promise<void> {
    const { db } = this.deps;
    // People whose call failed last time are asked again; those whose answer landed are not.
    db.transaction(() => {
      db.prepare("UPDATE refresh_people SET state = 'pending' WHERE refresh_id = ? AND state = 'failed'").run(this.refreshId);
      this.counters.failed = 0;
      this.persist();
    })();
    this.told.now();
    // The pending people are read a call's worth at a time, in slug order after the last one sent (they stay
    // pending in the table while their call is in flight), so nothing held grows with the project.
    const pendingAfter = db.prepare(`SELECT slug FROM refresh_people WHERE refresh_id = ? AND state = 'pending' AND slug > ? ORDER BY slug LIMIT ${MAX_QUERIES_PER_FIND}`).pluck();
    while (!this.stopping.request) {
      let last = '';
      const nextBatch = (): string[] => {
        const batch = pendingAfter.all(this.refreshId, last) as string[];
        if (batch.length > 0) last = batch[batch.length - 1]!;
        return batch;
      };
      const before = peopleDone(this.counters);
      const asked = await this.askAll(nextBatch);
      if (asked === 0) break;
      // Calls turned away for a passing reason leave their people pending for another pass; a pass that moved
      // nobody would loop forever.
      if (!this.stopping.request && peopleDone(this.counters) === before) {
        const why = this.turnedAway;
        this.stopKind = why?.kind ?? null;
        throw new Error(why?.message ? `the service turned every call away (${why.message.replace(/[.\s]+$/, '')}); try again later` : 'the service turned every call away; try again later');
      }
    }
  }

  /**
   * After the asking: when every call failed and none landed (now or before a resume), nobody was refreshed and the
   * refresh fails with the reason, its people pending again, so it is resumed rather than taken for the last refresh
   * (store/refresh-tables.ts ANSWERED). Returns that failure, or null when someone was reached, nobody was asked, or
   * it was paused, cancelled or out of credits (it stays so).
   */
  private reachedNobody(): string | null {
    const c = this.counters;
    if (c.failed === 0 || c.found + c.notFound > 0 || (this.stopping.request && this.stopping.request.status !== 'failed')) return null;
    const { db } = this.deps;
    db.transaction(() => {
      db.prepare("UPDATE refresh_people SET state = 'pending' WHERE refresh_id = ? AND state = 'failed'").run(this.refreshId);
      c.failed = 0;
      this.persist();
    })();
    // Every call failed alike, as a stop would say.
    this.stopKind ??= this.lastFailureKind;
    // Stopped by a streak of calls out of reach: its message says so already.
    return this.stopping.request?.message ?? `Every call failed, so nobody was refreshed: ${this.message ?? 'the service did not say why.'}`;
  }

  /**
   * The second pass: the rows that chose the people found, in sheet order, with other calls' turns between slices.
   * Stops once the app's wait for it to close is over (pauseWithin), or the database is closed under it: the refresh
   * is then paused or found interrupted, and resuming, cancelling or replacing it writes the rows left.
   */
  private async writeRows(): Promise<void> {
    const { db } = this.deps;
    this.rowsWritten = -1;
    this.told.now();
    const onSlice = (lastRow: number) => {
      this.rowsWritten = lastRow;
      this.told.soon();
    };
    await writeWaitingRows(db, this.writer, this.counters, () => this.persist(), onSlice, async () => {
      await nextTurn();
      return !this.leaveRows && db.open;
    });
    this.rowsWritten = null;
  }

  /** One pass: asks the batches `nextBatch` gives until it gives none; returns how many people were sent. */
  private async askAll(nextBatch: () => string[]): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    const commitErrors: unknown[] = [];
    let sent = 0;
    let more = true;
    while (true) {
      while (more && !this.stopping.request && commitErrors.length === 0 && inFlight.size < Math.max(1, this.deps.concurrency)) {
        const batch = nextBatch();
        if (batch.length === 0) {
          more = false;
          break;
        }
        sent += batch.length;
        const call: Promise<void> = this.ask(batch)
          .catch((error: unknown) => void commitErrors.push(error))
          .finally(() => inFlight.delete(call));
        inFlight.add(call);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    if (commitErrors.length > 0) throw commitErrors[0];
    return sent;
  }

  private async ask(slugs: string[]): Promise<void> {
    const { clock, client, timing } = this.deps;
    const started = clock.now();
    let answers: Candidate[][];
    try {
      answers = await client.findBatch(slugs.map(slugQuery), { signal: this.stopping.signal });
    } catch (error) {
      this.callFailed(slugs, error);
      this.told.soon();
      return;
    }
    timing.record(client.scope, clock.now() - started);
    this.failures.answered();
    this.commit(slugs, answers);
    this.told.soon();
  }

  /** One landed call: its answers, the people's facts and their state, in one transaction (their rows come after, in sheet order). */
  private commit(slugs: string[], answers: Candidate[][]): void {
    const { db, clock, service } = this.deps;
    const digestOf = queryDigests(service.baseUrl, service.orgId);
    const fetchedAt = clock.now();
    const mark = this.markPerson;
    const ids = QueryIds.of(db);
    const people = PersonDigests.of(db);
    db.transaction(() => {
      // Nothing is written yet in this transaction: the query ids and people known now are committed (store/digest-ids.ts).
      ids.catchUp(true);
      people.catchUp(true);
      this.history.begin();
      const found = slugs.map((slug, i) => {
        const candidates = answers[i] ?? [];
        const { people, ranks, ranked: facts } = readPeople(() => answerPeople(candidates));
        // The service ranks; the person asked for is the one with that slug, wherever it put them.
        const person = facts.find((f) => f.slug === slug);
        if (!person) return { slug, person: null, at: -1, lookup: null };
        const query = slugQuery(slug);
        const lookup: Lookup = { queryId: ids.idOf(digestOf(query), storedQuery(query)), query, fetchedAt, status: 'ok', candidates, error: null, stored: { people, ranks } };
        return { slug, person, at: facts.indexOf(person), lookup };
      });
      // The answers store their people (the new ones' records in blocks together): the decisions brought up to date
      // from these records name their `people` rows, as putLookups returns them (each answer's, in its people's order).
      const storedIds = putLookups(db, found.flatMap((f) => f.lookup ?? []));
      let answered = 0;
      found.forEach(({ slug, person, at }) => {
        if (!person) {
          // Not found any more: the rows keep what they had, and the answer on file stays (it still explains them).
          mark.run('not_found', null, this.refreshId, slug);
          this.counters.notFound++;
          this.counters.rowsNotFound += this.writer.rowsListed(slug);
          return;
        }
        person.personId = storedIds[answered++]![at];
        // Kept twice: by profile for every project (refreshed_people), and by position for this refresh's rows.
        const stored = storedPersonFacts(person);
        putRefreshedPerson(db, service.scope, slug, person, fetchedAt, stored);
        mark.run('found', this.keepFound.run(this.refreshId, stored, person.personId ?? null).lastInsertRowid, this.refreshId, slug);
        this.history.see(slug, stateOfFacts(person), false);
        this.counters.found++;
      });
      this.counters.calls++;
      this.persist();
    })();
    // Its new queries, people and person versions are committed: the next call's transaction need not read them back to check.
    if (!db.inTransaction) {
      ids.committed();
      people.committed();
      this.history.committed();
    }
  }

  private callFailed(slugs: string[], error: unknown): void {
    const failure = this.failures.failed(error, this.stopping.signal.aborted);
    // Abandoned on purpose, turned away for a passing reason, or out of reach at the end of a streak: nobody was
    // answered, so they stay pending, and a resume asks them.
    if (failure.kind === 'abandoned') return;
    if (failure.kind === 'passing') this.turnedAway = failure.turnedAway;
    if (failure.stop) return this.stopping.askFor(failure.stop);
    if (failure.kind !== 'failed') return;
    this.lastFailureKind = error instanceof ServiceError ? error.kind : null;
    const { message } = failure;
    const { db } = this.deps;
    const mark = db.prepare("UPDATE refresh_people SET state = 'failed' WHERE refresh_id = ? AND slug = ?");
    db.transaction(() => {
      for (const slug of slugs) mark.run(this.refreshId, slug);
      this.counters.failed += slugs.length;
      this.counters.calls++;
      this.message = message;
      this.persist();
    })();
  }

  private doneMessage(): string | null {
    const c = this.counters;
    const parts: string[] = [];
    if (c.failed > 0) parts.push(`${c.failed} ${c.failed === 1 ? 'person' : 'people'} could not be asked (${this.message ?? 'the service failed'}); their rows keep what they had. Refresh again to ask them.`);
    if (c.notFound > 0) parts.push(`${c.notFound} ${c.notFound === 1 ? 'person is' : 'people are'} no longer found by their profile; their ${c.rowsNotFound === 1 ? 'row keeps' : 'rows keep'} what they had.`);
    return parts.length > 0 ? parts.join(' ') : null;
  }

  private finish(status: RefreshStatus, message: string | null): void {
    this.status = status;
    this.message = message;
    try {
      const at = new Date(this.deps.clock.now()).toISOString();
      this.persist(status === 'paused' ? null : at);
      if (status === 'done' || status === 'cancelled') {
        // Nothing is left to resume: the list of rows per person has served its purpose.
        void dropLists(this.deps.db, this.refreshId, 'rows');
        this.deps.db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(at, this.projectId);
      }
    } catch {
      // The database itself failed (that may be why the refresh ends): the next start marks it interrupted.
    }
    this.told.end();
    if (status === 'done') this.timeRows();
  }

  /**
   * What a new refresh's matched rows took, for the next previews (rows/row-timing.ts): listing them and bringing
   * them up to date, the work before and after its calls.
   */
  private timeRows(): void {
    const { listed } = this.deps;
    if (listed) this.deps.rowTiming.record('refresh', { rows: listed.matchedRows, seconds: listed.seconds + this.rowsSeconds });
  }

  private persist(finishedAt: string | null = null): void {
    saveRefresh(this.deps.db, this.refreshId, {
      status: this.status,
      counters: this.counters,
      message: this.status === 'running' ? null : this.message,
      updatedAt: new Date(this.deps.clock.now()).toISOString(),
      finishedAt,
    });
  }
}
