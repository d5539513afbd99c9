import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Runs one of bench/'s TypeScript entry scripts in its own Node process (the same Node 24), through tsx. */
export function spawnBenchScript(script: string, args: string[], stdio: StdioOptions = ['ignore', 'pipe', 'pipe', 'ipc'], nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], {
    cwd: REPO,
    stdio,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
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
