import { describe, expect, it } from 'vitest';
import { summarizePerson } from '../../../electron/engine/matching';
import type { PersonJson } from '../../../shared/model';

const empty = { id: null, name: null, title: null, company: null, social: null, location: null };

describe('summarizePerson', () => {
  it('reads a full record: the current job is the first without ended_at', () => {
    const person: PersonJson = {
      id: 'p_123',
      name: 'Jane Doe',
      first_name: 'Jane',
      last_name: 'Doe',
      linkedin: 'jane-doe-123',
      location: 'Berlin, Germany',
      position: { title: 'Stale title' },
      jobs: [
        { title: 'Advisor', ended_at: '2024-01-01', company: { name: 'Old Co' } },
        { title: 'Head of Sales', ended_at: null, company: { name: 'Acme Inc', domain: 'acme.com' } },
        { title: 'Intern', company: { name: 'Later Listed' } },
      ],
    };
    expect(summarizePerson(person)).toEqual({
      id: 'p_123', name: 'Jane Doe', title: 'Head of Sales', company: 'Acme Inc', social: 'jane-doe-123', location: 'Berlin, Germany',
    });
  });

  it('falls back: first+last, position object, social, location_details', () => {
    const person: PersonJson = {
      id: 42,
      first_name: ' Jane ',
      last_name: 'Doe',
      social: 'https://www.linkedin.com/in/Jane-Doe/',
      position: { title: 'CTO', company: { name: 'Globex' } },
      jobs: [{ title: 'Engineer', ended_at: '2020-01-01', company: { name: 'Initech' } }],
      location_details: { locality: 'Austin', region: 'Texas', country: 'United States' },
    };
    expect(summarizePerson(person)).toEqual({
      id: '42', name: 'Jane Doe', title: 'CTO', company: 'Globex', social: 'jane-doe', location: 'Austin, Texas, United States',
    });
  });

  it('takes a position string; with every job ended there is no current position', () => {
    expect(summarizePerson({ position: 'Founder', company: 'Hooli', jobs: [] })).toMatchObject({ title: 'Founder', company: 'Hooli' });
    expect(summarizePerson({ jobs: [{ title: 'VP', ended_at: '2023-05-01', company: { name: 'Stark' } }, { title: 'Dev', ended_at: '2019-01-01' }] }))
      .toMatchObject({ title: null, company: null });
    // An end that says the job goes on is no end.
    expect(summarizePerson({ jobs: [{ title: 'CTO', ended_at: 'Present', company: { name: 'Stark' } }] })).toMatchObject({ title: 'CTO', company: 'Stark' });
  });

  it('drops repeated location parts and empty strings', () => {
    expect(summarizePerson({ location: '  ', location_details: { locality: 'Singapore', region: '', country: 'Singapore' } }).location).toBe('Singapore');
    expect(summarizePerson({ country: 'France' }).location).toBe('France');
  });

  it('accepts a company written as a plain string in a job', () => {
    expect(summarizePerson({ jobs: [{ title: 'CEO', company: 'Acme' }] })).toMatchObject({ title: 'CEO', company: 'Acme' });
  });

  const odd: [string, unknown][] = [
    ['an empty object', {}],
    ['null', null],
    ['an array', [1, 2]],
    ['a number', 7],
    ['a string', 'Jane'],
    ['fields of the wrong types', { id: { x: 1 }, name: ['Jane'], jobs: 'none', position: 5, location: { x: 1 }, location_details: [], linkedin: Number.POSITIVE_INFINITY, social: null }],
    ['jobs holding junk', { jobs: [null, 3, 'x', [], { company: null, title: null }] }],
    ['a job whose company is an array', { jobs: [{ title: 'CEO', company: ['Acme'] }] }],
    ['non-finite numbers', { id: Number.NaN, name: Number.POSITIVE_INFINITY }],
  ];
  it.each(odd)('never throws on %s', (_label, value) => {
    const summary = summarizePerson(value as PersonJson);
    expect(Object.keys(summary).sort()).toEqual(Object.keys(empty).sort());
    for (const v of Object.values(summary)) expect(v === null || typeof v === 'string').toBe(true);
  });

  it('gives all nulls for records it cannot read', () => {
    expect(summarizePerson(null as unknown as PersonJson)).toEqual(empty);
    expect(summarizePerson({ jobs: [null, { company: null }] })).toEqual(empty);
  });
});
