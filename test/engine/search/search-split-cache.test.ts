// Long value lists split into several searches and merged without duplicates; repeated searches answered from the
// stored results (zero calls) within the TTL; offline answers.
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../../shared/search-filters';
import { ManualClock, systemClock } from '../../../electron/engine/clock';
import { dispatch } from '../../../electron/engine/dispatch';
import { JobBoard } from '../../../electron/engine/jobs/job-board';
import { createSearchHandlers } from '../../../electron/engine/search';
import { getSettings } from '../../../electron/engine/store';
import { startSearchBench, type SearchBench } from './search-fixture';
import { allRows, expectedIds, idsOf, runToEnd } from './search-helpers';

let bench: SearchBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

/** 300 company values: 30 real companies spread over the list, between slugs no company has. */
function threeHundredCompanies(b: SearchBench): { values: string[]; real: string[] } {
  const real = b.sim.dataset.companies.slice(0, 30).map((c) => c.social);
  const values = Array.from({ length: 300 }, (_, i) => (i % 10 === 0 ? real[i / 10]! : `no-such-company-${i}`));
  return { values, real };
}

describe('a long value list', () => {
  it('is split into calls of at most 100 values, each paged to its end, merged and deduplicated by person id', async () => {
    bench = await startSearchBench();
    const b = bench;
    const { values, real } = threeHundredCompanies(b);
    const filters: SearchFilter[] = [
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: values.map((v, i) => (i % 2 ? `https://www.linkedin.com/company/${v}/` : v)) },
      { field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Research', 'Legal'] },
    ];
    const inPart = (part: number) => new Set(values.slice(part * 100, part * 100 + 100));
    const matches = (p: (typeof b.sim.dataset.people)[number], companies: Set<string>) =>
      p.jobs.some((j) => companies.has(j.company.social)) && p.jobs.some((j) => j.function === 'Research' || j.function === 'Legal');
    const want = expectedIds(b, (p) => matches(p, new Set(real)));
    const perPart = [0, 1, 2].map((i) => expectedIds(b, (p) => matches(p, inPart(i))).length);
    // Someone is found by two parts: the merge has duplicates to drop.
    expect(perPart.reduce((a, n) => a + n, 0)).toBeGreaterThan(want.length);

    b.sim.resetCounters();
    const final = await runToEnd(b, { filters, pageSize: 50, valuesPerCall: 100 });
    expect(final).toMatchObject({ status: 'done', partsTotal: 3, partsDone: 3, people: want.length });
    expect(final.serviceCount).toBe(perPart.reduce((a, n) => a + n, 0));
    const rows = await allRows(b, final.searchId);
    expect(idsOf(rows)).toEqual(want);

    const pages = perPart.reduce((a, n) => a + Math.max(1, Math.ceil(n / 50)), 0);
    expect(b.sim.counters().searchCalls).toBe(pages);
    expect(final.calls).toBe(pages);
    const sentLists = b.searchBodies.map((body) => body.filters[0]!.string_values!);
    expect(Math.max(...sentLists.map((l) => l.length))).toBe(100);
    expect(new Set(sentLists.flat())).toEqual(new Set(values));
    // Links were sent as slugs; the other filter went with every part.
    expect(sentLists.flat().some((v) => v.includes('/'))).toBe(false);
    for (const body of b.searchBodies) expect(body.filters[1]).toEqual(filters[1]);

    // The stored search keeps the whole list, not a part of it.
    const saved = await b.call('search.get', { searchId: final.searchId });
    expect(saved.filters[0]!.string_values).toHaveLength(300);
  });

  it('uses the configured default of values per call', async () => {
    bench = await startSearchBench({ valuesPerCall: 150 });
    const { values } = threeHundredCompanies(bench);
    const final = await runToEnd(bench, { filters: [{ field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: values }, { field: 'jobs.level', type: 'must', match_type: 'exact', string_values: ['C-Team'] }] });
    expect(final).toMatchObject({ status: 'done', partsTotal: 2 });
  });
});

