// Cancel and resume without duplicates or gaps; parts paged to their end are not asked again; a search a stopped
// process left 'running' comes back as stopped and resumable.
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../../shared/search-filters';
import { ServiceClient } from '../../../electron/engine/api';
import { systemClock } from '../../../electron/engine/clock';
import { createSearchHandlers } from '../../../electron/engine/search';
import { getSettings } from '../../../electron/engine/store';
import { dispatch } from '../../../electron/engine/dispatch';
import { JobBoard } from '../../../electron/engine/jobs/job-board';
import { startSearchBench, type SearchBench } from './search-fixture';
import { allRows, expectedIds, idsOf, runToEnd } from './search-helpers';

let bench: SearchBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const research: SearchFilter[] = [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Research'] }];

describe('cancel and resume', () => {
  it('keeps the pages that landed, and resuming ends with every person exactly once', async () => {
    bench = await startSearchBench({ sim: { latencyMs: 25 } });
    const b = bench;
    const want = expectedIds(b, (p) => p.jobs.some((j) => j.function === 'Research'));
    expect(want.length).toBeGreaterThan(100);

    const started = await b.call('search.run', { filters: research, pageSize: 10 });
    expect(started.status).toBe('running');
    await b.when((p) => p.searchId === started.searchId && p.pages >= 3);
    const cancelled = await b.cancel(started.searchId);
    expect(cancelled).toMatchObject({ status: 'cancelled', partsDone: 0 });
    expect(cancelled!.people).toBeGreaterThanOrEqual(30);
    expect(cancelled!.people).toBeLessThan(want.length);
    expect(cancelled!.message).toMatch(/resume/);
    const kept = await allRows(b, started.searchId);
    expect(kept).toHaveLength(cancelled!.people);

    // Nothing runs after a cancel.
    const calls = b.sim.counters().searchCalls;
    await new Promise((r) => setTimeout(r, 100));
    expect(b.sim.counters().searchCalls).toBe(calls);

    const resumed = await b.call('search.resume', { searchId: started.searchId });
    expect(resumed.status).toBe('running');
    const final = await b.finished(started.searchId);
    expect(final).toMatchObject({ status: 'done', people: want.length, partsDone: 1, message: null });
    const rows = await allRows(b, started.searchId);
    expect(idsOf(rows)).toEqual(want);
    // Everyone found before the cancel keeps the page that first brought them.
    const firstPages = new Map(kept.map((r) => [r.personId, r.firstPage]));
    for (const row of rows) if (firstPages.has(row.personId)) expect(row.firstPage).toBe(firstPages.get(row.personId));
  });

  it('does not ask again for the parts of a split search that were paged to their end', async () => {
    bench = await startSearchBench({ sim: { latencyMs: 20 }, settings: { concurrency: 1 } });
    const b = bench;
    const companies = b.sim.dataset.companies.slice(0, 20).map((c) => c.social);
    const filters: SearchFilter[] = [{ field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: companies }];
    const secondHalf = new Set(companies.slice(10));
    const inSecond = expectedIds(b, (p) => p.jobs.some((j) => secondHalf.has(j.company.social))).length;

    const started = await b.call('search.run', { filters, valuesPerCall: 10, pageSize: 100 });
    await b.when((p) => p.searchId === started.searchId && p.partsDone === 1);
    const cancelled = await b.cancel(started.searchId);
    expect(cancelled).toMatchObject({ status: 'cancelled', partsDone: 1, partsTotal: 2 });

    b.sim.resetCounters();
    b.searchBodies.length = 0;
    await b.call('search.resume', { searchId: started.searchId });
    const final = await b.finished(started.searchId);
    expect(final.status).toBe('done');
    // The second part starts again from its first page (tokens are not reused); the first is not sent at all.
    expect(b.sim.counters().searchCalls).toBe(Math.ceil(inSecond / 100));
    expect(new Set(b.searchBodies.flatMap((body) => body.filters[0]!.string_values!))).toEqual(secondHalf);
    expect(idsOf(await allRows(b, final.searchId))).toEqual(expectedIds(b, (p) => p.jobs.some((j) => companies.includes(j.company.social))));
  });

  it('running identical filters again goes on with the stopped search instead of starting over', async () => {
    bench = await startSearchBench({ sim: { latencyMs: 25 } });
    const b = bench;
    const started = await b.call('search.run', { filters: research, pageSize: 10 });
    await b.when((p) => p.searchId === started.searchId && p.pages >= 2);
    await b.cancel(started.searchId);
    const again = await b.call('search.run', { filters: research, pageSize: 10 });
    expect(again).toMatchObject({ searchId: started.searchId, status: 'running' });
    expect((await b.finished(started.searchId)).status).toBe('done');
    expect(await b.call('search.list', {})).toHaveLength(1);
  });

  it('shows a search a stopped process left running as interrupted, and resumes it', async () => {
    bench = await startSearchBench();
    const b = bench;
    const done = await runToEnd(b, { filters: research });
    // As a crash leaves it: 'running', one part not finished, nobody stored yet.
    b.db.prepare(`UPDATE searches SET status = 'running', people = 0 WHERE id = ?`).run(done.searchId);
    b.db.prepare(`UPDATE search_chunks SET status = 'pending' WHERE search_id = ?`).run(done.searchId);
    b.db.prepare('DELETE FROM search_results WHERE search_id = ?').run(done.searchId);

    const client = new ServiceClient({
      baseUrl: b.sim.baseUrl,
      orgId: b.sim.orgId,
      credentials: { kind: 'service_account', clientId: b.sim.demo.clientId, clientSecret: b.sim.demo.clientSecret },
    });
    const restarted = createSearchHandlers({
      db: b.db,
      clock: systemClock,
      exportDir: b.dir,
      settings: () => getSettings(b.db),
      clientForActiveProfile: async () => ({ client, profile: b.profile }),
      jobs: new JobBoard(b.db, systemClock, () => {}),
    });
    try {
      const status = await dispatch(restarted.handlers, [], 'search.status', { searchId: done.searchId });
      expect(status).toMatchObject({ ok: true, value: { status: 'cancelled', message: expect.stringMatching(/Interrupted/) } });
      const resumed = await dispatch(restarted.handlers, [], 'search.resume', { searchId: done.searchId });
      expect(resumed.ok).toBe(true);
      for (let i = 0; i < 200; i++) {
        const now = await dispatch(restarted.handlers, [], 'search.status', { searchId: done.searchId });
        if (now.ok && (now.value as { status: string }).status !== 'running') break;
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(idsOf(await allRows(b, done.searchId))).toEqual(expectedIds(b, (p) => p.jobs.some((j) => j.function === 'Research')));
    } finally {
      await restarted.close();
    }
  });

  it('refuses to resume against another service than the one the search was made with', async () => {
    bench = await startSearchBench();
    const b = bench;
    const done = await runToEnd(b, { filters: research });
    b.db.prepare(`UPDATE searches SET status = 'cancelled', base_url = 'https://other.example' WHERE id = ?`).run(done.searchId);
    b.db.prepare(`UPDATE search_chunks SET status = 'pending' WHERE search_id = ?`).run(done.searchId);
    const refused = await b.fail('search.resume', { searchId: done.searchId });
    expect(refused.kind).toBe('invalid_input');
    expect(refused.message).toMatch(/was made against https:\/\/other\.example/);
  });
});
