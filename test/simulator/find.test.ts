import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Person, type Simulator } from '../../electron/simulator';
import { foldText } from '../../electron/simulator/scoring';
import { find, items, message, postJson, type Term } from './http';

let sim: Simulator;
let people: Person[];

beforeAll(async () => {
  // Scores on: most of these tests read the simulator's own ranking through them.
  sim = await startSimulator({ people: 20_000, seed: 11, scores: true });
  people = sim.dataset.people;
});
afterAll(() => sim.close());

const findUrl = () => `${sim.baseUrl}/api/people/v1/${sim.orgId}/find`;
const byEmail = (p: Person): Term[] => [{ field_name: 'email_address', search_term: p.email_address }];
const byName = (name: string): Term[] => [{ field_name: 'name', search_term: name }];

/** People grouped by folded full name. */
function namesakes(): Map<string, Person[]> {
  const groups = new Map<string, Person[]>();
  for (const p of people) {
    const key = foldText(p.name);
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  return groups;
}

/** A person nobody else shares a folded name with, whose name matches `test`. */
function uniquelyNamed(test: (p: Person) => boolean): Person {
  const groups = namesakes();
  const person = people.find((p) => test(p) && groups.get(foldText(p.name))!.length === 1);
  if (!person) throw new Error('dataset has no such person');
  return person;
}

describe('find: validation', () => {
  it.each([
    ['a body without matches', {}, /matches/],
    ['matches that is not an array', { matches: 'x' }, /matches/],
    ['empty matches', { matches: [] }, /empty/],
    ['a query with no fields', { matches: [{ fields: [] }] }, /matches\[0\]\.fields/],
    ['a query without fields', { matches: [{}] }, /matches\[0\]\.fields/],
    ['a term without field_name', { matches: [{ fields: [{ search_term: 'a' }] }] }, /field_name/],
    ['a non-string search_term', { matches: [{ fields: [{ field_name: 'name', search_term: 5 }] }] }, /search_term/],
    ['an empty search_term', { matches: [{ fields: [{ field_name: 'name', search_term: '  ' }] }] }, /search_term is empty/],
    ['an unknown field name', { matches: [{ fields: [{ field_name: 'phone', search_term: '1' }] }] }, /"phone" is not searchable/],
    ['an invalid JSON body', '{"matches": [', /not valid JSON/],
  ])('answers 400 with a specific message for %s', async (_label, body, pattern) => {
    const reply = await postJson(findUrl(), body, sim.demo.apiKey);
    expect(reply.status).toBe(400);
    expect(message(reply)).toMatch(pattern);
  });

  it('accepts exactly 100 queries and refuses 101 with the limit in the message', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => byEmail(people[i]));
    expect(items(await find(sim, sim.demo.apiKey, hundred))).toHaveLength(100);
    const tooMany = await find(sim, sim.demo.apiKey, [...hundred, byEmail(people[100])]);
    expect(tooMany.status).toBe(400);
    expect(message(tooMany)).toMatch(/101.*100/);
  });
});

