// The criteria-search calls of the contract (search.*), for the engine facade to register beside its own.
import type { Database } from 'better-sqlite3';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CallParsedInput, ExportResult, JobState, SearchProgress, SearchStatus } from '../../../shared/contract';
import type { Profile, Settings } from '../../../shared/model';
import { validateFilters, type SearchFilter } from '../../../shared/search-filters';
import type { ServiceClient } from '../api';
import type { Clock } from '../clock';
import type { Handlers } from '../dispatch';
import { EngineError, notFound } from '../engine-errors';
import { safeFileName } from '../file-names';
import type { JobBoard, JobHandle } from '../jobs/job-board';
import { writeTable, type UnfinishedExports } from '../export';
import { summarizePerson } from '../matching';
import { getProfile } from '../store';
import { columnValues } from './column-values';
import { exportHeaders, exportRow } from './export-rows';
import { normalizeFilters } from './filter-values';
import { searchFiltersKey, searchRequestKey } from './request-key';
import { searchName } from './search-name';
import { SearchRunner } from './search-runner';
import {
  allResults,
  deleteSearch,
  getSearchRow,
  insertSearch,
  latestByRequestKey,
  latestDoneByFiltersKey,
  listSearchRows,
  markInterrupted,
  pendingParts,
  resultsPage,
  searchProgress,
  searchSummary,
  setSearchStatus,
  type SearchRow,
} from './search-store';
import { DEFAULT_CHUNK_SIZE, TooManyCalls, splitRequest } from './split-request';

export interface SearchContext {
  db: Database;
  clientForActiveProfile(): Promise<{ client: ServiceClient; profile: Profile }>;
  clock: Clock;
  /** Each search paging is a `search` job there (on no project), its SearchProgress the job's detail. */
  jobs: JobBoard;
  settings(): Settings;
  /** Where an export goes when the caller names no destination (the browser host offers it as a download). */
  exportDir: string;
  /** Records an export's part file while it is written (export/unfinished-exports.ts). */
  unfinished?: UnfinishedExports;
  /** Values per call for long value lists when the call does not say (default 100). */
  valuesPerCall?: number;
}

