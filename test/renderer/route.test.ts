import { describe, expect, it } from 'vitest';
import { routeFromHash, routeToHash, type Route } from '../../renderer/src/navigation/route';

describe('route in the URL hash', () => {
  it('round-trips every screen so a reload returns to it', () => {
    const routes: Route[] = [
      { screen: 'projects' },
      { screen: 'account' },
      { screen: 'settings' },
      { screen: 'mapping', projectId: 3 },
      { screen: 'run', projectId: 3 },
      { screen: 'review', projectId: 12 },
      { screen: 'export', projectId: 99 },
      { screen: 'changes', projectId: 99 },
    ];
    for (const route of routes) expect(routeFromHash(routeToHash(route))).toEqual(route);
  });

  it('reads project screens as #/projects/<id>/<screen>', () => {
    expect(routeToHash({ screen: 'review', projectId: 7 })).toBe('#/projects/7/review');
    expect(routeFromHash('#/projects/7/review')).toEqual({ screen: 'review', projectId: 7 });
  });

  it('gives null for anything it does not know, so the app picks a default', () => {
    for (const hash of ['', '#', '#/', '#/nope', '#/projects/0/review', '#/projects/-1/review', '#/projects/1.5/run', '#/projects/abc/run', '#/projects/2/delete', '#main']) {
      expect(routeFromHash(hash)).toBeNull();
    }
  });
});
