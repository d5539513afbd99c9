// View state lives in the URL hash so a reload returns to the same screen; everything else is in the engine.

/** The project's steps, and beside them its changes (who moved or left, from its refreshes). */
export type ProjectScreen = 'mapping' | 'run' | 'review' | 'export' | 'changes';
export const PROJECT_SCREENS: readonly ProjectScreen[] = ['mapping', 'run', 'review', 'export', 'changes'];

export type Route =
  | { screen: 'projects' }
  | { screen: 'account' }
  | { screen: 'settings' }
  /** A criteria search: a new one (null) or a saved one. */
  | { screen: 'search'; searchId: number | null }
  | { screen: ProjectScreen; projectId: number };

export function routeToHash(route: Route): string {
  if ('projectId' in route) return `#/projects/${route.projectId}/${route.screen}`;
  if (route.screen === 'search') return route.searchId === null ? '#/search' : `#/search/${route.searchId}`;
  return `#/${route.screen}`;
}

/** Reads a hash such as `#/projects/12/review`; anything unknown gives null so the caller picks a default. */
export function routeFromHash(hash: string): Route | null {
  const parts = hash.replace(/^#\/?/, '').split('/').filter((part) => part !== '');
  if (parts.length === 1) {
    const [screen] = parts;
    if (screen === 'projects' || screen === 'account' || screen === 'settings') return { screen };
    if (screen === 'search') return { screen, searchId: null };
    return null;
  }
  if (parts.length === 2 && parts[0] === 'search') {
    const searchId = Number(parts[1]);
    return Number.isInteger(searchId) && searchId > 0 ? { screen: 'search', searchId } : null;
  }
  if (parts.length === 3 && parts[0] === 'projects') {
    const projectId = Number(parts[1]);
    const screen = parts[2] as ProjectScreen;
    if (Number.isInteger(projectId) && projectId > 0 && PROJECT_SCREENS.includes(screen)) return { screen, projectId };
  }
  return null;
}

export function sameRoute(a: Route, b: Route): boolean {
  return routeToHash(a) === routeToHash(b);
}

export function projectIdOf(route: Route): number | null {
  return 'projectId' in route ? route.projectId : null;
}
