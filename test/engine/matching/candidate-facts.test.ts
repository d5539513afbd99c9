import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FACTS_VERSION, readStoredSummary } from '../../../electron/engine/matching/candidate-facts';
import { answerPeople, candidateFacts, looseDate, readStoredFacts, readStoredPersonFacts, rankedFacts, storedFacts, storedPersonFacts, type CandidateFacts } from '../../../electron/engine/matching';
import { version3Row } from './version3-facts';

describe('looseDate', () => {
  it.each<[unknown, string | null]>([
    ['2024-03-15', '2024-03-15'],
    ['2024-03-15T10:00:00Z', '2024-03-15'],
    ['2024-3', '2024-03'],
    ['2024', '2024'],
    ['03/2024', '2024-03'],
    ['March 2024', '2024-03'],
    ['Sep. 2021', '2021-09'],
    [2019, '2019'],
    [1710460800000, '2024-03-15'],
    [1710460800, '2024-03-15'],
    ['sometime', null],
    ['2024-13-01', null],
    ['1850', null],
    [null, null],
    [{}, null],
    ['2100-12-31', '2100-12-31'],
    ['1899-12-31', null],
    ['2101-01-01', null],
    ['2024-00-10', null],
    ['2024-02-32', null],
    ['2024-02-00', null],
  ])('%j reads as %j', (value, expected) => {
    expect(looseDate(value)).toBe(expected);
  });

  it('reads a whole day by its digits as the forms with fewer do, and stores it as a number that reads back the same', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2300 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), (y, m, d) => {
        const day = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
        const valid = y >= 1900 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
        expect(looseDate(day)).toBe(valid ? day : null);
        expect(looseDate(` ${day}T08:00:00Z`)).toBe(valid ? day : null);
        if (!valid) return;
        const facts = rankedFacts([{ rank: 1, score: null, person: { name: 'Ann Lee', jobs: [{ title: 'CTO', company: 'Hooli', started_at: day, ended_at: `${pad(y, 4)}-${pad(m, 2)}` }] } }]);
        expect(storedFacts(facts)).toContain(`${pad(y, 4)}${pad(m, 2)}${pad(d, 2)}`);
        expect(readStoredFacts(storedFacts(facts))![0]!.jobs[0]).toMatchObject({ started: day, ended: `${pad(y, 4)}-${pad(m, 2)}` });
      }),
    );
  });
});

