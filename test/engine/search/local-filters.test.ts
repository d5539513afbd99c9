import { describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../../shared/search-filters';
import { fuzzyMatch, personMatches, satisfyingJob } from '../../../electron/engine/search';

const job = (slug: string, title: string, fn: string, started: string, ended: string | null) => ({
  title,
  function: fn,
  level: 'Staff',
  started_at: started,
  ended_at: ended,
  company: { name: slug.toUpperCase(), social: slug },
});
// Most recent first, as the service sends jobs.
const ada = {
  id: 'p1',
  name: 'Ada Lovelace',
  linkedin: 'ada-lovelace',
  location: 'London, England, United Kingdom',
  jobs: [
    job('globex', 'Chief Technology Officer', 'Engineering', '2024-06-01', null),
    job('initech', 'Engineering Manager', 'Engineering', '2022-01-01', '2024-05-15'),
    job('acme', 'Software Engineer', 'Engineering', '2018-01-01', '2021-12-20'),
  ],
};
const leftAcme: SearchFilter[] = [
  { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme', 'initech'], job_group: 1 },
  { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2022-01-01', job_group: 1 },
];

describe('the satisfying job', () => {
  it('is the job meeting every filter of the group, not merely a job meeting one of them', () => {
    expect(satisfyingJob(ada, leftAcme)).toEqual({
      index: 1,
      company: 'INITECH',
      companySlug: 'initech',
      title: 'Engineering Manager',
      function: 'Engineering',
      level: 'Staff',
      started: '2022-01-01',
      ended: '2024-05-15',
    });
  });

  it('is null when no single job meets the group, though each filter holds for some job', () => {
    const onlyAcme = [{ ...leftAcme[0]!, string_values: ['acme'] }, leftAcme[1]!];
    expect(satisfyingJob(ada, onlyAcme)).toBeNull();
    expect(personMatches(ada, onlyAcme)).toBe(false);
    const ungrouped = onlyAcme.map(({ job_group: _g, ...f }) => f);
    expect(personMatches(ada, ungrouped)).toBe(true);
  });

  it('without groups is the first job meeting the most jobs.* filters', () => {
    const filters: SearchFilter[] = [
      { field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: ['engineer'] },
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme'] },
    ];
    expect(satisfyingJob(ada, filters)?.index).toBe(2);
    expect(satisfyingJob(ada, [filters[0]!])?.index).toBe(2);
    expect(satisfyingJob(ada, [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['engineering'] }])?.index).toBe(0);
  });

  it('is null when the filters name no job field', () => {
    expect(satisfyingJob(ada, [{ field: 'name', type: 'must', match_type: 'fuzzy', string_values: ['ada'] }])).toBeNull();
  });

  it('treats a current job as having no end date: outside any date range, and missing for "exists"', () => {
    const current: SearchFilter[] = [
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['globex'], job_group: 1 },
      { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2000-01-01', job_group: 1 },
    ];
    expect(personMatches(ada, current)).toBe(false);
    expect(personMatches(ada, [{ field: 'jobs.ended_at', type: 'must', match_type: 'exists' }])).toBe(true);
    expect(personMatches(ada, [{ field: 'jobs.ended_at', type: 'must_not', match_type: 'exists' }])).toBe(false);
  });
});

describe('local filter semantics', () => {
  it('fuzzy: every word asked for, accents and case ignored, one typo forgiven in longer words only', () => {
    expect(fuzzyMatch('Chief Officer', 'Chief Technology Officer')).toBe(true);
    expect(fuzzyMatch('Jose Garcia', 'José García')).toBe(true);
    expect(fuzzyMatch('Sofware Engineer', 'Software Engineer')).toBe(true);
    expect(fuzzyMatch('Li', 'Lu')).toBe(false);
    expect(fuzzyMatch('Data Scientist', 'Data Engineer')).toBe(false);
  });

  it('must_not on a job field means no job has it; on a person field that the person lacks it', () => {
    expect(personMatches(ada, [{ field: 'jobs.company.social', type: 'must_not', match_type: 'exact', string_values: ['acme'] }])).toBe(false);
    expect(personMatches(ada, [{ field: 'jobs.company.social', type: 'must_not', match_type: 'exact', string_values: ['hooli'] }])).toBe(true);
    expect(personMatches(ada, [{ field: 'location', type: 'must_not', match_type: 'fuzzy', string_values: ['london'] }])).toBe(false);
    expect(personMatches(ada, [{ field: 'social', type: 'must', match_type: 'exact', string_values: ['ada-lovelace'] }])).toBe(true);
  });

  it('date ranges hold both bounds, inclusive', () => {
    const range = (from: string, to: string): SearchFilter[] => [{ field: 'jobs.started_at', type: 'must', match_type: 'exact', date_from: from, date_to: to }];
    expect(personMatches(ada, range('2022-01-01', '2022-01-01'))).toBe(true);
    expect(personMatches(ada, range('2022-01-02', '2024-05-31'))).toBe(false);
  });
});
