import { useEffect, useRef } from 'react';
import { AppDataProvider, useAppData } from './app-data';
import { ImportProvider } from './features/import-mapping/import-context';
import { routeToHash, type Route } from './navigation/route';
import { RouteProvider, useRoute } from './navigation/use-route';
import { CurrentScreen } from './shell/current-screen';
import { DropZone } from './shell/drop-zone';
import { ImportStatus } from './shell/import-status';
import { Nav } from './shell/nav';
import { StartupGate } from './shell/startup-gate';
import { useAppCommands } from './shell/use-app-commands';
import { useWorkTitle } from './shell/use-work-title';
import { ConfirmProvider } from './ui/confirm-dialog';
import { ToastProvider, ToastRegion } from './ui/toasts';

export function App() {
  return (
    <StartupGate>
      <RouteProvider>
        <AppDataProvider>
          <ToastProvider>
            <ConfirmProvider>
              <ImportProvider>
                <Shell />
              </ImportProvider>
            </ConfirmProvider>
          </ToastProvider>
        </AppDataProvider>
      </RouteProvider>
    </StartupGate>
  );
}

/** With no remembered screen, a first-time user (no profiles) starts where the demo button is. */
function defaultRoute(profileCount: number | null): Route | null {
  if (profileCount === null) return null;
  return profileCount === 0 ? { screen: 'account' } : { screen: 'projects' };
}

function Shell() {
  const { route, navigate } = useRoute();
  const data = useAppData();
  const shown = route ?? defaultRoute(data.profiles?.length ?? (data.error ? 1 : null));
  const main = useRef<HTMLElement>(null);
  const shownHash = shown ? routeToHash(shown) : null;
  useAppCommands(shown);
  useWorkTitle();

  // The default screen, once shown, becomes the route: saving the first profile on Account must not switch the
  // screen to Projects under the user (and hide the connection test's answer).
  useEffect(() => {
    if (!route && shown) navigate(shown, { replace: true });
  }, [route, shown, navigate]);

  // A new screen moves focus to its heading, so keyboard and screen-reader users start at the top of it.
  const firstScreen = useRef(true);
  useEffect(() => {
    if (!shownHash) return;
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    const frame = requestAnimationFrame(() => main.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [shownHash]);

  return (
    <DropZone>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // The hash holds the route: following "#main" would leave the current screen.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      {shown && <Nav route={shown} />}
      <div className="main-column">
        <main id="main" ref={main} className="main" tabIndex={-1}>
          <ImportStatus />
          {shown ? <CurrentScreen route={shown} /> : <p className="muted loading-app">Starting…</p>}
        </main>
        <ToastRegion />
      </div>
    </DropZone>
  );
}
