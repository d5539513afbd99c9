import { describe, expect, it } from 'vitest';
import { routeFromHash, routeToHash } from '../../renderer/src/navigation/route';

describe('the search screen in the URL hash', () => {
  it('keeps a new search and a saved one apart, so a reload reopens the same search', () => {
    expect(routeToHash({ screen: 'search', searchId: null })).toBe('#/search');
    expect(routeToHash({ screen: 'search', searchId: 42 })).toBe('#/search/42');
    expect(routeFromHash('#/search')).toEqual({ screen: 'search', searchId: null });
    expect(routeFromHash('#/search/42')).toEqual({ screen: 'search', searchId: 42 });
  });

  it('refuses ids that cannot be a search', () => {
    for (const hash of ['#/search/0', '#/search/-3', '#/search/1.5', '#/search/abc', '#/search/1/x']) expect(routeFromHash(hash)).toBeNull();
  });
});
