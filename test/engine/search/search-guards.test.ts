// Services that misbehave while paging (a repeated token, an empty page with a token, out of credits part-way,
// a refused request): the search ends, keeps what landed, and says why. A scripted HTTP server on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchProgress } from '../../../shared/contract';
import { detailOf } from '../../../shared/job-detail';
import type { Profile } from '../../../shared/model';
import { ServiceClient } from '../../../electron/engine/api';
import { systemClock } from '../../../electron/engine/clock';
import { dispatch } from '../../../electron/engine/dispatch';
import { JobBoard } from '../../../electron/engine/jobs/job-board';
import { createSearchHandlers } from '../../../electron/engine/search';
import { getSettings, openDatabase, saveProfile, updateSettings } from '../../../electron/engine/store';
import { ORG, SEARCH_PATH, SESSION_PATH, goodLogin, reply, startScriptServer, type Script } from '../api/script-server';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const people = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${from + i}`, name: `Person ${from + i}`, jobs: [] }));
const filters = [{ field: 'jobs.function', type: 'must' as const, match_type: 'exact' as const, string_values: ['Legal'] }];

async function scripted(answerSearch: Script) {
  const server = await startScriptServer((req, res, seen) => {
    if (req.path === SESSION_PATH) return goodLogin(res);
    if (req.path === SEARCH_PATH) return answerSearch(req, res, seen);
    reply(res, 404, `no route ${req.path}`);
  });
  cleanups.push(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'matchdesk-search-guards-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDatabase(join(dir, 'm.db'));
  cleanups.push(() => {
    db.close();
  });
  const profile: Profile = { id: 'p', name: 'Scripted', baseUrl: server.baseUrl, orgId: ORG, kind: 'password', login: 'ada', createdAt: new Date().toISOString() };
  saveProfile(db, profile);
  updateSettings(db, { activeProfileId: 'p' });
  const client = new ServiceClient({ baseUrl: server.baseUrl, orgId: ORG, credentials: { kind: 'password', username: 'ada', password: 'guards-pw' }, random: () => 0, maxAttempts: 1 });
  const finals = new Map<number, (p: SearchProgress) => void>();
  const search = createSearchHandlers({
    db,
    clock: systemClock,
    exportDir: dir,
    settings: () => getSettings(db),
    clientForActiveProfile: async () => ({ client, profile }),
    jobs: new JobBoard(db, systemClock, (job) => {
      const p = detailOf(job, 'search');
      if (p !== null && p.status !== 'running') finals.get(p.searchId)?.(p);
    }),
  });
  cleanups.push(() => search.close());
  const call = async (name: 'search.run' | 'search.resume', input: object): Promise<SearchProgress> => {
    const result = await dispatch(search.handlers, [], name, input);
    if (!result.ok) throw new Error(result.error.message);
    const started = result.value as SearchProgress;
    if (started.status !== 'running') return started;
    return new Promise((resolve) => finals.set(started.searchId, resolve));
  };
  return { server, db, call };
}

describe('paging guards', () => {
  it('stops when the service hands out the same token again, keeping each person once', async () => {
    const s = await scripted((req, res) => {
      const token = (JSON.parse(req.body) as { pagination_token?: string }).pagination_token;
      // Page 2 repeats page 1's token and two of its people.
      if (!token) return reply(res, 200, { people: people(0, 3), count: 5, pagination_token: 't1' });
      reply(res, 200, { people: [...people(1, 2), ...people(3, 2)], count: 5, pagination_token: 't1' });
    });
    const final = await s.call('search.run', { filters });
    expect(final).toMatchObject({ status: 'done', pages: 2, people: 5, serviceCount: 5 });
    expect(s.server.count('/search')).toBe(2);
  });

  it('stops on an empty page even when it names a next token', async () => {
    const s = await scripted((req, res) => {
      const token = (JSON.parse(req.body) as { pagination_token?: string }).pagination_token;
      if (!token) return reply(res, 200, { people: people(0, 4), count: null, pagination_token: 'more' });
      reply(res, 200, { people: [], pagination_token: 'even-more' });
    });
    const final = await s.call('search.run', { filters });
    expect(final).toMatchObject({ status: 'done', pages: 2, people: 4, serviceCount: null });
    expect(s.server.count('/search')).toBe(2);
  });

  it('stops out of credits part-way, keeps the pages that landed, and resumes once credits are back', async () => {
    let credits = false;
    const s = await scripted((req, res) => {
      const token = (JSON.parse(req.body) as { pagination_token?: string }).pagination_token;
      if (!token) return reply(res, 200, { people: people(0, 3), count: 6, pagination_token: 't1' });
      if (!credits) return reply(res, 402, { message: 'No credits left this month' });
      reply(res, 200, { people: people(3, 3), count: 6, pagination_token: null });
    });
    const stopped = await s.call('search.run', { filters });
    expect(stopped).toMatchObject({ status: 'out_of_credits', people: 3 });
    expect(stopped.message).toMatch(/out of credits.*No credits left this month/);
    credits = true;
    const resumed = await s.call('search.resume', { searchId: stopped.searchId });
    expect(resumed).toMatchObject({ status: 'done', people: 6, message: null });
  });

  it('fails with the service\'s reason when it refuses the request', async () => {
    const s = await scripted((_req, res) => reply(res, 400, { message: 'field "jobs.function" is not searchable here' }));
    const final = await s.call('search.run', { filters });
    expect(final).toMatchObject({ status: 'failed', people: 0 });
    expect(final.message).toMatch(/rejected the request.*not searchable here/);
  });
});
