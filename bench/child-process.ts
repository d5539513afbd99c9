import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MEMORY_ENV } from '../electron/main/start-settings';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * The V8 flags the app's Node processes start with, as users start them (bin/matchdesk.mjs's first line, package.json's
 * scripts, Electron's --js-flags in `npm start`): the young generation capped at 8 MB semi-spaces, so the bench
 * measures the memory users get.
 */
export const APP_NODE_FLAGS = ['--max-semi-space-size=8'];

/**
 * The environment the app's processes start with on Linux (electron/main/start-settings.ts MEMORY_ENV: glibc's malloc
 * settings). bin/matchdesk.mjs gives it to the CLI and the browser host; Electron's main process, which the bench's
 * engine process stands for, starts itself again with it.
 */
export const LAUNCHER_ENV: NodeJS.ProcessEnv = process.platform === 'linux' ? { ...MEMORY_ENV } : {};

export interface BenchScriptOptions {
  stdio?: StdioOptions;
  /** More Node flags (a profiler's, say). */
  nodeArgs?: string[];
  /** False for a process that stands for something else than the app (the simulator: the service's own servers): Node's defaults. */
  appFlags?: boolean;
  /** More environment variables (LAUNCHER_ENV). */
  env?: NodeJS.ProcessEnv;
}

/** Runs one of bench/'s TypeScript entry scripts in its own Node process (the same Node 24, the app's flags), through tsx. */
export function spawnBenchScript(script: string, args: string[], { stdio = ['ignore', 'pipe', 'pipe', 'ipc'], nodeArgs = [], appFlags = true, env = {} }: BenchScriptOptions = {}): ChildProcess {
  const flags = appFlags ? APP_NODE_FLAGS : [];
  return spawn(process.execPath, [...flags, ...nodeArgs, '--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], {
    cwd: REPO,
    stdio,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
}

/**
 * Runs one of bench/'s scripts to its end (spawnBenchScript): resolves with what it wrote to stdout, passed on to this
 * process's as it comes with `echo`; an exit other than 0 rejects, saying that `what` failed and what it wrote to stderr.
 */
export async function runBenchScript(script: string, args: string[], what: string, { echo = false }: { echo?: boolean } = {}): Promise<string> {
  const child = spawnBenchScript(script, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    if (echo) process.stdout.write(chunk);
    else out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`${what} failed (exit ${code}): ${errors.trim()}`);
  return out;
}

/**
 * Runs a bundle of a bench entry (engine-bundle.ts) in its own Node process, as Electron runs its main process's
 * bundle: the app's flags and environment, no tsx.
 */
export function spawnBundle(bundle: string, args: string[], { stdio = ['ignore', 'pipe', 'pipe', 'ipc'], nodeArgs = [], env = {} }: BenchScriptOptions = {}): ChildProcess {
  return spawn(process.execPath, [...APP_NODE_FLAGS, ...nodeArgs, bundle, ...args], { cwd: REPO, stdio, env: { ...process.env, NODE_OPTIONS: '', ...LAUNCHER_ENV, ...env } });
}

/** Stops a child we started: SIGTERM, then SIGKILL if it has not gone after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
