// The desktop app itself: launch the built main process, see the window, answer a contract call through the
// preload. Runs only where Electron's binary was downloaded (our machines cannot reach GitHub, where it comes from)
// and a display exists; elsewhere it is skipped and says why.
import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipBecause } from '../support/skips';
import { REPO_ROOT } from './support/web-host';

const MAIN = join(REPO_ROOT, 'out', 'main', 'index.js');

/** The binary `require('electron')` would name, found without requiring it (which may try a download). */
function electronBinary(): { path: string | null; why: string | null } {
  const pathFile = join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return { path: null, why: "Electron's binary is not installed (`npm start` downloads it on first use, from GitHub)" };
  const path = join(REPO_ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(path)) return { path: null, why: `the Electron binary ${path} is missing` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { path: null, why: 'there is no display to open a window on (run it in a desktop session, or under xvfb-run)' };
  if (!existsSync(MAIN)) return { path: null, why: 'the app is not built (out/main/index.js is missing): run "npm run build"' };
  return { path, why: null };
}

const binary = electronBinary();
const skipped = skipBecause('the Electron smoke test', binary.why);

interface PreloadWindow {
  matchdesk: { call(name: string, input: object): Promise<unknown> } & Record<string, unknown>;
  require?: unknown;
  process?: unknown;
}

test('the desktop app opens its window and answers a contract call through the preload', async () => {
  test.skip(skipped, `Electron smoke test skipped: ${binary.why}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'matchdesk-e2e-electron-'));
  // Chromium refuses to start as root with its sandbox on; the renderer's own sandbox setting is what is under test.
  const asRoot = process.getuid?.() === 0;
  const app = await electron.launch({
    executablePath: binary.path!,
    args: [...(asRoot ? ['--no-sandbox'] : []), MAIN],
    env: { ...process.env, MATCHDESK_HOME: dataDir },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.locator('h1')).toBeVisible({ timeout: 30_000 });
    expect(await window.title()).toMatch(/Matchdesk/);

    const info = await window.evaluate(() => (globalThis as unknown as PreloadWindow).matchdesk.call('app.info', {}));
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
    const refused = await window.evaluate(() => (globalThis as unknown as PreloadWindow).matchdesk.call('projects.get', { projectId: 'one' }));
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    // The preload hands over three functions and nothing of Node.
    const exposed = await window.evaluate(() => {
      const page = globalThis as unknown as PreloadWindow;
      return { keys: Object.keys(page.matchdesk).sort(), require: typeof page.require, process: typeof page.process };
    });
    expect(exposed).toEqual({ keys: ['call', 'on', 'pathForFile'], require: 'undefined', process: 'undefined' });
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