export interface SearchHandlers {
  handlers: Handlers;
  /** Cancels a running search and waits until its last pages are stored; false when it was not running. */
  cancel(searchId: number): Promise<boolean>;
  /** Cancels running searches and waits until their last pages are stored: call before closing the database. */
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_PAGE_SIZE = 100;

/** A search's end as its job's: one out of credits failed (a resume pages on, as a new job). */
const jobStateOf = (status: SearchStatus): JobState => (status === 'out_of_credits' ? 'failed' : status);

export function createSearchHandlers(ctx: SearchContext): SearchHandlers {
  const { db } = ctx;
  const now = () => new Date(ctx.clock.now()).toISOString();
  /** The job of each search paging, from its start (or resume) to its end. */
  const paging = new Map<number, JobHandle<'search'>>();
  const tell = (progress: SearchProgress) => {
    const job = paging.get(progress.searchId);
    if (!job) return;
    job.progress(progress.partsDone, progress.partsTotal, undefined, progress);
    if (progress.status === 'running') return;
    paging.delete(progress.searchId);
    job.state(jobStateOf(progress.status), progress.message);
  };
  const runner = new SearchRunner({ db, clock: ctx.clock, emit: tell });
  // Nothing runs in a fresh engine: a 'running' search was left so by a process that stopped.
  markInterrupted(db, now());

  const rowOrThrow = (searchId: number): SearchRow => {
    const row = getSearchRow(db, searchId);
    if (!row) throw notFound(`Search ${searchId}`);
    return row;
  };
  const progress = (row: SearchRow, extra?: { fromCache?: boolean; offline?: boolean }): SearchProgress => searchProgress(db, row, extra);
  const isFresh = (row: SearchRow): boolean => {
    if (row.status !== 'done' || row.finished_at === null) return false;
    const ttlMs = ctx.settings().cacheTtlDays * DAY_MS;
    return Date.parse(row.finished_at) >= ctx.clock.now() - ttlMs && ttlMs > 0;
  };

  function start(row: SearchRow, client: ServiceClient): SearchProgress {
    setSearchStatus(db, row.id, 'running', null, now());
    const started = progress(getSearchRow(db, row.id)!);
    const job = ctx.jobs.open({ kind: 'search', projectId: null, options: { searchId: row.id }, stop: () => runner.cancel(row.id), phase: 'paging', paced: false });
    job.progress(started.partsDone, started.partsTotal, undefined, started);
    paging.set(row.id, job);
    runner.start(row.id, {
      client,
      filters: JSON.parse(row.filters) as SearchFilter[],
      pageSize: row.page_size,
      parallel: ctx.settings().concurrency,
    });
    return started;
  }

  function checkSameService(row: SearchRow, profile: Profile): void {
    const same = row.base_url.replace(/\/+$/, '').toLowerCase() === profile.baseUrl.trim().replace(/\/+$/, '').toLowerCase() && row.org_id === profile.orgId.trim();
    if (!same) {
      throw new EngineError(
        'invalid_input',
        `Search "${row.name}" was made against ${row.base_url} (organization ${row.org_id}), but the active profile "${profile.name}" ` +
          `uses ${profile.baseUrl} (organization ${profile.orgId}). Select a profile for that service to go on with it, or run the search again.`,
      );
    }
  }

  async function run(input: CallParsedInput<'search.run'>): Promise<SearchProgress> {
    const normalized = normalizeFilters(input.filters);
    const problems = [...normalized.problems, ...validateFilters(normalized.filters)];
    if (problems.length > 0) throw new EngineError('invalid_input', problems.map((p) => p.message).join(' '));
    const filters = normalized.filters;
    const chunkSize = input.valuesPerCall ?? ctx.valuesPerCall ?? DEFAULT_CHUNK_SIZE;
    let parts: SearchFilter[][];
    try {
      parts = splitRequest(filters, chunkSize);
    } catch (err) {
      if (err instanceof TooManyCalls) throw new EngineError('invalid_input', err.message);
      throw err;
    }

    if (input.offline) return answerOffline(filters);

    // The cache first, from the stored profile: a fresh answer needs no secret and no client.
    const active = activeProfile();
    const known = active && !input.refresh ? latestByRequestKey(db, searchRequestKey(active.baseUrl, active.orgId, filters)) : null;
    if (known && (runner.isRunning(known.id) || isFresh(known))) {
      return progress(known, { fromCache: !runner.isRunning(known.id) });
    }

    const { client, profile } = await ctx.clientForActiveProfile();
    const requestKey = searchRequestKey(profile.baseUrl, profile.orgId, filters);
    const existing = latestByRequestKey(db, requestKey);
    if (existing && !input.refresh) {
      if (runner.isRunning(existing.id)) return progress(existing);
      if (isFresh(existing)) return progress(existing, { fromCache: true });
      // An identical search that stopped part-way goes on where it stopped instead of starting over.
      const resumable = existing.status !== 'done' && Date.parse(existing.created_at) >= ctx.clock.now() - ctx.settings().cacheTtlDays * DAY_MS;
      if (resumable) return start(existing, client);
    }
    const id = insertSearch(db, {
      name: input.name ?? searchName(filters),
      filters,
      requestKey,
      filtersKey: searchFiltersKey(filters),
      baseUrl: profile.baseUrl.trim().replace(/\/+$/, ''),
      orgId: profile.orgId.trim(),
      chunkSize,
      pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
      parts,
      now: now(),
    });
    return start(getSearchRow(db, id)!, client);
  }

  function activeProfile(): Profile | null {
    const id = ctx.settings().activeProfileId;
    return id ? getProfile(db, id) : null;
  }

  /** Offline: the stored results of the same request on the active profile's service, else of the same filters anywhere. */
  function answerOffline(filters: SearchFilter[]): SearchProgress {
    const profile = activeProfile();
    const sameService = profile ? latestByRequestKey(db, searchRequestKey(profile.baseUrl, profile.orgId, filters)) : null;
    const row = sameService ?? latestDoneByFiltersKey(db, searchFiltersKey(filters));
    if (!row) {
      throw new EngineError('offline', 'These filters have no stored results yet. Run the search once while connected; after that it answers offline.');
    }
    return progress(row, { fromCache: true, offline: true });
  }

  async function exportSearch(input: CallParsedInput<'search.export'>): Promise<ExportResult> {
    const row = rowOrThrow(input.searchId);
    const fileName = `${safeFileName(row.name, { fallback: 'search' })}.${input.format}`;
    const path = input.destination ?? join(ctx.exportDir, fileName);
    if (input.destination === null) await mkdir(ctx.exportDir, { recursive: true, mode: 0o700 });
    const rows = (function* () {
      for (const result of allResults(db, row.id, summarizePerson)) yield exportRow(result);
    })();
    const target = { path, format: input.format, bom: input.bom, delimiter: input.delimiter, sheetName: 'People', unfinished: ctx.unfinished };
    const written = await writeTable(target, exportHeaders(), rows);
    return { path, downloadRef: null, fileName: basename(path), rows: written.rows };
  }

  const handlers: Handlers = {
    'search.run': run,
    'search.status': ({ searchId }) => {
      const row = getSearchRow(db, searchId);
      return row ? progress(row) : null;
    },
    'search.resume': async ({ searchId }) => {
      const row = rowOrThrow(searchId);
      if (runner.isRunning(searchId)) return progress(row);
      if (row.status === 'done' && pendingParts(db, searchId).length === 0) return progress(row);
      const { client, profile } = await ctx.clientForActiveProfile();
      checkSameService(row, profile);
      return start(row, client);
    },
    'search.list': () => listSearchRows(db).map((row) => searchSummary(db, row)),
    'search.get': ({ searchId }) => searchSummary(db, rowOrThrow(searchId)),
    'search.results': ({ searchId, offset, limit, text }) => {
      rowOrThrow(searchId);
      return resultsPage(db, searchId, { offset, limit, ...(text === undefined ? {} : { text }) }, summarizePerson);
    },
    'search.delete': async ({ searchId }) => {
      rowOrThrow(searchId);
      await runner.cancel(searchId);
      deleteSearch(db, searchId);
    },
    'search.export': exportSearch,
    'search.columnValues': (input) => columnValues(db, input),
  };

  const cancel = async (searchId: number) => {
    if (!runner.isRunning(searchId)) return false;
    await runner.cancel(searchId);
    return true;
  };
  return { handlers, cancel, close: () => runner.cancelAll() };
}