describe('the cache', () => {
  const leftSince = (b: SearchBench, group: number): SearchFilter[] => [
    { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-06-01', job_group: group },
    { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: b.sim.dataset.companies.slice(0, 5).map((c) => c.social), job_group: group },
  ];

  it('answers a repeated identical search from the stored results with zero calls, even reworded', async () => {
    bench = await startSearchBench();
    const first = await runToEnd(bench, { filters: leftSince(bench, 1), pageSize: 25 });
    expect(first.status).toBe('done');
    expect(first.people).toBeGreaterThan(25);
    bench.sim.resetCounters();

    const reworded = [...leftSince(bench, 4)].reverse().map((f) => (f.string_values ? { ...f, string_values: [...f.string_values].reverse() } : f));
    const again = await bench.call('search.run', { filters: reworded, name: 'another name' });
    expect(again).toMatchObject({ searchId: first.searchId, status: 'done', fromCache: true, people: first.people });
    expect(bench.sim.counters().calls).toBe(0);
    expect(idsOf(await allRows(bench, again.searchId))).toEqual(idsOf(await allRows(bench, first.searchId)));

    // Refresh asks again, as a new saved search.
    const fresh = await runToEnd(bench, { filters: leftSince(bench, 1), refresh: true, pageSize: 25 });
    expect(fresh.searchId).not.toBe(first.searchId);
    expect(fresh.fromCache).toBe(false);
    expect(bench.sim.counters().searchCalls).toBe(fresh.calls);
    expect(fresh.people).toBe(first.people);
    expect((await bench.call('search.list', {})).map((s) => s.searchId)).toEqual([fresh.searchId, first.searchId]);
  });

  it('answers from the cache without asking for a client, so a profile whose secret is gone still gets it', async () => {
    bench = await startSearchBench();
    const b = bench;
    const first = await runToEnd(b, { filters: leftSince(b, 1) });
    const noSecret = createSearchHandlers({
      db: b.db,
      clock: systemClock,
      exportDir: b.dir,
      settings: () => getSettings(b.db),
      clientForActiveProfile: () => Promise.reject(new Error('No secret is stored for this profile.')),
      jobs: new JobBoard(b.db, systemClock, () => {}),
    });
    try {
      const cached = await dispatch(noSecret.handlers, [], 'search.run', { filters: leftSince(b, 1) });
      expect(cached).toMatchObject({ ok: true, value: { searchId: first.searchId, fromCache: true } });
      const refresh = await dispatch(noSecret.handlers, [], 'search.run', { filters: leftSince(b, 1), refresh: true });
      expect(refresh).toMatchObject({ ok: false, error: { message: expect.stringMatching(/No secret/) } });
    } finally {
      await noSecret.close();
    }
  });

  it('asks again once the stored results are older than the cache TTL, and never caches with a TTL of 0', async () => {
    const clock = new ManualClock(Date.UTC(2026, 1, 1));
    bench = await startSearchBench({ clock, settings: { cacheTtlDays: 30 } });
    const first = await runToEnd(bench, { filters: leftSince(bench, 1) });
    clock.advance(29 * 24 * 3600_000);
    expect((await bench.call('search.run', { filters: leftSince(bench, 1) })).fromCache).toBe(true);
    clock.advance(2 * 24 * 3600_000);
    bench.sim.resetCounters();
    const stale = await runToEnd(bench, { filters: leftSince(bench, 1) });
    expect(stale.searchId).not.toBe(first.searchId);
    expect(stale.fromCache).toBe(false);
    expect(bench.sim.counters().searchCalls).toBeGreaterThan(0);

    await bench.call('search.delete', { searchId: stale.searchId });
    await bench.call('search.delete', { searchId: first.searchId });
    const { updateSettings } = await import('../../../electron/engine/store');
    updateSettings(bench.db, { cacheTtlDays: 0 });
    await runToEnd(bench, { filters: leftSince(bench, 1) });
    bench.sim.resetCounters();
    expect((await runToEnd(bench, { filters: leftSince(bench, 1) })).fromCache).toBe(false);
    expect(bench.sim.counters().searchCalls).toBeGreaterThan(0);
  });

  it('answers offline from stored results only, and says so when there are none', async () => {
    bench = await startSearchBench();
    const online = await runToEnd(bench, { filters: leftSince(bench, 1) });
    bench.sim.resetCounters();
    const offline = await bench.call('search.run', { filters: leftSince(bench, 2), offline: true });
    expect(offline).toMatchObject({ searchId: online.searchId, fromCache: true, offline: true, people: online.people });
    expect(bench.sim.counters().calls).toBe(0);

    const none = await bench.fail('search.run', { filters: [{ field: 'jobs.level', type: 'must', match_type: 'exact', string_values: ['Intern'] }], offline: true });
    expect(none.kind).toBe('offline');
    expect(none.message).toMatch(/no stored results/);
    expect(bench.sim.counters().calls).toBe(0);
  });
});
