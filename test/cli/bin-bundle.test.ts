// bin/matchdesk.mjs runs the bundle of the sources as they are now (bin/cli-bundle.mjs), never a stale one, and the
// sources themselves through tsx when asked to (MATCHDESK_FROM_SOURCE).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBundlePath } from '../../bin/cli-bundle.mjs';
import { cliBundle } from '../support/cli-bundle';
import { BIN } from './matchdesk-process';

/** Imported before the bin: names every file the process loads, on stderr. */
const LOADS_NAMED = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module'; registerHooks({ load(url, context, next) { if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\n'); return next(url, context); } });",
)}`;

function loadedBy(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; loaded: string[] }> {
  // With the app's flags and malloc settings already, so the bin does not start itself again.
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--import', LOADS_NAMED, BIN, '--version'], {
    env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, loaded: stderr.split('\n').filter((l) => l.startsWith('loaded ')).map((l) => l.slice('loaded '.length)) }));
  });
}

describe('bin/matchdesk.mjs', () => {
  it('runs the bundle of the sources as they are now', async () => {
    const entry = await cliBundle();
    expect(entry).toBe(cliBundlePath());
    const { code, stdout, loaded } = await loadedBy({ MATCHDESK_FROM_SOURCE: '' });
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(loaded).toContain(pathToFileURL(entry).href);
    expect(loaded.filter((url) => url.includes('/electron/'))).toEqual([]);
  });

  it('runs the TypeScript sources through tsx with MATCHDESK_FROM_SOURCE', async () => {
    const { code, stdout, loaded } = await loadedBy({ MATCHDESK_FROM_SOURCE: '1' });
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(loaded.some((url) => url.endsWith('/electron/cli/index.ts'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/out/cli-bundle-'))).toEqual([]);
  });
});

describe('the bundle of the sources', () => {
  const root = mkdtempSync(join(tmpdir(), 'md-cli-bundle-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'electron', 'cli'), { recursive: true });
  mkdirSync(join(root, 'shared'));
  writeFileSync(join(root, 'electron', 'cli', 'index.ts'), 'export {};\n');
  writeFileSync(join(root, 'shared', 'contract.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), '{"version":"1.0.0"}\n');

  it('is named by every source file, so a change to any of them is never run from an older bundle', () => {
    const first = cliBundlePath(root);
    expect(first).toMatch(/[\\/]out[\\/]cli-bundle-[0-9a-f]{16}[\\/]matchdesk\.js$/);
    expect(cliBundlePath(root)).toBe(first);

    writeFileSync(join(root, 'shared', 'contract.ts'), 'export const a = 2;\n');
    const edited = cliBundlePath(root);
    expect(edited).not.toBe(first);

    writeFileSync(join(root, 'electron', 'cli', 'more.ts'), 'export {};\n');
    const added = cliBundlePath(root);
    expect(new Set([first, edited, added]).size).toBe(3);

    writeFileSync(join(root, 'package.json'), '{"version":"1.0.1"}\n');
    expect(cliBundlePath(root)).not.toBe(added);
  });
});
