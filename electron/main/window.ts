// The main window and its security preferences: the renderer is an untrusted web page
// that reaches the engine only through the preload's named calls.
import { BrowserWindow, screen, type BrowserWindowConstructorOptions } from 'electron';
import { join } from 'node:path';
import { loadWindowState, saveWindowState, MIN_HEIGHT, MIN_WIDTH, type WindowState } from './window-state';

export function mainWindowOptions(preloadPath: string, state: WindowState): BrowserWindowConstructorOptions {
  return {
    ...state.bounds,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Matchdesk',
    // Shown once the first paint is ready, so the user never sees an empty white frame.
    show: false,
    autoHideMenuBar: false,
    webPreferences: {
      preload: preloadPath,
      // The page and the preload get separate JavaScript worlds: the page cannot patch what the preload uses.
      contextIsolation: true,
      // The renderer runs in Chromium's OS sandbox; the preload gets only a few Electron modules.
      sandbox: true,
      // No require(), no process, no Node in the page.
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      // Same-origin policy stays on.
      webSecurity: true,
      allowRunningInsecureContent: false,
      // <webview> would host pages outside these preferences.
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  };
}

export interface MainWindowOptions {
  preloadPath: string;
  /** The page to load: app://matchdesk/index.html, or the dev server in development. */
  url: string;
  /** Folder of the window-state file (the user-data folder). */
  stateDir: string;
}

export function createMainWindow({ preloadPath, url, stateDir }: MainWindowOptions): BrowserWindow {
  const stateFile = join(stateDir, 'window-state.json');
  const state = loadWindowState(
    stateFile,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow(mainWindowOptions(preloadPath, state));
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    try {
      saveWindowState(stateFile, { bounds: window.getNormalBounds(), maximized: window.isMaximized() });
    } catch {
      // Losing the window position is not worth stopping the quit for.
    }
  });
  void window.loadURL(url);
  return window;
}
