import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Job, type Person, type Simulator } from '../../electron/simulator';
import { foldText } from '../../electron/simulator/scoring';
import { message, search, type PersonReply } from './http';

let sim: Simulator;
let people: Person[];

beforeAll(async () => {
  sim = await startSimulator({ people: 5000, seed: 5 });
  people = sim.dataset.people;
});
afterAll(() => sim.close());

type Filter = Record<string, unknown>;
type Page = { people: PersonReply[]; count: number; pagination_token: string | null };

const leaf = (field: string, type: string, match_type: string, extra: Filter = {}): Filter => ({ field, type, match_type, ...extra });

async function page(body: Filter): Promise<Page> {
  const reply = await search(sim, sim.demo.apiKey, body);
  if (reply.status !== 200) throw new Error(`search failed: ${reply.status} ${reply.text}`);
  return reply.json as Page;
}

/** Every page until the token runs out; checks the paging contract on the way. */
async function all(filters: Filter[], size = 100): Promise<{ ids: string[]; count: number; pages: number }> {
  const ids: string[] = [];
  let token: string | null = null;
  let count = -1;
  let pages = 0;
  do {
    const reply: Page = await page({ filters, size, pagination_token: token });
    pages++;
    if (count === -1) count = reply.count;
    expect(reply.count).toBe(count);
    expect(reply.people.length).toBeLessThanOrEqual(size);
    ids.push(...reply.people.map((p) => p.id));
    token = reply.pagination_token;
    if (token !== null) expect(reply.people.length).toBe(size);
    if (pages > 200) throw new Error('paging never ended');
  } while (token !== null);
  return { ids, count, pages };
}

