import { describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../../shared/search-filters';
import { searchFiltersKey, searchRequestKey } from '../../../electron/engine/search';

const a: SearchFilter = { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme', 'globex'], job_group: 1 };
const b: SearchFilter = { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-01-01', job_group: 1 };
const c: SearchFilter = { field: 'location', type: 'must', match_type: 'fuzzy', string_values: ['Berlin'] };

describe('search request keys', () => {
  it('are equal for the same question asked in another order, with values reordered or groups renumbered', () => {
    const key = searchRequestKey('http://127.0.0.1:9/', 'o_x', [a, b, c]);
    expect(searchRequestKey('HTTP://127.0.0.1:9', 'o_x', [c, b, { ...a, string_values: ['globex', 'acme'] }])).toBe(key);
    expect(searchRequestKey('http://127.0.0.1:9', 'o_x', [{ ...a, job_group: 7 }, { ...b, job_group: 7 }, c])).toBe(key);
  });

  it('differ when the question, the grouping, the service or the organization differs', () => {
    const key = searchRequestKey('http://127.0.0.1:9', 'o_x', [a, b]);
    const ungrouped = [{ ...a, job_group: undefined }, { ...b, job_group: undefined }].map(({ job_group: _g, ...f }) => f);
    expect(searchRequestKey('http://127.0.0.1:9', 'o_x', ungrouped)).not.toBe(key);
    expect(searchRequestKey('http://127.0.0.1:9', 'o_x', [a, { ...b, job_group: 2 }])).not.toBe(key);
    expect(searchRequestKey('http://127.0.0.1:9', 'o_x', [a, { ...b, date_from: '2024-01-02' }])).not.toBe(key);
    expect(searchRequestKey('http://127.0.0.1:8', 'o_x', [a, b])).not.toBe(key);
    expect(searchRequestKey('http://127.0.0.1:9', 'o_y', [a, b])).not.toBe(key);
    expect(searchRequestKey('http://127.0.0.1:9', 'o_x', [a, { ...b, type: 'must_not', job_group: undefined }])).not.toBe(key);
  });

  it('leave the service out of the filters key', () => {
    expect(searchFiltersKey([a, b])).toBe(searchFiltersKey([b, a]));
    expect(searchFiltersKey([a, b])).not.toBe(searchFiltersKey([a]));
  });
});