describe('find: replies', () => {
  it('returns exactly one item per query, in query order, empty where nobody matches', async () => {
    const queries: Term[][] = [];
    const expected: (string | null)[] = [];
    for (let i = 0; i < 40; i++) {
      if (i % 3 === 2) {
        queries.push([{ field_name: 'email_address', search_term: `nobody-${i}@nowhere.invalid` }]);
        expected.push(null);
      } else {
        const p = people[i * 37];
        queries.push(i % 3 === 0 ? byEmail(p) : [{ field_name: 'social', search_term: p.linkedin }]);
        expected.push(p.id);
      }
    }
    const reply = items(await find(sim, sim.demo.apiKey, queries));
    expect(reply).toHaveLength(40);
    reply.forEach((item, i) => {
      if (expected[i] === null) expect(item).toEqual([]);
      else expect(item[0].id).toBe(expected[i]);
      expect(item.length).toBeLessThanOrEqual(5);
    });
  });

  it('matches e-mails and slugs exactly, ignoring case; accepts linkedin as an alias of social', async () => {
    const p = people[123];
    const reply = items(await find(sim, sim.demo.apiKey, [
      [{ field_name: 'email_address', search_term: p.email_address.toUpperCase() }],
      [{ field_name: 'social', search_term: p.linkedin.toUpperCase() }],
      [{ field_name: 'linkedin', search_term: p.linkedin }],
      [{ field_name: 'social', search_term: `https://www.linkedin.com/in/${p.linkedin}` }],
      [{ field_name: 'email_address', search_term: p.email_address.replace('@', '.x@') }],
    ]));
    expect(reply[0].map((x) => x.id)).toEqual([p.id]);
    expect(reply[1].map((x) => x.id)).toEqual([p.id]);
    expect(reply[2].map((x) => x.id)).toEqual([p.id]);
    expect(reply[0][0].score).toBe(1);
    // The spec says slug only: a URL finds nobody, as it would on the real service.
    expect(reply[3]).toEqual([]);
    expect(reply[4]).toEqual([]);
  });

  it('finds non-ASCII slugs as stored and percent-encoded', async () => {
    const p = people.find((x) => /[^\x20-\x7e]/.test(x.linkedin))!;
    expect(p).toBeDefined();
    const reply = items(await find(sim, sim.demo.apiKey, [
      [{ field_name: 'social', search_term: p.linkedin }],
      [{ field_name: 'social', search_term: encodeURIComponent(p.linkedin) }],
    ]));
    expect(reply[0][0].id).toBe(p.id);
    expect(reply[1][0].id).toBe(p.id);
  });

  it('never sends e-mail addresses in person records, and sends the documented person fields', async () => {
    const reply = items(await find(sim, sim.demo.apiKey, [byEmail(people[5]), byName(people[6].name)]));
    for (const person of reply.flat()) {
      expect(person).not.toHaveProperty('email_address');
      for (const field of ['id', 'name', 'first_name', 'last_name', 'linkedin', 'location', 'location_details', 'country', 'position', 'jobs']) {
        expect(person).toHaveProperty(field);
      }
      expect(typeof person.score).toBe('number');
    }
  });
});

