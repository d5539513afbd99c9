import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The Electron binary cannot run here: the electron module is the one edge replaced.
const electron = vi.hoisted(() => ({
  created: [] as unknown[],
  displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class BrowserWindow extends Emitter {
    loaded: string | null = null;
    shown = false;
    maximized = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      electron.created.push(this);
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    show() {
      this.shown = true;
    }
    maximize() {
      this.maximized = true;
    }
    isMaximized() {
      return this.maximized;
    }
    getNormalBounds() {
      return { x: 40, y: 30, width: 1300, height: 820 };
    }
  }
  return { BrowserWindow, screen: { getAllDisplays: () => electron.displays } };
});

const { createMainWindow, mainWindowOptions } = await import('../../electron/main/window');
const { DEFAULT_WINDOW_STATE } = await import('../../electron/main/window-state');

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
  electron.created.length = 0;
});

describe('the main window', () => {
  it('isolates and sandboxes the renderer', () => {
    const prefs = mainWindowOptions('/app/out/preload/index.cjs', DEFAULT_WINDOW_STATE).webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('loads the app page, shows when ready and remembers its bounds on close', () => {
    dir = mkdtempSync(join(tmpdir(), 'matchdesk-window-'));
    const window = createMainWindow({ preloadPath: '/p/index.cjs', url: 'app://matchdesk/index.html', stateDir: dir }) as unknown as EventEmitter & {
      options: { show: boolean; width: number; webPreferences: { sandbox: boolean } };
      loaded: string;
      shown: boolean;
    };
    expect(window.options.show).toBe(false);
    expect(window.options.webPreferences.sandbox).toBe(true);
    expect(window.options.width).toBe(1280);
    expect(window.loaded).toBe('app://matchdesk/index.html');
    expect(window.shown).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);

    window.emit('close');
    const file = join(dir, 'window-state.json');
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ bounds: { x: 40, y: 30, width: 1300, height: 820 }, maximized: false });

    const again = createMainWindow({ preloadPath: '/p/index.cjs', url: 'app://matchdesk/index.html', stateDir: dir }) as unknown as {
      options: { x: number; y: number; width: number; height: number };
    };
    expect(again.options).toMatchObject({ x: 40, y: 30, width: 1300, height: 820 });
  });
});
