import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { APP_NODE_FLAGS } from './child-process';
import { BenchFailure } from './engine-bench';
import { lowerBoundSeconds, roundsOfRun, type RoundQueries } from './lower-bound';
import { folderSize, type FolderSize, type ProcessIo } from './process-io';
import type { SimulatorReady } from './simulator-process';

const REPO = fileURLToPath(new URL('..', import.meta.url));

export interface CliMatchResult {
  seconds: number;
  rows: number;
  calls: number;
  rounds: RoundQueries[];
  lowerBoundSeconds: number;
  maxRssMb: number;
  cpuSeconds: number;
  /** What the process wrote from its start to its exit (import, plan, run, export); null elsewhere than Linux. */
  io: ProcessIo | null;
  /** The data folder once the process has exited: its first run's answers, one project. */
  dataFolder: FolderSize;
}

/**
 * `matchdesk match <sheet> --out <csv> --auto-accept --yes` as a user runs it, in its own process with an empty data
 * folder (so every query is asked): import, plan, run and export, end to end. Its peak resident memory comes from
 * the process itself (bench/exit-usage.mjs), the network bound from the queries its run asked.
 */
export async function runCliMatch(
  sheet: string,
  workDir: string,
  service: SimulatorReady,
  latencyMs: number,
  concurrency: number,
  /**
   * `repo`: the checkout whose bin runs (an A/B against another commit); `inspect`: reads the data folder before it
   * goes; `onStart`: called as the command is started; `onLine`: each line it writes to stderr, with the seconds since.
   */
  more: {
    repo?: string;
    inspect?: (databasePath: string, projectId: number) => void;
    onStart?: () => void;
    onLine?: (seconds: number, line: string) => void;
  } = {},
): Promise<CliMatchResult> {
  const home = join(workDir, 'cli-home');
  await rm(home, { recursive: true, force: true });
  await mkdir(home, { recursive: true });
  const usageFile = join(workDir, 'cli-usage.json');
  const out = join(workDir, 'cli-matched.csv');
  // As `npx matchdesk` starts it (the bin's first line gives node these flags).
  const args = [
    ...APP_NODE_FLAGS,
    '--import',
    fileURLToPath(new URL('./exit-usage.mjs', import.meta.url)),
    join(more.repo ?? REPO, 'bin', 'matchdesk.mjs'),
    'match',
    sheet,
    '--out',
    out,
    '--auto-accept',
    '--yes',
    '--concurrency',
    String(concurrency),
  ];
  // The bin runs the bundle of its sources, built on its first run after they change: built before the clock starts.
  await cliBundleOf(more.repo ?? REPO);
  const started = performance.now();
  more.onStart?.();
  const child = spawn(process.execPath, args, {
    cwd: more.repo ?? REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      MATCHDESK_HOME: home,
      MATCHDESK_BASE_URL: service.baseUrl,
      MATCHDESK_ORG_ID: service.orgId,
      MATCHDESK_CLIENT_ID: service.clientId,
      MATCHDESK_CLIENT_SECRET: service.clientSecret,
      BENCH_USAGE_FILE: usageFile,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-20_000);
    // A terminal's progress line is rewritten in place (\r): each state of it is a line here.
    if (more.onLine) for (const line of text.split(/[\r\n]/)) if (line.trim()) more.onLine((performance.now() - started) / 1000, line);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new BenchFailure(`matchdesk match exited ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  const usage = JSON.parse(await readFile(usageFile, 'utf8')) as { maxRssMb: number; cpuSeconds: number; io: ProcessIo | null };
  const projectId = Number(/into project (\d+)/.exec(stderr)?.[1] ?? 1);
  const rows = Number(/Wrote (\d+) rows/.exec(stderr)?.[1] ?? Number.NaN);
  const calls = Number(/(\d+) calls/.exec(stderr.split('\n').filter((l) => l.startsWith('done:')).pop() ?? '')?.[1] ?? Number.NaN);
  // Before the bound's reading opens the database again.
  const dataFolder = await folderSize(home);
  const rounds = roundsOfRun(join(home, 'matchdesk.sqlite'), projectId);
  more.inspect?.(join(home, 'matchdesk.sqlite'), projectId);
  await rm(home, { recursive: true, force: true });
  await rm(out, { force: true });
  return { seconds, rows, calls, rounds, lowerBoundSeconds: lowerBoundSeconds(rounds, latencyMs, concurrency), maxRssMb: usage.maxRssMb, cpuSeconds: usage.cpuSeconds, io: usage.io, dataFolder };
}

/** Builds `repo`'s CLI bundle (bin/cli-bundle.mjs) if it has none for its sources; a checkout from before it has none to build. */
async function cliBundleOf(repo: string): Promise<void> {
  const builder = join(repo, 'bin', 'cli-bundle.mjs');
  if (!existsSync(builder)) return;
  const { buildCliBundle } = (await import(pathToFileURL(builder).href)) as typeof import('../bin/cli-bundle.mjs');
  await buildCliBundle(repo);
}
