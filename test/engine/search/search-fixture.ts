// A criteria-search engine slice on real parts: the simulator over HTTP on 127.0.0.1, a SQLite file in a temp
// folder, the real service client, and the search handlers with a context built the way the engine builds it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { calls, type CallName, type CallOutput, type CallInput, type SearchProgress } from '../../../shared/contract';
import { DEFAULT_SETTINGS, type Profile, type Settings } from '../../../shared/model';
import { detailOf } from '../../../shared/job-detail';
import type { SearchFilter } from '../../../shared/search-filters';
import { ServiceClient } from '../../../electron/engine/api';
import { systemClock, type Clock } from '../../../electron/engine/clock';
import { dispatch } from '../../../electron/engine/dispatch';
import { createJobHandlers } from '../../../electron/engine/jobs/handlers';
import { JobBoard } from '../../../electron/engine/jobs/job-board';
import { createSearchHandlers, type SearchHandlers } from '../../../electron/engine/search';
import { openDatabase, saveProfile, getSettings, updateSettings } from '../../../electron/engine/store';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../electron/simulator/server';

export interface SearchBench {
  sim: Simulator;
  db: Database;
  dir: string;
  profile: Profile;
  events: SearchProgress[];
  /** Bodies of the search calls sent, parsed. */
  searchBodies: { filters: SearchFilter[]; size: number; pagination_token?: string }[];
  /** Calls `listener` on every progress event until it returns true; resolves then. */
  when(listener: (p: SearchProgress) => boolean): Promise<SearchProgress>;
  search: SearchHandlers;
  /** Through dispatch, exactly as a host calls: the input is parsed with its contract schema. */
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  /** Same, but resolves with the ContractError instead of throwing. */
  fail<K extends CallName>(name: K, input: CallInput<K>): Promise<{ kind: string; message: string }>;
  /** Cancels the search (job.cancel, which must find it going) and resolves with how it stands after. */
  cancel(searchId: number): Promise<SearchProgress | null>;
  /** Resolves when the search reaches a final state. */
  finished(searchId: number): Promise<SearchProgress>;
  settings: Settings;
  close(): Promise<void>;
}

export async function startSearchBench(opts: { sim?: SimulatorOptions; clock?: Clock; settings?: Partial<Settings>; valuesPerCall?: number } = {}): Promise<SearchBench> {
  const sim = await startSimulator({ port: 0, people: 4000, seed: 11, ...opts.sim });
  const dir = mkdtempSync(join(tmpdir(), 'matchdesk-search-'));
  const db = openDatabase(join(dir, 'matchdesk.db'));
  const profile: Profile = {
    id: 'sim',
    name: 'Simulator',
    baseUrl: sim.baseUrl,
    orgId: sim.orgId,
    kind: 'service_account',
    login: sim.demo.clientId,
    createdAt: new Date().toISOString(),
  };
  saveProfile(db, profile);
  updateSettings(db, { ...DEFAULT_SETTINGS, ...opts.settings, activeProfileId: profile.id });
  const events: SearchProgress[] = [];
  const searchBodies: SearchBench['searchBodies'] = [];
  let watchers: ((p: SearchProgress) => void)[] = [];
  const waiting = new Map<number, ((p: SearchProgress) => void)[]>();
  const clock = opts.clock ?? systemClock;
  const client = new ServiceClient({
    baseUrl: sim.baseUrl,
    orgId: sim.orgId,
    credentials: { kind: 'service_account', clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret },
    random: () => 0,
    // Records what was sent; the real fetch does the sending.
    fetch: async (url, init) => {
      if (String(url).endsWith('/search') && typeof init?.body === 'string') searchBodies.push(JSON.parse(init.body) as SearchBench['searchBodies'][number]);
      return fetch(url, init);
    },
  });
  const jobs = new JobBoard(db, clock, (job) => {
    const p = detailOf(job, 'search');
    if (p === null) return;
    events.push(p);
    for (const watch of [...watchers]) watch(p);
    if (p.status !== 'running') for (const resolve of waiting.get(p.searchId)?.splice(0) ?? []) resolve(p);
  });
  const search = createSearchHandlers({
    db,
    clock,
    jobs,
    exportDir: join(dir, 'exports'),
    settings: () => getSettings(db),
    clientForActiveProfile: async () => ({ client, profile }),
    ...(opts.valuesPerCall ? { valuesPerCall: opts.valuesPerCall } : {}),
  });
  // A search is a job: job.cancel stops it, as in the engine.
  const handlers = { ...search.handlers, ...createJobHandlers(jobs, { search: (searchId) => search.cancel(searchId) }) };
  const bench: SearchBench = {
    sim,
    db,
    dir,
    profile,
    events,
    searchBodies,
    when(listener) {
      return new Promise((resolve) => {
        const watch = (p: SearchProgress) => {
          if (!listener(p)) return;
          watchers = watchers.filter((w) => w !== watch);
          resolve(p);
        };
        watchers.push(watch);
      });
    },
    search,
    settings: getSettings(db),
    async call(name, input) {
      const result = await dispatch(handlers, [], name, input);
      if (!result.ok) throw new Error(`${name} failed (${result.error.kind}): ${result.error.message}`);
      return result.value as CallOutput<typeof name>;
    },
    async fail(name, input) {
      const result = await dispatch(handlers, [], name, input);
      if (result.ok) throw new Error(`${name} was expected to fail but returned ${JSON.stringify(result.value).slice(0, 200)}`);
      return result.error;
    },
    async cancel(searchId) {
      const answer = await bench.call('job.cancel', { kind: 'search', searchId });
      if (!answer.cancelled) throw new Error(`job.cancel found search ${searchId} not going`);
      return bench.call('search.status', { searchId });
    },
    finished(searchId) {
      return new Promise((resolve) => {
        waiting.set(searchId, [...(waiting.get(searchId) ?? []), resolve]);
        void bench.call('search.status', { searchId }).then((p) => {
          if (p && p.status !== 'running') resolve(p);
        });
      });
    },
    async close() {
      await search.close();
      db.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return bench;
}

/** Every contract call the search module answers, so a test can check none is missing. */
export const SEARCH_CALLS = (Object.keys(calls) as CallName[]).filter((name) => name.startsWith('search.'));