const oracle = (test: (p: Person) => boolean) => people.filter(test).map((p) => p.id);
const anyJob = (p: Person, test: (j: Job) => boolean) => p.jobs.some(test);

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe('search: filters', () => {
  it('combines must and must_not on jobs fields, and pages to the end in dataset order', async () => {
    const filters = [leaf('jobs.function', 'must', 'exact', { string_values: ['Design'] }), leaf('jobs.level', 'must_not', 'exact', { string_values: ['Intern'] })];
    const expected = oracle((p) => anyJob(p, (j) => j.function === 'Design') && !anyJob(p, (j) => j.level === 'Intern'));
    expect(expected.length).toBeGreaterThan(150);
    const result = await all(filters, 60);
    expect(result.count).toBe(expected.length);
    expect(result.ids).toEqual(expected);
    expect(result.pages).toBe(Math.ceil(expected.length / 60));
  });

  it('string_values match any of the listed values; nested or-groups work', async () => {
    const filters = [
      { operator: 'or', filters: [leaf('jobs.function', 'must', 'exact', { string_values: ['Legal'] }), leaf('jobs.function', 'must', 'exact', { string_values: ['Research'] })] },
      leaf('country', 'must', 'exact', { string_values: ['germany', 'France'] }),
    ];
    const expected = oracle((p) => anyJob(p, (j) => j.function === 'Legal' || j.function === 'Research') && ['Germany', 'France'].includes(p.country));
    expect(expected.length).toBeGreaterThan(0);
    expect((await all(filters)).ids).toEqual(expected);
    const negated = [{ operator: 'and', type: 'must_not', filters: [leaf('country', 'must', 'exact', { string_values: ['Germany'] })] }];
    expect((await page({ filters: negated, size: 0 })).count).toBe(oracle((p) => p.country !== 'Germany').length);
  });

  it('exists: present / absent, on person-level and job-level fields', async () => {
    const noEducation = await all([leaf('education.school', 'must_not', 'exists')]);
    expect(noEducation.ids).toEqual(oracle((p) => !p.education || p.education.length === 0));
    const onlyCurrentJobs = await all([leaf('jobs.ended_at', 'must_not', 'exists')]);
    expect(onlyCurrentJobs.ids).toEqual(oracle((p) => p.jobs.every((j) => j.ended_at === null)));
    const withPosition = await page({ filters: [leaf('position', 'must', 'exists')], size: 0 });
    expect(withPosition.count).toBe(oracle((p) => p.position !== null).length);
  });

  it('date ranges are inclusive YYYY-MM-DD bounds on date fields', async () => {
    const started2020 = await all([leaf('jobs.started_at', 'must', 'exact', { date_from: '2020-01-01', date_to: '2020-12-31' })]);
    expect(started2020.ids).toEqual(oracle((p) => anyJob(p, (j) => j.started_at >= '2020-01-01' && j.started_at <= '2020-12-31')));
    const someone = people.find((p) => p.jobs.length > 1 && p.jobs[1].ended_at)!;
    const exactDay = someone.jobs[1].ended_at!;
    const bounded = await all([leaf('jobs.ended_at', 'must', 'exact', { date_from: exactDay, date_to: exactDay })]);
    expect(bounded.ids).toContain(someone.id);
    expect(bounded.ids).toEqual(oracle((p) => anyJob(p, (j) => j.ended_at === exactDay)));
  });

  it('job_group: filters sharing a group must hold for the same job entry', async () => {
    // Someone whose job at X ended before D while another of their jobs ended on or after D.
    let target: { person: Person; company: string; date: string } | undefined;
    for (const p of people) {
      for (const a of p.jobs) {
        const b = p.jobs.find((j) => j.company !== a.company && j.ended_at && a.ended_at && j.ended_at > a.ended_at);
        const laterAtX = p.jobs.some((j) => j.company === a.company && (j.ended_at === null || (a.ended_at !== null && j.ended_at > a.ended_at)));
        if (b && a.ended_at && !laterAtX) target = { person: p, company: a.company.id, date: nextDay(a.ended_at) };
        if (target) break;
      }
      if (target) break;
    }
    expect(target).toBeDefined();
    const { person, company, date } = target!;
    const atX = leaf('jobs.company.id', 'must', 'exact', { string_values: [company] });
    const endedAfter = leaf('jobs.ended_at', 'must', 'exact', { date_from: date });
    const only = leaf('id', 'must', 'exact', { string_values: [person.id] });

    expect((await page({ filters: [only, atX, endedAfter] })).people.map((p) => p.id)).toEqual([person.id]);
    expect((await page({ filters: [only, { ...atX, job_group: 1 }, { ...endedAfter, job_group: 1 }] })).people).toEqual([]);
    // Different group numbers behave like no grouping.
    expect((await page({ filters: [only, { ...atX, job_group: 1 }, { ...endedAfter, job_group: 2 }] })).count).toBe(1);

    const loose = await all([atX, endedAfter]);
    const grouped = await all([{ ...atX, job_group: 0 }, { ...endedAfter, job_group: 0 }]);
    expect(loose.ids).toEqual(oracle((p) => anyJob(p, (j) => j.company.id === company) && anyJob(p, (j) => j.ended_at !== null && j.ended_at >= date)));
    expect(grouped.ids).toEqual(oracle((p) => anyJob(p, (j) => j.company.id === company && j.ended_at !== null && j.ended_at >= date)));
  });

  it('fuzzy matching forgives accents, case and company legal suffixes', async () => {
    const accented = people.find((p) => /[^\x20-\x7e]/.test(p.name))!;
    const byName = await all([leaf('name', 'must', 'fuzzy', { string_values: [foldText(accented.name).toUpperCase()] })]);
    expect(byName.ids).toContain(accented.id);
    const exactName = await all([leaf('name', 'must', 'exact', { string_values: [accented.name.toLowerCase()] })]);
    expect(exactName.ids).toEqual(oracle((p) => p.name.toLowerCase() === accented.name.toLowerCase()));

    const company = people[10].jobs[0].company;
    const bare = company.name.replace(/ (Inc\.?|LLC|Ltd|GmbH|SA|AG|BV|plc|Corp|ApS|AB)$/, '').toLowerCase();
    const byCompany = await all([leaf('jobs.company.name', 'must', 'fuzzy', { string_values: [bare] })]);
    for (const id of oracle((p) => anyJob(p, (j) => j.company === company))) expect(byCompany.ids).toContain(id);

    const slug = await page({ filters: [leaf('social', 'must', 'exact', { string_values: [people[42].linkedin.toUpperCase()] })] });
    expect(slug.people.map((p) => p.id)).toEqual([people[42].id]);
    const bySocial = await all([leaf('jobs.company.social', 'must', 'exact', { string_values: [company.social] })]);
    expect(bySocial.ids).toEqual(oracle((p) => anyJob(p, (j) => j.company.social === company.social)));
  });
});

