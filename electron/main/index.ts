// The Electron composition root: one window, the guards, the engine and the IPC that joins them. Logic lives in
// the engine; this file only wires it to the OS.
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppCommand } from '../../shared/contract';
import { APP_FOLDER_NAME } from '../engine/data-dir';
import { createEngine } from '../engine/engine';
import { StartingEngine } from '../engine/facade/starting-engine';
import { MigrationStopped } from '../engine/store/errors';
import { makeDataFolderPrivate } from '../engine/store/private-folder';
import { APP_SCHEME_PRIVILEGES, APP_URL, registerAppProtocol } from './app-protocol';
import { forwardEvents, registerIpc } from './ipc';
import { EVENT_CHANNEL } from './ipc-channels';
import { appMenuTemplate } from './menu';
import { nativeDialogs, pickSheet } from './native-dialogs';
import { PickedFiles } from './picked-files';
import { appLocationOf, denyAllPermissions, guardWebContents } from './security';
import { restartWithMemorySettings } from './start-settings';
import { createMainWindow } from './window';


const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
const preloadPath = join(here, '../preload/index.cjs');
// The dev server only in an unpackaged build: a packaged app never loads pages over the network.
const pageUrl = (!app.isPackaged && process.env.ELECTRON_RENDERER_URL) || APP_URL;
const appLocation = appLocationOf(pageUrl);
const openExternal = (url: string) => shell.openExternal(url);

// One data folder for the desktop app, the browser host and the CLI (electron/engine/data-dir.ts).
app.setPath('userData', process.env.MATCHDESK_HOME || join(app.getPath('appData'), APP_FOLDER_NAME));
// Made (or tightened) owner-only before Electron writes its own files into it. Should that fail, the engine's start
// tries again and, failing too, says why in its "could not start" box.
const privacyNotice = privateUserData();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
// Every renderer sandboxed, including any created by a future feature that forgets the preference.
app.enableSandbox();

if (restartWithMemorySettings(app)) {
  // Started again with the memory settings it lacked (start-settings.ts): this process only ends.
} else if (!app.requestSingleInstanceLock()) {
  // A second launch only brings the first one forward (see 'second-instance' below).
  app.quit();
} else {
  run();
}

function run(): void {
  let window: BrowserWindow | null = null;
  let engine: StartingEngine | null = null;
  let stopForwarding: (() => void) | null = null;
  const picked = new PickedFiles();

  app.on('second-instance', () => focus(window));
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, appLocation, openExternal));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (engine && BrowserWindow.getAllWindows().length === 0) window = openWindow();
  });
  app.on('will-quit', (event) => {
    if (!engine) return;
    // Close the database cleanly (WAL checkpoint, a running match paused) before the process exits.
    event.preventDefault();
    const closing = engine;
    engine = null;
    stopForwarding?.();
    void closing
      .close()
      .catch(() => undefined)
      .finally(() => app.quit());
  });

  app
    .whenReady()
    .then(async () => {
      denyAllPermissions(session.defaultSession);
      registerAppProtocol(protocol, rendererDir);
      // The window opens at once: while the engine brings a data folder an older version made up to this version, it
      // shows how far that is (app.startup), and closing it then stops the move between two slices, kept for next time.
      const starting = new StartingEngine((start) => createEngine({ dataDir: app.getPath('userData'), host: 'electron', version: app.getVersion(), ...start }));
      engine = starting;
      registerIpc({
        ipcMain,
        engine,
        hostCalls: nativeDialogs({ dialog, window: () => window, documentsDir: app.getPath('documents') }),
        app: appLocation,
        picked,
      });
      stopForwarding = forwardEvents(engine, () => window?.webContents ?? null, EVENT_CHANNEL);
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(
          appMenuTemplate({
            isMac: process.platform === 'darwin',
            isDev: !app.isPackaged,
            newFromFile: () => {
              void pickSheet({ dialog, window: () => window }).then((file) => {
                if (file && window && !window.isDestroyed()) sendCommand(window, { command: 'open-file', file: picked.issue(window.webContents, file, 'read') });
              });
            },
            exportMatches: () => sendCommand(window, { command: 'export' }),
            openDataFolder: () => void shell.openPath(app.getPath('userData')),
          }),
        ),
      );
      window = openWindow();
      const started = await starting.started;
      // Said once: the folder stays private from then on.
      const notice = privacyNotice ?? started.privacyNotice;
      if (notice && window) void dialog.showMessageBox(window, { type: 'info', message: notice });
    })
    .catch((err: unknown) => {
      // Closed while the data folder was being updated: what was moved is kept for the next start.
      if (err instanceof MigrationStopped) return;
      // Most likely the database (a newer app's file, a full disk): the message is written for the user.
      dialog.showErrorBox('Matchdesk could not start', err instanceof Error ? err.message : String(err));
      app.exit(1);
    });

  function openWindow(): BrowserWindow {
    const created = createMainWindow({ preloadPath, url: pageUrl, stateDir: app.getPath('userData') });
    created.on('closed', () => {
      if (window === created) window = null;
    });
    return created;
  }
}

function privateUserData(): string | null {
  try {
    return makeDataFolderPrivate(app.getPath('userData'));
  } catch {
    return null;
  }
}

function focus(window: BrowserWindow | null): void {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function sendCommand(window: BrowserWindow | null, command: AppCommand): void {
  if (!window || window.isDestroyed()) return;
  focus(window);
  window.webContents.send(EVENT_CHANNEL, 'app.command', command);
}
