import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FACTS_VERSION, readStoredSummary } from '../../../electron/engine/matching/candidate-facts';
import { answerPeople, candidateFacts, looseDate, readStoredFacts, readStoredPersonFacts, rankedFacts, storedFacts, storedPersonFacts, type CandidateFacts } from '../../../electron/engine/matching';

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
  ])('%j reads as %j', (value, expected) => {
    expect(looseDate(value)).toBe(expected);
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
});
