import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { routeFromHash, routeToHash, type Route } from './route';

const LAST_ROUTE_KEY = 'matchdesk.lastRoute';

interface RouteContextValue {
  route: Route | null;
  /** `replace` swaps the current history entry instead of adding one (a default screen is not a step back). */
  navigate(route: Route, options?: { replace?: boolean }): void;
}

const RouteContext = createContext<RouteContextValue | null>(null);

function readInitialRoute(): Route | null {
  const fromHash = routeFromHash(window.location.hash);
  if (fromHash) return fromHash;
  try {
    return routeFromHash(window.localStorage.getItem(LAST_ROUTE_KEY) ?? '');
  } catch {
    return null;
  }
}

export function RouteProvider({ children }: { children: ReactNode }) {
  const [route, setRoute] = useState<Route | null>(readInitialRoute);

  useEffect(() => {
    const onHashChange = () => setRoute(routeFromHash(window.location.hash));
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  useEffect(() => {
    if (!route) return;
    const hash = routeToHash(route);
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
    try {
      window.localStorage.setItem(LAST_ROUTE_KEY, hash);
    } catch {
      // Storage can be full or disabled; the hash alone still survives a reload.
    }
  }, [route]);

  const navigate = useCallback((next: Route, options: { replace?: boolean } = {}) => {
    const hash = routeToHash(next);
    if (window.location.hash !== hash) window.history[options.replace ? 'replaceState' : 'pushState'](null, '', hash);
    setRoute(next);
  }, []);

  return <RouteContext value={{ route, navigate }}>{children}</RouteContext>;
}

export function useRoute(): RouteContextValue {
  const value = useContext(RouteContext);
  if (!value) throw new Error('useRoute needs a RouteProvider');
  return value;
}
