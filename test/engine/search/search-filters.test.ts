// Each filter kind, must_not, exists and job_group against the simulator over HTTP, results checked against the
// dataset with conditions written out plainly here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../../shared/search-filters';
import type { Person } from '../../../electron/simulator/dataset';
import { personMatches } from '../../../electron/engine/search';
import { startSearchBench, type SearchBench } from './search-fixture';
import { allRows, dayAfter, expectedIds, idsOf, runToEnd } from './search-helpers';

let bench: SearchBench;
beforeAll(async () => {
  bench = await startSearchBench();
});
afterAll(async () => {
  await bench?.close();
});

async function found(filters: SearchFilter[]) {
  const final = await runToEnd(bench, { filters, refresh: true });
  expect(final.status, final.message ?? '').toBe('done');
  return { final, rows: await allRows(bench, final.searchId) };
}

describe('each filter kind finds exactly the people the dataset says', () => {
  const exactCases: [string, (b: SearchBench) => { filters: SearchFilter[]; test: (p: Person) => boolean }][] = [
    ['jobs.function, any of (vocabulary spelling fixed)', () => ({
      filters: [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['legal', 'Design'] }],
      test: (p) => p.jobs.some((j) => j.function === 'Legal' || j.function === 'Design'),
    })],
    ['jobs.level', () => ({
      filters: [{ field: 'jobs.level', type: 'must', match_type: 'exact', string_values: ['VP', 'C-Team'] }],
      test: (p) => p.jobs.some((j) => j.level === 'VP' || j.level === 'C-Team'),
    })],
    ['jobs.company.social given as a company page link', (b) => {
      const c = b.sim.dataset.companies[3]!;
      return {
        filters: [{ field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: [`https://www.linkedin.com/company/${c.social}/about/`] }],
        test: (p) => p.jobs.some((j) => j.company.social === c.social),
      };
    }],
    ['jobs.company.name, exact (case-insensitive)', (b) => {
      const c = b.sim.dataset.companies[5]!;
      return {
        filters: [{ field: 'jobs.company.name', type: 'must', match_type: 'exact', string_values: [c.name.toUpperCase()] }],
        test: (p) => p.jobs.some((j) => j.company.name.toLowerCase() === c.name.toLowerCase()),
      };
    }],
    ['jobs.started_at between two dates', () => ({
      filters: [{ field: 'jobs.started_at', type: 'must', match_type: 'exact', date_from: '2020-01-01', date_to: '2020-06-30' }],
      test: (p) => p.jobs.some((j) => j.started_at >= '2020-01-01' && j.started_at <= '2020-06-30'),
    })],
    ['jobs.ended_at from a date (current jobs have none)', () => ({
      filters: [{ field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2025-09-01' }],
      test: (p) => p.jobs.some((j) => j.ended_at !== null && j.ended_at >= '2025-09-01'),
    })],
    ['social given as a profile link', (b) => {
      const someone = b.sim.dataset.people.find((p) => /^[a-z-]+$/.test(p.linkedin))!;
      return {
        filters: [{ field: 'social', type: 'must', match_type: 'exact', string_values: [`https://www.linkedin.com/in/${someone.linkedin}/`] }],
        test: (p) => p.id === someone.id,
      };
    }],
  ];

  for (const [label, make] of exactCases) {
    it(label, async () => {
      const { filters, test } = make(bench);
      const want = expectedIds(bench, test);
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(bench.sim.dataset.people.length);
      const { final, rows } = await found(filters);
      expect(idsOf(rows)).toEqual(want);
      expect(final.people).toBe(want.length);
      expect(final.serviceCount).toBe(want.length);
    });
  }

  const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const fuzzyCases: [string, (b: SearchBench) => { filters: SearchFilter[]; atLeast: (p: Person) => boolean; local: boolean }][] = [
    ['jobs.title, fuzzy: every word, small typos forgiven', () => ({
      filters: [{ field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: ['Data Scientst'] }],
      atLeast: (p) => p.jobs.some((j) => words(j.title).includes('data') && words(j.title).includes('scientist')),
      local: true,
    })],
    ['name, fuzzy', (b) => {
      const someone = b.sim.dataset.people.find((p) => /^[A-Za-z ]+$/.test(p.name) && p.name.split(' ').length === 2)!;
      return {
        filters: [{ field: 'name', type: 'must', match_type: 'fuzzy', string_values: [someone.name.toLowerCase()] }],
        atLeast: (p) => p.id === someone.id,
        local: true,
      };
    }],
    ['location, fuzzy', () => ({
      filters: [{ field: 'location', type: 'must', match_type: 'fuzzy', string_values: ['berlin'] }],
      atLeast: (p) => p.location.includes('Berlin'),
      local: true,
    })],
    ['jobs.company.name, fuzzy (the service compares company names its own way)', (b) => {
      const c = b.sim.dataset.companies[7]!;
      return {
        filters: [{ field: 'jobs.company.name', type: 'must', match_type: 'fuzzy', string_values: [c.name] }],
        atLeast: (p) => p.jobs.some((j) => j.company.id === c.id),
        local: false,
      };
    }],
  ];

  for (const [label, make] of fuzzyCases) {
    it(label, async () => {
      const { filters, atLeast, local } = make(bench);
      const want = expectedIds(bench, atLeast);
      expect(want.length).toBeGreaterThan(0);
      const { rows } = await found(filters);
      expect(idsOf(rows)).toEqual(expect.arrayContaining(want));
      expect(rows.length).toBeLessThan(bench.sim.dataset.people.length);
      // The local reading of the filters (used for the satisfying job) agrees with the service on every person.
      if (local) for (const row of rows) expect(personMatches(row.person, filters), row.summary.name ?? row.personId).toBe(true);
    });
  }
});

describe('must_not and exists', () => {
  it('must_not on a job field excludes anyone with such a job', async () => {
    const filters: SearchFilter[] = [
      { field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Legal'] },
      { field: 'jobs.level', type: 'must_not', match_type: 'exact', string_values: ['Intern', 'Entry Level'] },
    ];
    const want = expectedIds(bench, (p) => p.jobs.some((j) => j.function === 'Legal') && !p.jobs.some((j) => j.level === 'Intern' || j.level === 'Entry Level'));
    const withJunior = expectedIds(bench, (p) => p.jobs.some((j) => j.function === 'Legal'));
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(withJunior.length);
    expect(idsOf((await found(filters)).rows)).toEqual(want);
  });

  it('must_not on a person field', async () => {
    const filters: SearchFilter[] = [
      { field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Legal'] },
      { field: 'location', type: 'must_not', match_type: 'exact', string_values: ['London, England, United Kingdom'] },
    ];
    const want = expectedIds(bench, (p) => p.jobs.some((j) => j.function === 'Legal') && p.location !== 'London, England, United Kingdom');
    expect(idsOf((await found(filters)).rows)).toEqual(want);
  });

  it('exists and must_not exists: some job has an end date / no job has one', async () => {
    const legal: SearchFilter = { field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Legal'] };
    const someEnded = expectedIds(bench, (p) => p.jobs.some((j) => j.function === 'Legal') && p.jobs.some((j) => j.ended_at !== null));
    const noneEnded = expectedIds(bench, (p) => p.jobs.some((j) => j.function === 'Legal') && p.jobs.every((j) => j.ended_at === null));
    expect(someEnded.length).toBeGreaterThan(0);
    expect(noneEnded.length).toBeGreaterThan(0);
    expect(idsOf((await found([legal, { field: 'jobs.ended_at', type: 'must', match_type: 'exists' }])).rows)).toEqual(someEnded);
    expect(idsOf((await found([legal, { field: 'jobs.ended_at', type: 'must_not', match_type: 'exists' }])).rows)).toEqual(noneEnded);
  });
});

describe('job_group', () => {
  /** Someone who left company X before the date, and left another company after it, and never left X after it. */
  function leaverOfAnotherCompany(b: SearchBench) {
    for (const p of b.sim.dataset.people) {
      for (const atX of p.jobs) {
        if (atX.ended_at === null) continue;
        const date = dayAfter(atX.ended_at);
        const later = p.jobs.find((j) => j.company.social !== atX.company.social && j.ended_at !== null && j.ended_at >= date);
        const leftXLater = p.jobs.some((j) => j.company.social === atX.company.social && j.ended_at !== null && j.ended_at >= date);
        if (later && !leftXLater) return { person: p, company: atX.company.social, date };
      }
    }
    throw new Error('the dataset has no such person');
  }

  it('finds that person without grouping and not with both filters in one group; the group holds for one job', async () => {
    const { person, company, date } = leaverOfAnotherCompany(bench);
    const atX: SearchFilter = { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: [company] };
    const since: SearchFilter = { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: date };

    const loose = await found([atX, since]);
    expect(idsOf(loose.rows)).toContain(person.id);
    expect(idsOf(loose.rows)).toEqual(
      expectedIds(bench, (p) => p.jobs.some((j) => j.company.social === company) && p.jobs.some((j) => j.ended_at !== null && j.ended_at >= date)),
    );

    const grouped = await found([{ ...atX, job_group: 1 }, { ...since, job_group: 1 }]);
    expect(idsOf(grouped.rows)).not.toContain(person.id);
    expect(idsOf(grouped.rows)).toEqual(
      expectedIds(bench, (p) => p.jobs.some((j) => j.company.social === company && j.ended_at !== null && j.ended_at >= date)),
    );
    // The satisfying job of every grouped result is the job at X that ended on or after the date.
    for (const row of grouped.rows) {
      expect(row.job).toMatchObject({ companySlug: company });
      expect(row.job!.ended! >= date).toBe(true);
      expect((row.person.jobs as unknown[])[row.job!.index]).toMatchObject({ company: { social: company }, ended_at: row.job!.ended });
    }
  });
});

describe('paging', () => {
  it('pages to the end, storing every page as it lands, with progress per page', async () => {
    const filters: SearchFilter[] = [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Research'] }];
    const want = expectedIds(bench, (p) => p.jobs.some((j) => j.function === 'Research'));
    expect(want.length).toBeGreaterThan(120);
    bench.sim.resetCounters();
    const before = bench.events.length;
    const final = await runToEnd(bench, { filters, pageSize: 40, refresh: true });
    const pages = Math.ceil(want.length / 40);
    expect(final).toMatchObject({ status: 'done', pages, calls: pages, people: want.length, serviceCount: want.length, partsTotal: 1, partsDone: 1 });
    expect(bench.sim.counters().searchCalls).toBe(pages);

    const progress = bench.events.slice(before).filter((e) => e.searchId === final.searchId);
    expect(progress.filter((e) => e.status === 'running').map((e) => e.pages)).toEqual([0, ...Array.from({ length: pages }, (_, i) => i + 1)]);
    expect(progress.at(-1)!.status).toBe('done');

    // Pages of the results table: in first-seen order, nothing missing or repeated.
    const rows = await allRows(bench, final.searchId, 37);
    expect(idsOf(rows)).toEqual(want);
    expect(rows.map((r) => r.firstPage)).toEqual([...rows.map((r) => r.firstPage)].sort((a, b) => a - b));
    expect(rows[0]!.firstPage).toBe(1);
    expect(rows.at(-1)!.firstPage).toBe(pages);

    const someone = rows[10]!.summary.name!;
    const narrowed = await bench.call('search.results', { searchId: final.searchId, offset: 0, limit: 50, text: someone });
    expect(narrowed.rows.map((r) => r.summary.name)).toContain(someone);
    expect(narrowed.total).toBeLessThan(rows.length);
  });
});