describe('find: fuzzy names', () => {
  it('ignores accents, case and word order', async () => {
    const p = uniquelyNamed((x) => /[^\x20-\x7e]/.test(x.name) && x.name.split(' ').length === 2);
    const folded = foldText(p.name);
    const [first, last] = folded.split(' ');
    const variants = [p.name, folded, folded.toUpperCase(), `${last} ${first}`, `${last}, ${first}`];
    const reply = items(await find(sim, sim.demo.apiKey, variants.map(byName)));
    reply.forEach((item, i) => {
      expect(item[0]?.id, `variant "${variants[i]}"`).toBe(p.id);
      expect(item[0].score).toBe(1);
    });
  });

  it('forgives one typo per word, with a lower score', async () => {
    const p = uniquelyNamed((x) => /^[A-Za-z]+ [A-Za-z]{6,}$/.test(x.name));
    const [first, last] = p.name.split(' ');
    const swapped = `${last.slice(0, 2)}${last[3]}${last[2]}${last.slice(4)}`;
    const dropped = `${last.slice(0, 3)}${last.slice(4)}`;
    const changed = `${last.slice(0, 3)}${last[3] === 'q' ? 'z' : 'q'}${last.slice(4)}`;
    const reply = items(await find(sim, sim.demo.apiKey, [`${first} ${swapped}`, `${first} ${dropped}`, `${first} ${changed}`].map(byName)));
    for (const item of reply) {
      const hit = item.find((x) => x.id === p.id);
      expect(hit, JSON.stringify(item.map((x) => x.name))).toBeDefined();
      expect(hit!.score).toBeLessThan(1);
      expect(hit!.score).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('accepts an initial for a first name, but not a contradicting one', async () => {
    const p = uniquelyNamed((x) => /^[A-Z][a-z]+ [A-Z][a-z]{3,}$/.test(x.name));
    const [first, last] = p.name.split(' ');
    const other = first[0] === 'Q' ? 'X' : 'Q';
    const reply = items(await find(sim, sim.demo.apiKey, [byName(`${first[0]}. ${last}`), byName(`${other}. ${last}`)]));
    const hit = reply[0].find((x) => x.id === p.id);
    expect(hit, JSON.stringify(reply[0].map((x) => x.name))).toBeDefined();
    expect(hit!.score).toBeLessThan(1);
    expect(reply[1].map((x) => x.id)).not.toContain(p.id);
  });

  it('returns nobody for a name that matches no one', async () => {
    const reply = items(await find(sim, sim.demo.apiKey, [byName('Zzyzx Qwertyuiop')]));
    expect(reply[0]).toEqual([]);
  });

  it('ranks best first, at most five, scores between 0 and 1', async () => {
    const common = [...namesakes().values()].sort((a, b) => b.length - a.length)[0];
    const reply = items(await find(sim, sim.demo.apiKey, [byName(common[0].last_name)]));
    expect(reply[0].length).toBe(5);
    const scores = reply[0].map((x) => x.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const s of scores) {
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });
});

describe('find: company boost', () => {
  it('ranks the namesake whose current or past employer matches the company first', async () => {
    const group = [...namesakes().values()].find((list) => {
      const companies = new Set(list.map((p) => p.jobs[0].company.name));
      return list.length >= 2 && list.length <= 5 && companies.size === list.length && list.every((p) => p.jobs.length >= 2);
    });
    expect(group, 'the dataset should hold namesakes at different companies').toBeDefined();
    const target = group![1];
    const name = target.name;
    const current = target.jobs[0].company.name;
    const past = target.jobs.find((j) => !group!.some((other) => other !== target && other.jobs.some((oj) => oj.company === j.company)) && j !== target.jobs[0])?.company.name;

    const nameOnly = items(await find(sim, sim.demo.apiKey, [byName(name)]))[0];
    const sameName = nameOnly.filter((x) => group!.some((p) => p.id === x.id));
    expect(new Set(sameName.map((x) => x.score)).size).toBe(1);

    const queries: Term[][] = [[...byName(name), { field_name: 'company.name', search_term: current.toLowerCase() }]];
    if (past) queries.push([...byName(name), { field_name: 'company.name', search_term: past }]);
    const boosted = items(await find(sim, sim.demo.apiKey, queries));
    for (const item of boosted) {
      expect(item[0].id).toBe(target.id);
      expect(item[0].score).toBeGreaterThan(item[1]?.score ?? 0);
      expect(item[0].score).toBeGreaterThan(sameName[0].score! * 0.75);
    }
    if (past) expect(boosted[1][0].score).toBeLessThanOrEqual(boosted[0][0].score!);
  });

  it('matches a company typed with a typo or without its legal suffix', async () => {
    const p = people.find((x) => / (Inc|GmbH|LLC|Ltd)\.?$/.test(x.jobs[0].company.name) && x.jobs[0].ended_at === null)!;
    const bare = p.jobs[0].company.name.replace(/ (Inc|GmbH|LLC|Ltd)\.?$/, '');
    const words = bare.split(' ');
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
    const typo = bare.replace(longest, longest.slice(0, -1));
    const reply = items(await find(sim, sim.demo.apiKey, [
      [...byName(p.name), { field_name: 'company.name', search_term: bare }],
      [...byName(p.name), { field_name: 'company.name', search_term: typo }],
      [...byName(p.name), { field_name: 'company.name', search_term: 'Completely Unrelated Widgets' }],
    ]));
    const score = (item: typeof reply[0]) => item.find((x) => x.id === p.id)?.score ?? 0;
    expect(score(reply[0])).toBeGreaterThan(score(reply[2]));
    expect(score(reply[1])).toBeGreaterThan(score(reply[2]));
  });
});

describe('find: reply shapes', () => {
  const queries = () => [byEmail(people[1]), byEmail({ ...people[1], email_address: 'nobody@nowhere.invalid' })];

  it.each([
    ['array', (body: unknown) => body as unknown[][]],
    ['people', (body: unknown) => (body as { found: boolean; people: unknown[] }[]).map((i) => i.people)],
    ['results', (body: unknown) => (body as { results: unknown[] }[]).map((i) => i.results)],
    ['matches', (body: unknown) => (body as { matches: { people: unknown[] }[] }).matches.map((i) => i.people)],
  ] as const)('sends the %s shape', async (shape, unwrap) => {
    sim.setFindShape(shape);
    try {
      const reply = await find(sim, sim.demo.apiKey, queries());
      expect(reply.status).toBe(200);
      const lists = unwrap(reply.json) as { id: string }[][];
      expect(lists).toHaveLength(2);
      expect(lists[0][0].id).toBe(people[1].id);
      expect(lists[1]).toEqual([]);
      if (shape === 'people') expect((reply.json as { found: boolean }[]).map((i) => i.found)).toEqual([true, false]);
      if (shape === 'matches') expect(Array.isArray(reply.json)).toBe(false);
    } finally {
      sim.setFindShape('array');
    }
  });

  it('sends no scores by default, as the real service, nor when scores is off', async () => {
    const [plain, off] = await Promise.all([startSimulator({ people: 200, seed: 11 }), startSimulator({ people: 200, seed: 11, scores: false })]);
    try {
      for (const target of [plain, off]) {
        const reply = items(await find(target, target.demo.apiKey, [byEmail(target.dataset.people[0]), byName(target.dataset.people[1].name)]));
        expect(reply[0][0].id).toBe(target.dataset.people[0].id);
        expect(reply[1].length).toBeGreaterThan(0);
        for (const person of reply.flat()) expect(person).not.toHaveProperty('score');
      }
    } finally {
      await Promise.all([plain.close(), off.close()]);
    }
  });

  it('refuses an unknown shape', () => {
    expect(() => sim.setFindShape('xml' as never)).toThrow(/xml/);
  });
});

describe('find: counters', () => {
  it('counts calls, queries, each distinct query by its sorted fields and the replies\' bytes', async () => {
    sim.resetCounters();
    const q1: Term[] = [{ field_name: 'name', search_term: 'Ann Lee' }, { field_name: 'company.name', search_term: 'Acme' }];
    const q1Reordered: Term[] = [q1[1], q1[0]];
    const first = await find(sim, sim.demo.apiKey, [q1, q1Reordered, byEmail(people[2])]);
    const second = await find(sim, sim.demo.apiKey, [byEmail(people[2])]);
    // A refused call sends no reply worth counting.
    expect((await find(sim, sim.demo.apiKey, [[]])).status).toBe(400);
    const counters = sim.counters();
    expect(counters.replyBytes).toBe(Buffer.byteLength(first.text) + Buffer.byteLength(second.text));
    expect(counters.findCalls).toBe(3);
    expect(counters.calls).toBe(3);
    expect(counters.queries).toBe(4);
    const key = JSON.stringify([{ field_name: 'company.name', search_term: 'Acme' }, { field_name: 'name', search_term: 'Ann Lee' }]);
    expect(counters.queryKeys.get(key)).toBe(2);
    expect(counters.queryKeys.get(JSON.stringify(byEmail(people[2])))).toBe(2);
    // The same figures without the copy of every query, as a run's poll reads them.
    const { queryKeys, ...figures } = counters;
    expect(sim.tallies()).toEqual({ ...figures, distinctQueries: queryKeys.size });
    expect(queryKeys.size).toBe(2);
  });
});

describe('find: namesakes, colleagues and companies as the real service has them', () => {
  const byNameAt = (name: string, company: string): Term[] => [...byName(name), { field_name: 'company.name', search_term: company }];
  const current = (p: Person) => (p.jobs[0]?.ended_at === null ? p.jobs[0].company : null);
  const holds = (p: Person, companyId: string) => p.jobs.some((j) => j.company.id === companyId);
  /** Folded name + company id -> the people of that name who hold or held it, built once. */
  let staffByName: Map<string, Person[]> | null = null;
  const holders = (name: string, companyId: string): Person[] => {
    if (!staffByName) {
      staffByName = new Map();
      for (const p of people) {
        for (const id of new Set(p.jobs.map((j) => j.company.id))) {
          const key = `${foldText(p.name)}|${id}`;
          staffByName.set(key, [...(staffByName.get(key) ?? []), p]);
        }
      }
    }
    return staffByName.get(`${foldText(name)}|${companyId}`) ?? [];
  };
  /** People nobody else of the same name works or worked with at their current company. */
  const aloneAtWork = (test: (p: Person) => boolean = () => true): Person[] =>
    people.filter((p) => current(p) && holders(p.name, current(p)!.id).length === 1 && test(p));

  it('answers name + company only with people who hold or held a company of that name', async () => {
    const sample = aloneAtWork().filter((_, i) => i % 97 === 0).slice(0, 40);
    const reply = items(await find(sim, sim.demo.apiKey, sample.map((p) => byNameAt(p.name, current(p)!.name))));
    const word = (name: string) => foldText(name).split(' ').find((w) => w.length >= 3) ?? foldText(name);
    reply.forEach((item, i) => {
      const p = sample[i]!;
      expect(item[0]?.id, p.name).toBe(p.id);
      const wanted = word(current(p)!.name);
      for (const other of item) {
        const record = people.find((x) => x.id === other.id)!;
        expect(record.jobs.some((j) => foldText(j.company.name).includes(wanted)), `${record.name} at ${record.jobs.map((j) => j.company.name)}`).toBe(true);
      }
    });
  });

  it('returns both colleagues who share a name, and a near-name colleague beside the exact one', async () => {
    const employed = people.filter((p) => current(p));
    const twin = employed.find((a) => holders(a.name, current(a)!.id).filter((b) => current(b)?.id === current(a)!.id).length >= 2)!;
    expect(twin, 'the dataset should hold same-name colleagues').toBeDefined();
    const twins = holders(twin.name, current(twin)!.id);
    expect(twins.length).toBeLessThanOrEqual(5);
    const variants = [['Anna', 'Anne', 'Ann'], ['Jon', 'John'], ['Katherine', 'Catherine', 'Kathryn'], ['Steven', 'Stephen'], ['Sara', 'Sarah']];
    const bySurnameAtWork = new Map<string, Person[]>();
    for (const p of employed) bySurnameAtWork.set(`${p.last_name}|${current(p)!.id}`, [...(bySurnameAtWork.get(`${p.last_name}|${current(p)!.id}`) ?? []), p]);
    const pairOf = (a: Person) => bySurnameAtWork.get(`${a.last_name}|${current(a)!.id}`)!.find((b) => b.first_name !== a.first_name
      && variants.some((g) => g.includes(a.first_name) && g.includes(b.first_name)));
    const anna = aloneAtWork((p) => pairOf(p) !== undefined && holders(pairOf(p)!.name, current(p)!.id).length === 1)[0]!;
    expect(anna, 'the dataset should hold near-name colleagues').toBeDefined();
    const reply = items(await find(sim, sim.demo.apiKey, [byNameAt(twin.name, current(twin)!.name), byNameAt(anna.name, current(anna)!.name)]));
    expect(reply[0].slice(0, twins.length).map((x) => x.id).sort()).toEqual(twins.map((p) => p.id).sort());
    expect(reply[1][0]!.id).toBe(anna.id);
    expect(reply[1].map((x) => x.id)).toContain(pairOf(anna)!.id);
  });

  it('finds the company however a sheet spells it', async () => {
    const candidates = aloneAtWork();
    const at = (pattern: RegExp) => candidates.find((p) => pattern.test(current(p)!.name))!;
    const suffixed = at(/^[A-Z][a-z]+ [A-Z][a-z]+ (Inc|Ltd|LLC|Corp)\.?$/);
    const bare = current(suffixed)!.name.replace(/ (Inc|Ltd|LLC|Corp)\.?$/, '');
    const umlaut = at(/[äöü].* & /i);
    const joined = at(/^[A-Z][a-z]+(harbor|peak|wave|stone|bridge|field|point|ridge|gate|line|path) [A-Z]/);
    const split = current(joined)!.name.replace(/^([A-Z][a-z]+)(harbor|peak|wave|stone|bridge|field|point|ridge|gate|line|path) /, (_m, a: string, b: string) => `${a} ${b[0]!.toUpperCase()}${b.slice(1)} `);
    const spellings: [Person, string][] = [
      [suffixed, bare],
      [suffixed, bare.toUpperCase()],
      [suffixed, `${bare}, Inc.`],
      [suffixed, `The ${bare} Company`],
      [umlaut, current(umlaut)!.name.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(' & ', ' and ')],
      [joined, split],
    ];
    for (const [p, spelled] of spellings) expect(spelled, `a spelling of ${current(p)!.name}`).not.toBe(current(p)!.name);
    const reply = items(await find(sim, sim.demo.apiKey, spellings.map(([p, spelled]) => byNameAt(p.name, spelled))));
    reply.forEach((item, i) => expect(item[0]?.id, `"${spellings[i]![1]}" for ${current(spellings[i]![0])!.name}`).toBe(spellings[i]![0].id));
  });

  it('finds Robert when the sheet says Bob, and William when it says Bill', async () => {
    const robert = aloneAtWork((p) => p.first_name === 'Robert' && holders(`Bob ${p.last_name}`, current(p)!.id).length === 0)[0]!;
    const william = aloneAtWork((p) => p.first_name === 'William' && holders(`Bill ${p.last_name}`, current(p)!.id).length === 0)[0]!;
    const reply = items(await find(sim, sim.demo.apiKey, [byNameAt(`Bob ${robert.last_name}`, current(robert)!.name), byNameAt(`Bill ${william.last_name}`, current(william)!.name)]));
    expect(reply[0].map((x) => x.id)).toContain(robert.id);
    expect(reply[1].map((x) => x.id)).toContain(william.id);
  });

  it('returns a person once when both of their names are among the words walked, with a company', async () => {
    // A third word more common than either of theirs: their first and last names are then the two words walked,
    // so they turn up twice and must be answered once.
    const firstCounts = new Map<string, number>();
    for (const p of people) firstCounts.set(foldText(p.first_name), (firstCounts.get(foldText(p.first_name)) ?? 0) + 1);
    const [common] = [...firstCounts].sort((a, b) => b[1] - a[1])[0]!;
    const p = aloneAtWork((x) => ![foldText(x.first_name), foldText(x.last_name)].includes(common) && foldText(x.name).split(' ').length === 2)[0]!;
    const reply = items(await find(sim, sim.demo.apiKey, [byNameAt(`${p.first_name} ${p.last_name} ${common}`, current(p)!.name)]));
    const ids = reply[0]!.map((x) => x.id);
    expect(ids).toContain(p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('returns nobody of the name for a company where nobody of that name works, though namesakes work elsewhere', async () => {
    const counts = new Map<string, Person[]>();
    for (const p of people) counts.set(foldText(p.name), [...(counts.get(foldText(p.name)) ?? []), p]);
    const namesakes = [...counts.values()].find((list) => list.length >= 3)!;
    const elsewhere = sim.dataset.companies.find((c) => !namesakes.some((p) => holds(p, c.id)))!;
    const reply = items(await find(sim, sim.demo.apiKey, [byNameAt(namesakes[0]!.name, elsewhere.name), byName(namesakes[0]!.name)]));
    expect(reply[0].filter((x) => foldText(x.name) === foldText(namesakes[0]!.name))).toEqual([]);
    // The name alone finds them.
    expect(reply[1].filter((x) => foldText(x.name) === foldText(namesakes[0]!.name)).length).toBe(Math.min(5, namesakes.length));
  });
});
