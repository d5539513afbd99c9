// The simulator at the size benchmarks use: it builds, answers every kind of find and pages a search over everyone.
// The times are printed, not asserted: speed is measured in `npm run bench` (as ratios in one run), never in a
// timed unit test that a loaded machine would fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { find, items, search, type Term } from './http';

const PEOPLE = 200_000;
let sim: Simulator;
let buildMs = 0;

beforeAll(async () => {
  const started = performance.now();
  sim = await startSimulator({ people: PEOPLE, seed: 1 });
  buildMs = performance.now() - started;
});
afterAll(() => sim?.close());

/** 100 queries of every kind: e-mails, slugs, names with typos and shuffled order, name + company. */
function mixedQueries(): Term[][] {
  const people = sim.dataset.people;
  return Array.from({ length: 100 }, (_, i) => {
    const p = people[(i * 7919 + 13) % people.length];
    switch (i % 5) {
      case 0: return [{ field_name: 'email_address', search_term: p.email_address.toUpperCase() }];
      case 1: return [{ field_name: 'social', search_term: p.linkedin }];
      case 2: return [{ field_name: 'name', search_term: p.name }, { field_name: 'company.name', search_term: p.jobs[0].company.name }];
      case 3: return [{ field_name: 'name', search_term: `${p.last_name} ${p.first_name}`.toLowerCase() }];
      default: return [{ field_name: 'name', search_term: `${p.first_name} ${p.last_name.slice(0, -1)}` }];
    }
  });
}

describe(`simulator with ${PEOPLE.toLocaleString('en-US')} people`, () => {
  it('builds every person', () => {
    console.log(`simulator build, ${PEOPLE} people: ${buildMs.toFixed(0)} ms`);
    expect(sim.dataset.people).toHaveLength(PEOPLE);
  });

  it('answers a 100-query find, and finds each exact identifier', async () => {
    const queries = mixedQueries();
    const warm = items(await find(sim, sim.demo.apiKey, queries));
    expect(warm).toHaveLength(100);
    warm.forEach((item, i) => {
      if (i % 5 < 2) expect(item.length).toBe(1);
    });
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      // Fresh name variants each run, so the token caches do not answer for the index.
      const fresh = queries.map((q, i) => (i % 5 === 3 ? [{ field_name: 'name', search_term: `${q[0].search_term} ${run}` }] : q));
      const started = performance.now();
      const reply = await find(sim, sim.demo.apiKey, fresh);
      times.push(performance.now() - started);
      expect(reply.status).toBe(200);
    }
    times.sort((a, b) => a - b);
    console.log(`100-query find over ${PEOPLE} people, round trip: median ${times[2].toFixed(1)} ms, best ${times[0].toFixed(1)} ms, worst ${times[4].toFixed(1)} ms`);
  });

  it('answers a search over everyone, and pages from its cache', async () => {
    const body = { filters: [{ field: 'jobs.company.name', type: 'must', match_type: 'fuzzy', string_values: ['labs'] }, { field: 'jobs.level', type: 'must_not', match_type: 'exact', string_values: ['Intern'] }], size: 100 };
    let started = performance.now();
    const first = await search(sim, sim.demo.apiKey, body);
    const scanMs = performance.now() - started;
    const page = first.json as { count: number; pagination_token: string };
    expect(page.count).toBeGreaterThan(100);
    started = performance.now();
    const second = await search(sim, sim.demo.apiKey, { ...body, pagination_token: page.pagination_token });
    const pageMs = performance.now() - started;
    expect(second.status).toBe(200);
    console.log(`search over ${PEOPLE} people: first page ${scanMs.toFixed(1)} ms (${page.count} matches), next page ${pageMs.toFixed(1)} ms`);
  });
});
