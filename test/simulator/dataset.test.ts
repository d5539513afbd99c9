import { describe, expect, it } from 'vitest';
import { JOB_FUNCTIONS, JOB_LEVELS, buildDataset, startSimulator, type Person } from '../../electron/simulator';
import { foldText } from '../../electron/simulator/scoring';
import { find, search, type Term } from './http';

describe('dataset', () => {
  const dataset = buildDataset(20_000, 4);
  const people = dataset.people;

  it('is the same for the same seed, different for another, and ignores Math.random', () => {
    const again = buildDataset(3000, 4);
    const original = Math.random;
    Math.random = () => 0.5;
    let underFixedRandom;
    try {
      underFixedRandom = buildDataset(3000, 4);
    } finally {
      Math.random = original;
    }
    const first = JSON.stringify(buildDataset(3000, 4));
    expect(JSON.stringify(again)).toBe(first);
    expect(JSON.stringify(underFixedRandom)).toBe(first);
    expect(JSON.stringify(buildDataset(3000, 5))).not.toBe(first);
  });

  it('gives every person a unique p_ id, e-mail and lower-case slug', () => {
    expect(new Set(people.map((p) => p.id)).size).toBe(people.length);
    expect(people.every((p) => /^p_[0-9a-z]+$/.test(p.id))).toBe(true);
    expect(new Set(people.map((p) => p.email_address)).size).toBe(people.length);
    expect(new Set(people.map((p) => p.linkedin)).size).toBe(people.length);
    expect(people.every((p) => p.linkedin === p.linkedin.toLowerCase() && !p.linkedin.includes('/'))).toBe(true);
    expect(people.some((p) => /\d/.test(p.linkedin))).toBe(true);
    expect(people.some((p) => /[^\x20-\x7e]/.test(p.linkedin))).toBe(true);
  });

  it('has non-ASCII names, apostrophes, and people sharing full names and companies', () => {
    const names = new Set(people.map((p) => p.name));
    const firstNames = new Set(people.map((p) => p.first_name));
    for (const name of ['José', 'Zoë', 'Łukasz', 'Søren']) expect(firstNames).toContain(name);
    expect(people.some((p) => p.last_name === 'Müller')).toBe(true);
    expect(people.some((p) => p.last_name.startsWith('Nguy'))).toBe(true);
    expect(people.some((p) => p.name.includes("O'"))).toBe(true);
    expect(names.size).toBeLessThan(people.length);
    expect(dataset.companies.length).toBeGreaterThanOrEqual(100);
    expect(dataset.companies.length).toBeLessThanOrEqual(400);
    const employers = new Set(people.flatMap((p) => p.jobs.map((j) => j.company.id)));
    expect(employers.size).toBeLessThanOrEqual(dataset.companies.length);
  });

  it('lists jobs most recent first, with the vocabularies of the service and a current job only first', () => {
    // Collected, then asserted once: 20,000 people times a handful of expects would take seconds.
    const problems: string[] = [];
    const functions = new Set<string>(JOB_FUNCTIONS);
    const levels = new Set<string>(JOB_LEVELS);
    for (const p of people) {
      if (p.jobs.length === 0) problems.push(`${p.id}: no jobs`);
      p.jobs.forEach((job, i) => {
        if (!functions.has(job.function)) problems.push(`${p.id}: function ${job.function}`);
        if (!levels.has(job.level)) problems.push(`${p.id}: level ${job.level}`);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(job.started_at)) problems.push(`${p.id}: started_at ${job.started_at}`);
        if (i > 0 && job.ended_at === null) problems.push(`${p.id}: an older job is current`);
        if (i > 0 && job.started_at > p.jobs[i - 1].started_at) problems.push(`${p.id}: jobs out of order`);
        if (job.ended_at !== null && job.ended_at <= job.started_at) problems.push(`${p.id}: ended before it started`);
      });
      if ((p.position === null) !== (p.jobs[0]?.ended_at !== null)) problems.push(`${p.id}: position does not match the current job`);
      if (p.country !== p.location_details.country) problems.push(`${p.id}: country differs from location_details`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(people.some((p) => p.jobs[0].ended_at !== null)).toBe(true);
    expect(people.some((p) => (p.education ?? []).length > 0) && people.some((p) => p.education === undefined)).toBe(true);
  });
});

describe('two starts with the same seed', () => {
  it('serve the same people and the same find and search replies', async () => {
    const [a, b] = await Promise.all([startSimulator({ people: 3000, seed: 77 }), startSimulator({ people: 3000, seed: 77 })]);
    try {
      const queries: Term[][] = [
        [{ field_name: 'name', search_term: a.dataset.people[10].last_name }],
        [{ field_name: 'name', search_term: a.dataset.people[11].name }, { field_name: 'company.name', search_term: 'labs' }],
        [{ field_name: 'email_address', search_term: a.dataset.people[12].email_address }],
      ];
      const [fa, fb] = await Promise.all([find(a, a.demo.apiKey, queries), find(b, b.demo.apiKey, queries)]);
      expect(fa.status).toBe(200);
      expect(fa.text).toBe(fb.text);
      const body = { filters: [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Engineering'] }], size: 25 };
      const [sa, sb] = await Promise.all([search(a, a.demo.apiKey, body), search(b, b.demo.apiKey, body)]);
      expect(sa.text).toBe(sb.text);
      expect(b.dataset.people[2999]).toEqual(a.dataset.people[2999]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('dataset: people as the real service has them', () => {
  const dataset = buildDataset(20_000, 4);
  const people = dataset.people;
  const folded = new Map(people.map((p) => [p, foldText(p.name)]));
  const fold = (p: Person) => folded.get(p)!;
  const employers = new Map(people.map((p) => [p, new Set(p.jobs.map((j) => j.company.id))]));
  const companiesOf = (p: Person) => employers.get(p)!;
  const current = (p: Person) => (p.jobs[0]?.ended_at === null ? p.jobs[0].company.id : null);

  /** Pairs of different people with `related` names who both hold or held one company (`now`: both currently). */
  function colleaguePairs(related: (a: Person, b: Person) => boolean, now: boolean): [Person, Person][] {
    const byCompany = new Map<string, Person[]>();
    for (const p of people) {
      for (const id of now ? [current(p)].filter((c): c is string => c !== null) : companiesOf(p)) {
        const list = byCompany.get(id);
        if (list) list.push(p);
        else byCompany.set(id, [p]);
      }
    }
    const pairs: [Person, Person][] = [];
    for (const staff of byCompany.values()) {
      for (let i = 0; i < staff.length; i++) for (let j = i + 1; j < staff.length; j++) if (related(staff[i]!, staff[j]!)) pairs.push([staff[i]!, staff[j]!]);
    }
    return pairs;
  }

  it('shares common names among many people', () => {
    const counts = new Map<string, number>();
    for (const p of people) counts.set(fold(p), (counts.get(fold(p)) ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(sorted[0]).toBeGreaterThanOrEqual(15);
    expect(sorted.filter((n) => n >= 5).length).toBeGreaterThanOrEqual(20);
    // Most names are still rare: a name alone finds most people among a handful.
    expect(people.filter((p) => counts.get(fold(p))! <= 5).length / people.length).toBeGreaterThan(0.7);
  });

  it('has colleagues with exactly the same name, both there now or one of them in the past', () => {
    const sameName = (a: Person, b: Person) => fold(a) === fold(b);
    const bothNow = colleaguePairs(sameName, true);
    expect(bothNow.length).toBeGreaterThanOrEqual(50);
    const oneInThePast = colleaguePairs(sameName, false).filter(([a, b]) => {
      const shared = [...companiesOf(a)].filter((c) => companiesOf(b).has(c));
      return shared.some((c) => (current(a) === c) !== (current(b) === c));
    });
    expect(oneInThePast.length).toBeGreaterThanOrEqual(20);
  });

  it('has colleagues whose names are a spelling or a letter apart (Anna and Anne)', () => {
    const spelling = colleaguePairs((a, b) => a.last_name === b.last_name && a.first_name !== b.first_name
      && [['Anna', 'Anne', 'Ann'], ['Jon', 'John'], ['Katherine', 'Catherine', 'Kathryn'], ['Steven', 'Stephen']].some((g) => g.includes(a.first_name) && g.includes(b.first_name)), true);
    expect(spelling.length).toBeGreaterThanOrEqual(10);
    const typo = colleaguePairs((a, b) => a.first_name === b.first_name && a.last_name !== b.last_name && a.last_name.length === b.last_name.length
      && [...a.last_name].filter((ch, i) => ch !== b.last_name[i]).length === 1, true);
    expect(typo.length).toBeGreaterThanOrEqual(50);
  });

  it('gives many people past employers other than their current one', () => {
    const moved = people.filter((p) => current(p) !== null && p.jobs.slice(1).some((j) => j.company.id !== current(p)));
    expect(moved.length / people.length).toBeGreaterThan(0.4);
  });

  it('names companies canonically, one company per spelling a sheet could use', () => {
    const names = dataset.companies.map((c) => c.name);
    // "Globex Inc."-like brands, "Müller & Söhne"-like family firms, joined words like "Blueharbor".
    expect(names.some((n) => /^[A-Z][\p{L}]+ (Inc\.?|LLC|Ltd|GmbH|SA|AG|BV|plc|Corp|ApS|AB)$/u.test(n))).toBe(true);
    expect(names.some((n) => / & (Söhne|Sons|Partners|Töchter|Brothers)\b/.test(n))).toBe(true);
    expect(names.some((n) => /^\p{Lu}\p{L}+(harbor|peak|wave|stone|bridge|field|point|ridge|gate|line|path) /u.test(n))).toBe(true);
    const key = (name: string) => foldText(name.replace(/[äöü]/g, (c) => ({ ä: 'a', ö: 'o', ü: 'u' })[c]!))
      .replace(/\b(inc|llc|ltd|gmbh|sa|ag|bv|plc|corp|aps|ab|the|and|company|co)\b/g, '').replace(/[aou]e/g, (m) => m[0]!).replace(/ /g, '');
    expect(new Set(names.map(key)).size).toBe(names.length);
  });
});