describe('candidateFacts', () => {
  it('takes what the model reads from a record, current and past jobs told apart', () => {
    const facts = candidateFacts({
      rank: 2,
      score: null,
      person: {
        id: 'p1',
        name: 'Anna Smith',
        first_name: 'Anna',
        last_name: 'Smith',
        linkedin: 'anna-smith',
        location_details: { locality: 'Berlin', country: 'Germany' },
        jobs: [
          { title: 'CTO', company: { name: 'Hooli', domain: 'https://www.hooli.com/' }, started_at: '2023-06', ended_at: null },
          { title: 'Engineer', company: 'Globex', started_at: '2019', ended_at: '2023-05-31' },
          { title: 'Intern', company: { name: 'Initech' }, ended_at: 'once upon a time' },
          { title: 'Advisor', company: { name: 'Umbrella' }, ended_at: 'Present' },
        ],
      },
    });
    expect(facts).toMatchObject({ rank: 2, name: 'Anna Smith', firstName: 'Anna', lastName: 'Smith', slug: 'anna-smith', location: 'Berlin, Germany', country: 'Germany' });
    expect(facts.jobs).toEqual([
      { company: 'Hooli', domain: 'hooli.com', title: 'CTO', started: '2023-06', ended: null, status: 'current' },
      { company: 'Globex', domain: null, title: 'Engineer', started: '2019', ended: '2023-05-31', status: 'ended' },
      { company: 'Initech', domain: null, title: 'Intern', started: null, ended: null, status: 'unknown' },
      { company: 'Umbrella', domain: null, title: 'Advisor', started: null, ended: null, status: 'current' },
    ]);
  });

  it('survives any record, and is stored with its version so another version is made again', () => {
    for (const person of [{}, { jobs: 7 }, { name: null, position: 'Boss at Acme', company: 'Acme' }]) expect(() => candidateFacts({ rank: 1, score: null, person })).not.toThrow();
    const facts = rankedFacts([
      { rank: 2, score: null, person: { name: 'B' } },
      { rank: 1, score: 0.5, person: { name: 'A' } },
    ]);
    expect(facts.map((f) => f.name)).toEqual(['A', 'B']);
    expect(readStoredFacts(storedFacts(facts))).toEqual(facts);
    expect(readStoredFacts(storedFacts(facts).replace(`"v":${FACTS_VERSION}`, '"v":99'))).toBeNull();
    expect(readStoredFacts('{broken')).toBeNull();
  });

  const record = {
    rank: 1,
    score: null,
    person: {
      id: 'p_1hgoqw0',
      name: 'Søren Preswell',
      first_name: 'Søren',
      last_name: 'Preswell',
      linkedin: 'søren-preswell',
      location: 'Austin, Texas, United States',
      location_details: { locality: 'Austin', region: 'Texas', country: 'United States' },
      jobs: [
        { title: 'Business Analyst', started_at: '2013-10-06', ended_at: null, company: { name: 'Summit Bridge Holdings', domain: 'summitbridgeholdings.com' } },
        { title: 'Junior Program Manager', started_at: '2012-10-27', ended_at: '2013-10-28', company: { name: 'Maple Pharma LLC', domain: 'maplepharma.com' } },
      ],
    },
  };

  it('stores each candidate as a row of values, about half what the objects took, and reads back the same facts', () => {
    const facts = rankedFacts([record, { rank: 2, score: 0.4, person: { name: 'Anna Smith', email: 'Anna@Example.com', position: { title: 'CTO', company: { name: 'Hooli' } } } }]);
    const stored = storedFacts(facts);
    expect(readStoredFacts(stored)).toEqual(facts);
    const asObjects = JSON.stringify({ v: 2, c: facts });
    expect(stored.length).toBeLessThan(asObjects.length * 0.6);
    // Facts whose name, profile or location differ from the summary's keep their own.
    const odd: CandidateFacts = { ...facts[0]!, name: 'S. Preswell', slug: null, location: 'Austin' };
    expect(readStoredFacts(storedFacts([odd]))).toEqual([odd]);
  });

  it('reads facts stored as objects by version 2 as they are, and refuses rows of another shape', () => {
    const facts = rankedFacts([record]);
    expect(readStoredFacts(JSON.stringify({ v: 2, c: facts }))).toEqual(facts);
    expect(readStoredPersonFacts(JSON.stringify({ v: 2, f: facts[0] }))).toEqual(facts[0]);
    expect(readStoredFacts(`{"v":${FACTS_VERSION},"c":[[1,null,"p1"]]}`)).toBeNull();
    expect(readStoredFacts(`{"v":${FACTS_VERSION},"c":[{"rank":1}]}`)).toBeNull();
    expect(readStoredFacts(`{"v":${FACTS_VERSION},"c":7}`)).toBeNull();
  });

  it('stores one person on their own the same way (a refresh keeps people so)', () => {
    const [facts] = rankedFacts([record]);
    expect(readStoredPersonFacts(storedPersonFacts(facts!))).toEqual(facts);
    expect(readStoredPersonFacts(storedPersonFacts(facts!).replace(`"v":${FACTS_VERSION}`, '"v":99'))).toBeNull();
    expect(readStoredPersonFacts('{broken')).toBeNull();
  });

  it("reads a stored person's summary from the front of their facts, as reading them whole does", () => {
    const odd = ['', 'null', 'a "quoted", name', 'back\\slash', 'tab\tand\nline', 'Renée 😀', '\u2028', ' =1+2', '[1,2]', ',', '"'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...odd), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constant(null)), { minLength: 6, maxLength: 6 }), (values) => {
        const [id, name, title, company, social, location] = values;
        const person = { id, name, headline: title, company, linkedin: social, location, jobs: [{ title, company: { name: company } }] };
        const [stored] = answerPeople([{ rank: 1, score: 0.5, person }]).people;
        expect(readStoredSummary(stored!.facts)).toEqual(readStoredPersonFacts(`{"v":${FACTS_VERSION},"f":${stored!.facts}}`)!.summary);
      }),
      { numRuns: 300 },
    );
    const [stored] = answerPeople([record]).people;
    expect(readStoredSummary(stored!.facts)).toEqual({ id: 'p_1hgoqw0', name: 'Søren Preswell', title: 'Business Analyst', company: 'Summit Bridge Holdings', social: 'søren-preswell', location: 'Austin, Texas, United States' });
    for (const broken of ['', '[1,null,"p1"', '[1,null,"p1",null', '{"v":3}', '[1,null,7,null,null,null,null,null,null]', '[1,null,"p\\"]']) expect(readStoredSummary(broken)).toBeNull();
  });

  /** Any record, with the names, places, jobs and dates the service sends and the odd ones it might. */
  const word = fc.oneof(fc.constantFrom('Anna', 'Smith', 'van', 'der', 'Søren', 'Ji-woo', 'O\'Brien', 'ÅSA', 'de', 'Li', ''), fc.string({ maxLength: 6 }));
  const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(fc.constant(null), fc.constant(undefined), arb);
  const date = fc.oneof(
    fc.constantFrom('2024-03-15', '2024-03', '2024', '1999-12-31T10:00:00Z', 'March 2020', '03/2011', 'Present', 'current', 'sometime', '2024-13-01', ''),
    fc.integer({ min: 1890, max: 2110 }),
    fc.constant(1710460800000),
  );
  const job = fc.record(
    {
      title: maybe(words),
      company: fc.oneof(maybe(words), fc.record({ name: maybe(words), domain: maybe(fc.constantFrom('https://www.acme.com/', 'acme.io', 'not a domain')) })),
      started_at: maybe(date),
      ended_at: maybe(date),
    },
    { requiredKeys: [] },
  );
  const person = fc.record(
    {
      id: maybe(fc.string({ maxLength: 8 })),
      name: maybe(fc.oneof(words, words.map((w) => `${w}, ${w}`))),
      first_name: maybe(word),
      last_name: maybe(words),
      linkedin: maybe(fc.string({ maxLength: 8 })),
      location: maybe(fc.array(words, { minLength: 1, maxLength: 3 }).map((p) => p.join(', '))),
      location_details: fc.record({ country: maybe(words) }, { requiredKeys: [] }),
      country: maybe(words),
      emails: fc.array(fc.constantFrom('a@example.com', 'B@Example.com', 'bad'), { maxLength: 2 }),
      jobs: fc.array(job, { maxLength: 3 }),
      position: maybe(job),
    },
    { requiredKeys: [] },
  );

  it('stores a version 4 row that reads back exactly the facts candidateFacts made, of any record', () => {
    fc.assert(
      fc.property(person, fc.integer({ min: 1, max: 5 }), fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })), (p, rank, score) => {
        const facts = candidateFacts({ rank, score, person: p });
        expect(readStoredFacts(storedFacts([facts]))).toEqual([facts]);
        expect(readStoredPersonFacts(storedPersonFacts(facts))).toEqual(facts);
        const [stored] = answerPeople([{ rank, score, person: p }]).people;
        expect(stored!.factsVersion).toBe(4);
        expect(readStoredSummary(stored!.facts)).toEqual(facts.summary);
        // A `people` row read alone (a row's decision) has no rank or score of its own.
        expect(readStoredPersonFacts(`{"v":4,"f":${stored!.facts}}`)).toEqual({ ...facts, rank: 0, score: null });
      }),
      { numRuns: 500 },
    );
  });

  it('reads rows stored by version 3 as they were, alone and beside version 4 rows in one answer', () => {
    fc.assert(
      fc.property(person, person, (a, b) => {
        const facts = rankedFacts([
          { rank: 1, score: 0.9, person: a },
          { rank: 2, score: null, person: b },
        ]);
        const [, v4] = answerPeople([
          { rank: 1, score: 0.9, person: a },
          { rank: 2, score: null, person: b },
        ]).people;
        // Composed as store/lookups.ts does: `v` the higher version, the answer's ranks in `r`.
        expect(readStoredFacts(`{"v":4,"c":[${version3Row(facts[0]!)},${v4!.facts}],"r":[[1,0.9],[2,null]]}`)).toEqual(facts);
        expect(readStoredFacts(`{"v":3,"c":[${version3Row(facts[0]!)}]}`)).toEqual([facts[0]]);
        expect(readStoredPersonFacts(`{"v":3,"f":${version3Row(facts[1]!)}}`)).toEqual(facts[1]);
        expect(readStoredSummary(version3Row(facts[0]!))).toEqual(facts[0]!.summary);
      }),
      { numRuns: 200 },
    );
    // A version 4 row holds no rank: without the answer's ranks it does not read.
    const [v4] = answerPeople([record]).people;
    expect(readStoredFacts(`{"v":4,"c":[${v4!.facts}]}`)).toBeNull();
    expect(readStoredFacts(`{"v":4,"c":[${v4!.facts}],"r":[[1,null]]}`)).toEqual(rankedFacts([record]));
  });

  it('stores a record like the service sends in under 70% of the bytes version 3 took', () => {
    const [facts] = rankedFacts([record]);
    const [stored] = answerPeople([record]).people;
    expect(stored!.facts.length).toBeLessThan(version3Row(facts!).length * 0.7);
    expect(JSON.parse(stored!.facts)).toEqual(['p_1hgoqw0', 'Søren Preswell', 'søren-preswell', 'Austin, Texas, United States', 0, 0, [
      ['Summit Bridge Holdings', 'summitbridgeholdings.com', 'Business Analyst', 20131006],
      ['Maple Pharma LLC', 'maplepharma.com', 'Junior Program Manager', 20121027, 20131028],
    ], 0, 0, ['soren', 'preswell']]);
  });
});
