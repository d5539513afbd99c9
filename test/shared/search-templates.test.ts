import { describe, expect, it } from 'vitest';
import { validateFilters } from '../../shared/search-filters';
import { SEARCH_TEMPLATES, SEARCH_TEMPLATE_IDS, searchTemplate, templateProblems } from '../../shared/search-templates';

describe('search templates', () => {
  it('"left these companies since" groups the company and the end date into one job', () => {
    const { filters, name } = searchTemplate('left-companies')!.build({ companies: ['acme', ' globex ', ''], since: '2024-01-01' });
    expect(filters).toEqual([
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme', 'globex'], job_group: 1 },
      { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-01-01', job_group: 1 },
    ]);
    expect(name).toBe('Left 2 companies since 2024-01-01');
  });

  it('"works in this function at these companies" and "has held this title"', () => {
    const fn = searchTemplate('function-at-companies')!.build({ functions: ['Engineering'], companies: ['acme'] });
    expect(fn.filters.map((f) => [f.field, f.job_group])).toEqual([['jobs.function', 1], ['jobs.company.social', 1]]);
    expect(fn.name).toBe('Engineering at acme');
    const title = searchTemplate('held-title')!.build({ titles: 'Chief Executive Officer' });
    expect(title.filters).toEqual([{ field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: ['Chief Executive Officer'] }]);
  });

  it('every template builds filters that pass validation once its values are given', () => {
    expect(SEARCH_TEMPLATES.map((t) => t.id)).toEqual([...SEARCH_TEMPLATE_IDS]);
    const sample = { companies: ['acme'], since: '2024-01-01', functions: ['Legal'], titles: ['Counsel'] };
    for (const t of SEARCH_TEMPLATES) {
      expect(templateProblems(t, sample), t.id).toEqual([]);
      expect(validateFilters(t.build(sample).filters), t.id).toEqual([]);
    }
  });

  it('says which value is missing or malformed', () => {
    const left = searchTemplate('left-companies')!;
    expect(templateProblems(left, { since: '2024-02-30' })).toEqual([
      'Companies: give at least one company profile slug.',
      'Left on or after: "2024-02-30" is not a date written YYYY-MM-DD.',
    ]);
    expect(templateProblems(left, { companies: ['acme'] })).toEqual(['Left on or after: give a date.']);
    expect(searchTemplate('nope')).toBeUndefined();
  });
});
