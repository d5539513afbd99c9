// Runs a stored search's pending parts against the service, each paged to its end with the client's guards, every
// page committed the moment it lands. Parts run side by side (bounded); the first failure stops the others.
// Resuming skips the parts already paged to their end and starts an unfinished part again from its first page:
// a pagination token belongs to the request that issued it and nothing says how long it lives (the last one is
// kept in search_chunks only for diagnosis). A person found twice is stored once: (search, person id) is unique.
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { SearchProgress, SearchStatus } from '../../../shared/contract';
import type { PersonJson } from '../../../shared/model';
import type { SearchFilter } from '../../../shared/search-filters';
import type { ServiceClient } from '../api';
import { PaymentRequiredError, isAbortError } from '../api';
import type { Clock } from '../clock';
import { summarizePerson } from '../matching';
import { personSlug, text } from '../matching/person';
import { satisfyingJob } from './local-filters';
import { commitPage, getSearchRow, markPartDone, pendingParts, searchProgress, setSearchStatus, type LandedPerson } from './search-store';

export interface SearchRunnerOptions {
  db: Database;
  clock: Clock;
  emit(progress: SearchProgress): void;
}

interface ActiveRun {
  controller: AbortController;
  cancelledByUser: boolean;
  finished: Promise<void>;
}

export class SearchRunner {
  private readonly active = new Map<number, ActiveRun>();

  constructor(private readonly opts: SearchRunnerOptions) {}

  isRunning(searchId: number): boolean {
    return this.active.has(searchId);
  }

  /** Starts paging in the background; progress goes out through `emit`, the final state lands in the store. */
  start(searchId: number, run: { client: ServiceClient; filters: SearchFilter[]; pageSize: number; parallel: number }): void {
    if (this.active.has(searchId)) return;
    const entry: ActiveRun = { controller: new AbortController(), cancelledByUser: false, finished: Promise.resolve() };
    this.active.set(searchId, entry);
    entry.finished = this.runParts(searchId, entry, run)
      // runParts records every failure in the search itself; what is left (the database closed under it) has
      // nobody to tell and must not become an unhandled rejection.
      .catch(() => undefined)
      .finally(() => this.forget(searchId, entry));
  }

  /** Stops a running search; resolves once what was in flight has settled and the search is marked cancelled. */
  async cancel(searchId: number): Promise<void> {
    const entry = this.active.get(searchId);
    if (!entry) return;
    entry.cancelledByUser = true;
    entry.controller.abort();
    await entry.finished;
  }

  /** Resolves when the search is no longer running (at once when it is not). */
  async settled(searchId: number): Promise<void> {
    await this.active.get(searchId)?.finished;
  }

  async cancelAll(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.cancel(id)));
  }

  /** Only this run's entry: a resume may already have put a new one in its place. */
  private forget(searchId: number, entry: ActiveRun): void {
    if (this.active.get(searchId) === entry) this.active.delete(searchId);
  }

  private now(): string {
    return new Date(this.opts.clock.now()).toISOString();
  }

  private report(searchId: number): void {
    const row = getSearchRow(this.opts.db, searchId);
    if (row) this.opts.emit(searchProgress(this.opts.db, row));
  }

  private async runParts(
    searchId: number,
    entry: ActiveRun,
    run: { client: ServiceClient; filters: SearchFilter[]; pageSize: number; parallel: number },
  ): Promise<void> {
    const { db } = this.opts;
    const parts = pendingParts(db, searchId);
    const signal = entry.controller.signal;
    let next = 0;
    let firstError: unknown = null;
    const worker = async () => {
      while (!signal.aborted && next < parts.length) {
        const part = parts[next++]!;
        for await (const page of run.client.search({ filters: part.filters }, { pageSize: run.pageSize, signal })) {
          const people: LandedPerson[] = page.people.map((person) => ({
            personId: personIdOf(person),
            summary: summarizePerson(person),
            person,
            job: satisfyingJob(person, run.filters),
          }));
          commitPage(db, { searchId, chunkIndex: part.chunkIndex, people, token: page.token, count: page.count, now: this.now() });
          this.report(searchId);
        }
        markPartDone(db, searchId, part.chunkIndex);
      }
    };
    const workers = Array.from({ length: Math.max(1, Math.min(run.parallel, parts.length)) }, () =>
      worker().catch((err: unknown) => {
        // The first real failure stops the other parts; their own cancellations are not the story.
        if (firstError === null && !(signal.aborted && isAbortError(err))) firstError = err;
        entry.controller.abort();
      }),
    );
    await Promise.all(workers);

    let status: SearchStatus = 'done';
    let message: string | null = null;
    if (firstError !== null) {
      status = firstError instanceof PaymentRequiredError ? 'out_of_credits' : 'failed';
      message = firstError instanceof Error ? firstError.message : String(firstError);
    } else if (entry.cancelledByUser && pendingParts(db, searchId).length > 0) {
      status = 'cancelled';
      message = 'Cancelled. Every page that arrived is kept; resume to go on.';
    }
    // No longer running before anyone hears it has stopped, so a resume right after the last event is not refused.
    this.forget(searchId, entry);
    setSearchStatus(db, searchId, status, message, this.now());
    this.report(searchId);
  }
}

/** The key a person is deduplicated by: the service's id, else the profile slug, else the record itself. */
export function personIdOf(person: PersonJson): string {
  const id = text(person.id);
  if (id) return id;
  const slug = personSlug(person);
  if (slug) return `social:${slug}`;
  return `record:${createHash('sha256').update(JSON.stringify(person)).digest('hex').slice(0, 32)}`;
}
