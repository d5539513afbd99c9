// bin/matchdesk.mjs started without the app's memory limits (`node bin/matchdesk.mjs`, a package.json script, a
// scheduler's unit) becomes itself again with them, in the same process: V8's young generation capped, glibc's malloc
// held to two arenas and mapping large blocks on their own, all read only as a process starts. Run for real: a probe loaded with --import into the
// CLI's process writes what that process was started with.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_ENV } from '../../electron/main/start-settings';
import { skipBecause } from '../support/skips';

const BIN = resolve(__dirname, '../../bin/matchdesk.mjs');
const skipped = skipBecause('the CLI memory limits tests', process.platform === 'linux' ? null : 'malloc arenas are glibc\'s, set on Linux only');

let dir: string;
let probe: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-memory-'));
  probe = join(dir, 'probe.mjs');
  writeFileSync(
    probe,
    "import { writeFileSync } from 'node:fs';\n" +
      'process.on(\'exit\', () => writeFileSync(process.env.PROBE_FILE, JSON.stringify({ pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, execArgv: process.execArgv })));\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  pid: number;
  arenas: string | null;
  mmapThreshold: string | null;
  execArgv: string[];
}

/** `node [flags] --import probe bin/matchdesk.mjs --version`, and what the process that printed the version was started with. */
async function started(flags: string[], env: NodeJS.ProcessEnv): Promise<{ childPid: number; out: string; seen: Started }> {
  const file = join(dir, `seen-${flags.length}-${env.MALLOC_ARENA_MAX ?? 'none'}.json`);
  const child = spawn(process.execPath, [...flags, '--import', probe, BIN, '--version'], { env: { ...env, PROBE_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  expect(code).toBe(0);
  return { childPid: child.pid!, out, seen: JSON.parse(readFileSync(file, 'utf8')) as Started };
}

const withoutArenas = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env.MALLOC_ARENA_MAX;
  delete env.MALLOC_MMAP_THRESHOLD_;
  return env;
};

describe.skipIf(skipped)('the CLI started without its memory limits', () => {
  it('runs again as the same process with the young generation capped and two malloc arenas', async () => {
    const { childPid, out, seen } = await started([], withoutArenas());
    expect(out).toMatch(/^\d+\.\d+\.\d+/);
    expect(seen.pid).toBe(childPid);
    // What Electron's main process starts itself again with, too.
    expect({ MALLOC_ARENA_MAX: seen.arenas, MALLOC_MMAP_THRESHOLD_: seen.mmapThreshold }).toEqual(MEMORY_ENV);
    expect(seen.execArgv).toContain('--max-semi-space-size=8');
    // What it was started with is kept.
    expect(seen.execArgv).toContain('--import');
  });

  it('keeps the limits it was given', async () => {
    const { seen } = await started(['--max-semi-space-size=4'], { ...withoutArenas(), MALLOC_ARENA_MAX: '1' });
    expect(seen.arenas).toBe('1');
    // The one it lacked is added.
    expect(seen.mmapThreshold).toBe('131072');
    expect(seen.execArgv).toContain('--max-semi-space-size=4');
    expect(seen.execArgv).not.toContain('--max-semi-space-size=8');
  });
});
