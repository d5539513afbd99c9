import { describe, expect, it } from 'vitest';
import type { SearchFilter } from '../../../shared/search-filters';
import { MAX_SPLIT_CALLS, TooManyCalls, splitRequest } from '../../../electron/engine/search';

const values = (n: number, prefix = 'c') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const companies = (n: number): SearchFilter => ({ field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: values(n), job_group: 1 });
const since: SearchFilter = { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-01-01', job_group: 1 };

describe('splitRequest', () => {
  it('sends a list of at most the chunk size as one request, unchanged', () => {
    expect(splitRequest([companies(100), since], 100)).toEqual([[companies(100), since]]);
  });

  it('splits a long must list into chunks of at most N values, keeping every other filter (and the group) in each', () => {
    const parts = splitRequest([companies(300), since], 100);
    expect(parts).toHaveLength(3);
    for (const part of parts) {
      expect(part[0]!.string_values).toHaveLength(100);
      expect(part[0]!.job_group).toBe(1);
      expect(part[1]).toEqual(since);
    }
    expect(parts.flatMap((p) => p[0]!.string_values)).toEqual(values(300));
    expect(splitRequest([companies(250)], 100).map((p) => p[0]!.string_values!.length)).toEqual([100, 100, 50]);
  });

  it('never splits a must_not list: "none of A1" or "none of A2" is not "none of A"', () => {
    const notThese: SearchFilter = { field: 'jobs.title', type: 'must_not', match_type: 'fuzzy', string_values: values(250, 't') };
    expect(splitRequest([notThese, companies(10)], 100)).toEqual([[notThese, companies(10)]]);
  });

  it('crosses two long lists, and refuses more calls than the cap with advice', () => {
    const titles: SearchFilter = { field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: values(150, 't') };
    expect(splitRequest([companies(300), titles], 100)).toHaveLength(6);
    expect(() => splitRequest([companies(40_000), { ...titles, string_values: values(3_000, 't') }], 100)).toThrow(TooManyCalls);
    expect(() => splitRequest([companies(40_000), { ...titles, string_values: values(3_000, 't') }], 100)).toThrow(new RegExp(`more than the ${MAX_SPLIT_CALLS}`));
  });
});
