#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=8
// Runs the CLI from a bundle of its TypeScript sources, built on the first run after they change (bin/cli-bundle.mjs),
// so `npx matchdesk` works in a checkout with no build step; through tsx where the bundle cannot be built.
// --max-semi-space-size=8 caps V8's young generation (by default it grows to 64 MB semi-spaces on a long step, most
// of it garbage): `matchdesk match` of a 100k-row sheet peaked at 412 MB resident without it, 290 MB with it. A flag
// V8 reads only at start-up, so it is in the line above, in package.json's scripts and in bench/child-process.ts.
// On Linux, glibc's malloc gives each thread that allocates an arena of its own (the verdict worker's, V8's and
// libuv's threads), and memory freed in one stays there: MALLOC_ARENA_MAX=2 holds them to two. MALLOC_MMAP_THRESHOLD_
// keeps blocks from 128 KiB mapped on their own (glibc raises that bound as large blocks are freed, and its main heap
// then holds them). glibc reads both only as a process starts, so a process started without them (or without the
// flag) becomes itself again with all three, the same process (process.execve), before anything is loaded. Electron's
// main process gets the same (electron/main/start-settings.ts; docs/performance.md, "Memory").
//
// Written for any Node that can load an ES module: better-sqlite3 needs Node-API 10 (Node 22.12 or newer), and an
// older Node dies loading it with a bare "Segmentation fault"; people's records are stored compressed with zstd,
// which Node has from 22.15. On an older one, the CLI runs again on the Node that comes with the project (the `node`
// devDependency), or says what to do.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isatty } from 'node:tty';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MINIMUM = [22, 15];
const YOUNG_GENERATION = '--max-semi-space-size=8';
// As electron/main/start-settings.ts MEMORY_ENV: this file runs before TypeScript can be loaded.
const MEMORY_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
// Set to run the TypeScript sources through tsx rather than their bundle (bin/cli-bundle.mjs), say to debug them.
const FROM_SOURCE = 'MATCHDESK_FROM_SOURCE';
// Set on the run on the bundled Node: if that one is old too, it says so rather than starting itself again.
const RERUN_MARK = 'MATCHDESK_RERUN_FROM_NODE';
// A terminal's Ctrl-C already reaches the re-run (it is in the same process group): forwarding it would make it a
// second Ctrl-C, which ends the CLI at once instead of cancelling what it was doing.
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

if (isAtLeast(process.versions.node, MINIMUM)) {
  startedWithMemoryLimits();
  const bundle = process.env[FROM_SOURCE] ? null : await cliBundle();
  if (bundle) {
    await import(pathToFileURL(bundle).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../electron/cli/index.ts');
  }
} else {
  rerunOnBundledNode();
}

/**
 * The bundle of the CLI's sources as they are now (bin/cli-bundle.mjs), built first in a process of its own if they
 * changed since the last one (a few seconds, once); null where it cannot be built (vite is a devDependency), and the
 * sources run through tsx instead.
 */
async function cliBundle() {
  const builder = join(dirname(fileURLToPath(import.meta.url)), 'cli-bundle.mjs');
  const { cliBundlePath } = await import(pathToFileURL(builder).href);
  const entry = cliBundlePath();
  if (existsSync(entry)) return entry;
  if (isatty(2)) process.stderr.write('matchdesk: building the command line from its sources (once after each change)...\n');
  const built = spawnSync(process.execPath, [builder], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  return built.status === 0 && existsSync(entry) ? entry : null;
}

function isAtLeast(version, [major, minor]) {
  const [have, haveMinor] = version.split('.').map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/** On Linux, this process again with the young generation's cap and MEMORY_ENV, unless it has them already. */
function startedWithMemoryLimits() {
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return;
  const capped = process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size'));
  const missing = Object.fromEntries(Object.entries(MEMORY_ENV).filter(([name]) => !process.env[name]));
  if (Object.keys(missing).length === 0 && capped) return;
  const flags = capped ? process.execArgv : [YOUNG_GENERATION, ...process.execArgv];
  try {
    process.execve(process.execPath, [process.execPath, ...flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { ...process.env, ...missing });
  } catch {
    // Not started again (a sandbox refusing exec): the CLI runs as it was started, with more memory.
  }
}

function bundledNode() {
  const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
  const candidates = [join(packageDir, 'node_modules', 'node', 'bin', 'node'), join(packageDir, 'node_modules', '.bin', 'node')];
  try {
    // Where npm put the `node` package, should it be hoisted above this one.
    candidates.push(join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node'));
  } catch {
    // Not installed: the candidates above are all there is.
  }
  return candidates.find((path) => existsSync(path)) ?? null;
}

function refuse(why) {
  const minimum = MINIMUM.join('.');
  process.stderr.write(
    `matchdesk: needs Node ${minimum} or newer (better-sqlite3 needs Node-API 10, and records are stored with zstd); this is Node ${process.version} (${process.execPath}).\n` +
      `${why}\n` +
      `Run "npm install" in ${join(dirname(fileURLToPath(import.meta.url)), '..')} and start it with "npx matchdesk", which runs on the Node that comes ` +
      `with Matchdesk, or install Node ${minimum} or newer.\n`,
  );
  process.exitCode = 1;
}

function rerunOnBundledNode() {
  if (process.env[RERUN_MARK]) return refuse(`The Node that comes with Matchdesk is as old (it was started from Node ${process.env[RERUN_MARK]}).`);
  const node = bundledNode();
  if (!node) return refuse('The Node that comes with Matchdesk (the "node" package in node_modules) is not installed.');
  const child = spawn(node, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [RERUN_MARK]: process.version },
  });
  const forward = (signal) => {
    if (signal === 'SIGINT' && isatty(0)) return;
    child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (err) => refuse(`The Node that comes with Matchdesk (${node}) could not be started: ${err.message}`));
  child.on('exit', (code, signal) => {
    for (const name of FORWARDED) process.off(name, forward);
    // Ended by a signal: this process ends by the same one, so whoever started it sees what happened.
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}
