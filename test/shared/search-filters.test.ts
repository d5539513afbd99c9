import { describe, expect, it } from 'vitest';
import { isCalendarDate, validateFilters, type SearchFilter } from '../../shared/search-filters';

const left: SearchFilter[] = [
  { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme'], job_group: 1 },
  { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-01-01', job_group: 1 },
];

function messages(filters: SearchFilter[]): string[] {
  return validateFilters(filters).map((p) => p.message);
}

describe('search filter validation', () => {
  it('accepts the "left these companies since" filters', () => {
    expect(validateFilters(left)).toEqual([]);
  });

  it('says a date is not YYYY-MM-DD, and refuses impossible dates', () => {
    expect(messages([{ ...left[1]!, date_from: '01/02/2024' }])).toEqual([
      'Filter 1 (jobs.ended_at): the date from "01/02/2024" is not a date written YYYY-MM-DD.',
    ]);
    expect(isCalendarDate('2024-02-30')).toBe(false);
    expect(isCalendarDate('2024-02-29')).toBe(true);
  });

  it('refuses a same-job group holding a field that is not a job field', () => {
    const problems = messages([...left, { field: 'name', type: 'must', match_type: 'fuzzy', string_values: ['Ann'], job_group: 1 }]);
    expect(problems).toEqual(['Filter 3 (name): Name is not a field of a job, so it cannot be in a "same job" group.']);
  });

  it('refuses an empty value list, a blank value, and values outside an enum vocabulary', () => {
    expect(messages([{ field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: [] }])).toEqual([
      'Filter 1 (jobs.title): the list of values is empty.',
    ]);
    expect(messages([{ field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: ['CTO', ' '] }])[0]).toMatch(/blank/);
    expect(messages([{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Wizardry'] }])[0]).toMatch(
      /"Wizardry" is not a job function; use one of: Engineering/,
    );
  });

  it('knows which match types and bounds each field takes', () => {
    expect(messages([{ field: 'social', type: 'must', match_type: 'fuzzy', string_values: ['ann'] }])[0]).toMatch(/cannot be matched "fuzzy"/);
    expect(messages([{ field: 'jobs.ended_at', type: 'must', match_type: 'exact', string_values: ['2024'] }])).toContain(
      'Filter 1 (jobs.ended_at): a date field takes a date range (from / to), not a list of values.',
    );
    expect(messages([{ field: 'jobs.ended_at', type: 'must', match_type: 'exists', date_from: '2024-01-01' }])[0]).toMatch(/"exists" takes no values/);
    expect(messages([{ field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2025-01-01', date_to: '2024-01-01' }])[0]).toMatch(
      /is after the date to/,
    );
    expect(messages([{ field: 'phone', type: 'must', match_type: 'exact', string_values: ['1'] }])[0]).toMatch(/not a field a search can use/);
  });

  it('accepts exists and must_not outside groups, refuses must_not inside one', () => {
    expect(validateFilters([{ field: 'jobs.ended_at', type: 'must_not', match_type: 'exists' }])).toEqual([]);
    expect(messages([{ ...left[0]! }, { ...left[1]!, type: 'must_not' }])[0]).toMatch(/"must not" filters cannot be grouped/);
  });

  it('says an empty filter list needs a filter', () => {
    expect(messages([])).toEqual(['Add at least one filter.']);
  });
});
