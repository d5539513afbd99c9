// The browser host as a user starts it (`matchdesk web --port 0 --data-dir X`), in a child process with a fresh
// temp data folder, so every spec file begins with no profiles, no projects and no cache. It runs from the CLI's
// bundle (test/support/cli-bundle.ts), which starts without tsx transforming the engine in each spec's host.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallName, CallOutput, CallResult } from '../../../shared/contract';
import { cliBundle } from '../../support/cli-bundle';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface RunningHost {
  /** The printed link, token included. */
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  /** A contract call over HTTP with the token, as the page makes it. */
  call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>>;
  /** The value of a call that must succeed. */
  value<K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>>;
  stop(): Promise<void>;
}

/** `prepare` fills the data folder before the host starts on it (a folder an older version made). */
export async function startHost(label: string, prepare?: (dataDir: string) => Promise<void>): Promise<RunningHost> {
  const dataDir = mkdtempSync(join(tmpdir(), `matchdesk-e2e-${label}-`));
  await prepare?.(dataDir);
  // process.execPath is the Node 24 that runs Playwright (npx puts the `node` devDependency first on PATH).
  const child = spawn(process.execPath, [await cliBundle(), 'web', '--port', '0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROWSER: 'none' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));

  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`The browser host printed no URL within ${START_TIMEOUT_MS / 1000} s.\n${stdout}\n${stderr}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The browser host exited (${code}) before printing its URL.\n${stdout}\n${stderr}`));
    });
  }).catch(async (err: unknown) => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });

  const parsed = new URL(url);
  const origin = parsed.origin;
  const token = parsed.searchParams.get('token')!;

  async function call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>> {
    const response = await fetch(`${origin}/api/call/${name}`, {
      method: 'POST',
      headers: { 'x-matchdesk-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return (await response.json()) as CallResult<K>;
  }

  return {
    url,
    origin,
    token,
    dataDir,
    call,
    async value<K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> {
      const result = await call(name, input);
      if (!result.ok) throw new Error(`${name} failed: ${result.error.kind}: ${result.error.message}`);
      return result.value;
    },
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** SIGTERM lets the host close the engine (and the demo simulator's port); SIGKILL if it hangs. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