describe('search: paging and sizes', () => {
  const filters = [leaf('jobs.level', 'must', 'exact', { string_values: ['Manager', 'Director'] })];

  it('size 0 returns the count only', async () => {
    const reply = await page({ filters, size: 0 });
    expect(reply.people).toEqual([]);
    expect(reply.pagination_token).toBeNull();
    expect(reply.count).toBe(oracle((p) => anyJob(p, (j) => j.level === 'Manager' || j.level === 'Director')).length);
  });

  it('defaults to 50 per page and gives stable tokens for the same request', async () => {
    const first = await page({ filters });
    expect(first.people).toHaveLength(50);
    expect(first.pagination_token).toEqual(expect.any(String));
    const again = await page({ filters });
    expect(again.pagination_token).toBe(first.pagination_token);
    const second = await page({ filters, pagination_token: first.pagination_token });
    expect(second.people[0].id).not.toBe(first.people[0].id);
  });

  it('refuses a token from another search, a forged token, and sizes outside 0..100', async () => {
    const first = await page({ filters });
    const other = await search(sim, sim.demo.apiKey, { filters, size: 20, pagination_token: first.pagination_token });
    expect(other.status).toBe(400);
    expect(message(other)).toMatch(/different search/);
    const forged = await search(sim, sim.demo.apiKey, { filters, pagination_token: 'bm9wZQ' });
    expect(forged.status).toBe(400);
    for (const size of [101, -1, 2.5, '10']) {
      const reply = await search(sim, sim.demo.apiKey, { filters, size });
      expect(reply.status, `size ${JSON.stringify(size)}`).toBe(400);
      expect(message(reply)).toMatch(/size/);
    }
  });

  it('counts search calls and charges nothing without a budget', async () => {
    sim.resetCounters();
    const reply = await search(sim, sim.demo.apiKey, { filters, size: 1 });
    expect(reply.headers.get('x-ldt-credits-used')).toBeNull();
    expect(sim.counters().searchCalls).toBe(1);
  });
});

describe('search: validation', () => {
  it.each([
    ['no filters', {}, /filters/],
    ['empty filters', { filters: [] }, /non-empty/],
    ['an unknown field', { filters: [leaf('jobs.salary', 'must', 'exact', { string_values: ['1'] })] }, /"jobs.salary" is not a searchable field/],
    ['a bad type', { filters: [leaf('name', 'should', 'fuzzy', { string_values: ['a'] })] }, /type must be/],
    ['a bad match_type', { filters: [leaf('name', 'must', 'regex', { string_values: ['a'] })] }, /match_type/],
    ['missing string_values', { filters: [leaf('name', 'must', 'fuzzy')] }, /needs string_values/],
    ['non-string values', { filters: [leaf('name', 'must', 'fuzzy', { string_values: [1] })] }, /array of strings/],
    ['a malformed date', { filters: [leaf('jobs.ended_at', 'must', 'exact', { date_from: '2020/01/01' })] }, /YYYY-MM-DD/],
    ['an impossible date', { filters: [leaf('jobs.ended_at', 'must', 'exact', { date_from: '2020-02-30' })] }, /not a real date/],
    ['reversed dates', { filters: [leaf('jobs.ended_at', 'must', 'exact', { date_from: '2021-01-01', date_to: '2020-01-01' })] }, /after/],
    ['a date on a non-date field', { filters: [leaf('name', 'must', 'exact', { date_from: '2020-01-01' })] }, /only apply to date fields/],
    ['job_group on a person field', { filters: [leaf('name', 'must', 'exact', { string_values: ['a'], job_group: 1 })] }, /job_group only applies/],
    ['a fractional job_group', { filters: [leaf('jobs.title', 'must', 'exact', { string_values: ['a'], job_group: 1.5 })] }, /job_group/],
    ['a bad group operator', { filters: [{ operator: 'xor', filters: [leaf('name', 'must', 'exists')] }] }, /operator/],
    ['an empty group', { filters: [{ operator: 'and', filters: [] }] }, /non-empty/],
  ])('answers 400 for %s', async (_label, body, pattern) => {
    const reply = await search(sim, sim.demo.apiKey, body);
    expect(reply.status).toBe(400);
    expect(message(reply)).toMatch(pattern);
  });
});
