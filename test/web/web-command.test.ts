import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../electron/engine/data-dir';
import { runWebCommand } from '../../electron/cli/commands/web';
import { startWebHost } from '../../electron/web/server';

describe('the default data folder', () => {
  it('follows MATCHDESK_HOME when set', () => {
    expect(defaultDataDir({ MATCHDESK_HOME: '/srv/matchdesk' }, 'linux', '/home/ana')).toBe('/srv/matchdesk');
  });

  it('is the OS user-data folder named Matchdesk, like the Electron app', () => {
    expect(defaultDataDir({}, 'linux', '/home/ana')).toBe(join('/home/ana', '.config', 'Matchdesk'));
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/home/ana/.cfg' }, 'linux', '/home/ana')).toBe(join('/home/ana/.cfg', 'Matchdesk'));
    expect(defaultDataDir({}, 'darwin', '/Users/ana')).toBe(join('/Users/ana', 'Library', 'Application Support', 'Matchdesk'));
    expect(defaultDataDir({ APPDATA: 'C:/Users/ana/AppData/Roaming' }, 'win32', 'C:/Users/ana')).toBe(join('C:/Users/ana/AppData/Roaming', 'Matchdesk'));
    expect(defaultDataDir({}, 'win32', 'C:/Users/ana')).toBe(join('C:/Users/ana', 'AppData', 'Roaming', 'Matchdesk'));
  });
});

describe('matchdesk web', () => {
  it('refuses a bad port or an unknown option as a usage error', async () => {
    await expect(runWebCommand(['--port', 'eighty'])).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('--port') });
    await expect(runWebCommand(['--port', '70000'])).rejects.toMatchObject({ exitCode: 2 });
    await expect(runWebCommand(['--listen', '0.0.0.0'])).rejects.toMatchObject({ exitCode: 2 });
  });

  it('closed while its engine is still starting, leaves no failure unheard', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'matchdesk-close-'));
    const rendererDir = join(dataDir, 'renderer');
    mkdirSync(rendererDir);
    copyFileSync(join(import.meta.dirname, '../../renderer/index.html'), join(rendererDir, 'index.html'));
    const unheard: unknown[] = [];
    const hear = (reason: unknown) => unheard.push(reason);
    process.on('unhandledRejection', hear);
    try {
      // A new folder's migrations run in slices as the engine starts; closing at once stops them between two.
      const host = await startWebHost({ dataDir, rendererDir });
      await host.close();
      const outcome = await host.started.then(
        () => 'started',
        (error: unknown) => (error as Error).name,
      );
      expect(['started', 'MigrationStopped']).toContain(outcome);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unheard).toEqual([]);
    } finally {
      process.off('unhandledRejection', hear);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('fails with EADDRINUSE when the port is taken, and the data folder stays usable', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'matchdesk-port-'));
    const rendererDir = join(dataDir, 'renderer');
    mkdirSync(rendererDir);
    copyFileSync(join(import.meta.dirname, '../../renderer/index.html'), join(rendererDir, 'index.html'));
    try {
      await expect(startWebHost({ dataDir, port, rendererDir })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const host = await startWebHost({ dataDir, rendererDir });
      await host.close();
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
