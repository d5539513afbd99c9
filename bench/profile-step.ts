// One step of the benchmark, alone, on a kept data folder: for profiling a step at 1M rows without the whole bench.
//
//   npx tsx bench/profile-step.ts --rows 1000000 prepare            # sheet, then import + plan + run into bench/tmp/profile-1000000
//   npx node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-step.ts --rows 1000000 export-csv
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare run                   # steps one after another, in one process
//
// Steps: prepare, import-csv, import-xlsx (these two into a new folder when none is prepared), plan-new (import and
// plan into a folder of its own, removed after: the bench's planning, every query new), plan, run (a new project of the
// same sheet, answered from the cache, i.e. the cached re-run), refresh (the simulator's world moves on, then the
// prepared project is refreshed: its rows keep what the refresh wrote, as the bench's do), export-csv, export-xlsx,
// run-then-export (the cached re-run, then the CSV export in the same process, as the bench's engine takes them: its
// heap is not a fresh one), accept-all ("accept all at or above" the lowest threshold offered, then undo), review,
// web-host (the bench's browser host flow in a process of its own on this folder, web-host-process.ts: its peak by
// part, and the split at its highest sample), first-run-again (after prepare: the cache cleared, the sheet imported as
// a new project and run, every query asked again; a second first run in the same process, its code compiled already,
// for what a first run's compiling costs; the new project is deleted after, the cache keeps its answers). Each prints
// its wall time, the process's CPU time, the engine's thread's CPU and how long it was busy (its event loop's
// utilization: the first run waits on that thread), the CPU of each kind of thread (Linux), and its peak RSS and JS
// heap (with, at the highest sample, what of it is private, mapped files and shared, and the main JS heap's part);
// prepare also the first run's calls, its CPU a call and the replies' bytes. Steps that add a project delete it again,
// so the folder stays as prepare left it. The step runs in this process: for the memory users get, start it with the
// app's V8 flags (bench/child-process.ts' APP_NODE_FLAGS):
//   npx node --max-semi-space-size=8 --import tsx bench/profile-step.ts --rows 1000000 refresh
// --bundled: the steps run bundled, as Electron's main process runs the engine (bench/engine-bundle.ts; the bench's
// engine process runs so), with the app's flags and environment: through tsx the process and each worker hold more.
// --folder DIR: the data folder to use instead of bench/tmp/profile-<rows> (a copy, so two steps can run side by side).
// --no-verdict-worker: the engine works out rows' verdicts on its own thread (runs/verdict-thread.ts), for an A/B.
// --page-size N: a folder made new (prepare, plan-new, an import without one) gets a data file of N-byte pages, made
// here before the engine opens it, for an A/B of the page size the app gives a new file (store/open-database.ts).
// --gzip: the simulator gzips its replies (a web front end's way), for the client's reading of compressed replies.
// --scope all|matched|changed: the rows export-csv and export-xlsx write (all: the whole sheet, the default).
// --statement-times: after each step, the SQLite statements of the engine's thread by their SQL (calls, CPU and wall
// time, rows changed) and its commits (time, rows changed and WAL pages each, the pages by table or index;
// bench/statement-times.ts). Reading the thread's clock adds to the CPU.
// --heap-sample DIR: what the engine's thread allocates during each step, collected objects included (V8's sampling heap
// profiler, a sample every 32 kB), written as DIR/<step>.heapprofile (open it in Chrome's DevTools, Memory tab).
// --heap-survivors: with --heap-sample, only what outlived a young-generation collection (what is promoted, and what a
// message cloned from more than 100 kB made in the old generation at once): what brings on the full collections.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { spawnBundle } from './child-process';
import { bundleForBench } from './engine-bundle';
import { EngineBench } from './engine-bench';
import { atPeakText, MemorySampler } from './memory-sampler';
import { num, percentile } from './report';
import { ensureSheetFiles } from './sheet-files';
import { SimulatorProcess } from './simulator-process';
import { StatementTimes } from './statement-times';
import { phaseText } from './measure-scale';
import { runWebHostFlow } from './web-host-process';

const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const { values, positionals } = parseArgs({
  options: {
    rows: { type: 'string' },
    seed: { type: 'string' },
    'latency-ms': { type: 'string' },
    folder: { type: 'string' },
    'no-verdict-worker': { type: 'boolean' },
    'statement-times': { type: 'boolean' },
    bundled: { type: 'boolean' },
    'page-size': { type: 'string' },
    gzip: { type: 'boolean' },
    scope: { type: 'string' },
    'heap-sample': { type: 'string' },
    'heap-survivors': { type: 'boolean' },
  },
  allowPositionals: true,
});
if (values.bundled) {
  // The steps run in a bundle of this file, in a process of their own with the app's flags (engine-bundle.ts).
  // Node's flags given to this process (a profiler's, V8's) are the bundle's too, after the app's; tsx's loader is not.
  const nodeArgs = process.execArgv.filter((arg, i, all) => arg !== '--import' && all[i - 1] !== '--import' && !arg.startsWith('--import='));
  const child = spawnBundle(await bundleForBench('./profile-step.ts'), process.argv.slice(2).filter((arg) => arg !== '--bundled'), { stdio: 'inherit', nodeArgs });
  process.exit(await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1))));
}
const rows = Number(values.rows ?? 100_000);
const seed = Number(values.seed ?? 1);
// Several steps run one after another in this one process (`prepare run`: the cached re-run after a first run, as
// the bench's engine takes them, its memory not a fresh process's).
const steps = positionals.length > 0 ? positionals : ['prepare'];
const first = steps[0]!;
if (steps.indexOf('prepare') > 0 || steps.indexOf('plan-new') > 0) throw new Error('"prepare" and "plan-new" can only be the first step.');
if (steps.includes('first-run-again') && first !== 'prepare') throw new Error('"first-run-again" follows "prepare" in the same process.');
const log = (line: string) => process.stdout.write(`${line}\n`);
// plan-new plans in a folder of its own, as the bench's first project is planned: with no query stored yet.
const dataDir = values.folder ? resolve(values.folder) : join(TMP_DIR, first === 'plan-new' ? `profile-${rows}-plan-new` : `profile-${rows}`);

await mkdir(TMP_DIR, { recursive: true });
const sheet = await ensureSheetFiles(TMP_DIR, { rows, people: 200_000, seed }, log);
// The imports need no prepared folder: without one they import into a new one (at 1M, without the first run's wait).
const prepared = existsSync(join(dataDir, 'matchdesk.sqlite'));
if (first === 'prepare' || first === 'plan-new') await rm(dataDir, { recursive: true, force: true });
else if (!prepared && first !== 'import-csv' && first !== 'import-xlsx') throw new Error(`No prepared folder ${dataDir}: run the "prepare" step first.`);
await mkdir(dataDir, { recursive: true });
if (values['page-size'] && !existsSync(join(dataDir, 'matchdesk.sqlite'))) {
  // As the engine sets up a new file (store/open-database.ts), but for the page size; it keeps these once written.
  const made = new Database(join(dataDir, 'matchdesk.sqlite'));
  made.pragma(`page_size = ${Number(values['page-size'])}`);
  made.pragma('auto_vacuum = INCREMENTAL');
  made.pragma('journal_mode = WAL');
  made.close();
}

function preparedPort(): number {
  const db = new Database(join(dataDir, 'matchdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return Number(new URL(db.prepare('SELECT base_url FROM profiles ORDER BY created_at LIMIT 1').pluck().get() as string).port);
  } finally {
    db.close();
  }
}

// Query keys include the service's address: later steps start the simulator on the port prepare used, or the "run"
// step's answers would not come from the cache.
// Before the engine opens: its statements are timed only if prepared after this.
const statementTimes = values['statement-times'] ? StatementTimes.start() : null;
const simulator = await SimulatorProcess.start({
  people: 200_000,
  seed,
  latencyMs: Number(values['latency-ms'] ?? 25),
  port: first === 'prepare' || first === 'plan-new' || !prepared ? 0 : preparedPort(),
  gzip: values.gzip ?? false,
});
const bench = await EngineBench.open(dataDir, simulator.info, 4, log, { verdictWorker: !values['no-verdict-worker'] });
/**
 * Bytes this process has handed to write() so far (Linux), WAL and checkpoints included, and those it sent to the
 * disk (`write_bytes`: each page counted when the process dirties it, what bench/process-io.ts counts); null elsewhere.
 */
const bytesWritten = async (): Promise<[number, number] | null> => {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => null);
  const wchar = io && /^wchar: (\d+)$/m.exec(io);
  const disk = io && /^write_bytes: (\d+)$/m.exec(io);
  return wchar && disk ? [Number(wchar[1]), Number(disk[1])] : null;
};
/**
 * CPU seconds of this process's threads so far, by thread name (Linux; empty elsewhere): MainThread (the engine's),
 * WorkerThread (the verdict worker and any other worker), V8Worker (V8's garbage collection and compiling), libuv's pool.
 */
const cpuByThread = async (): Promise<Map<string, number>> => {
  const byName = new Map<string, number>();
  const tasks = await readdir('/proc/self/task').catch(() => [] as string[]);
  for (const task of tasks) {
    const [comm, stat] = await Promise.all([readFile(`/proc/self/task/${task}/comm`, 'utf8'), readFile(`/proc/self/task/${task}/stat`, 'utf8')]).catch(() => ['', '']);
    // utime and stime, in clock ticks (100 a second), are fields 14 and 15; the name in parentheses may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (comm && Number.isFinite(ticks)) byName.set(comm.trim(), (byName.get(comm.trim()) ?? 0) + ticks / 100);
  }
  return byName;
};
const memory = new MemorySampler();
const heapSample = values['heap-sample'] ? resolve(values['heap-sample']) : null;
const inspector = heapSample ? new Session() : null;
inspector?.connect();
const measure = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
  memory.enter(what);
  statementTimes?.reset();
  await inspector?.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !values['heap-survivors'] });
  const cpu = process.cpuUsage();
  const threadCpu = process.threadCpuUsage();
  const loop = performance.eventLoopUtilization();
  const writtenBefore = await bytesWritten();
  const threadsBefore = await cpuByThread();
  const started = performance.now();
  const value = await work();
  memory.sample();
  const used = process.cpuUsage(cpu);
  const usedHere = process.threadCpuUsage(threadCpu);
  const busy = performance.eventLoopUtilization(loop).active / 1000;
  const writtenAfter = await bytesWritten();
  const threads = [...(await cpuByThread()).entries()].map(([name, seconds]): [string, number] => [name, seconds - (threadsBefore.get(name) ?? 0)]).filter(([, seconds]) => seconds >= 0.01);
  // A thread that ended during the step (the verdict worker stops when the run ends) is no longer listed: its CPU is
  // what the process used beyond the threads still there.
  const ended = (used.user + used.system) / 1e6 - threads.reduce((sum, [, seconds]) => sum + seconds, 0);
  // After the figures: writing the profile is not the step's work.
  if (inspector && heapSample) {
    const { profile } = await inspector.post('HeapProfiler.stopSampling');
    await mkdir(heapSample, { recursive: true });
    await writeFile(join(heapSample, `${what}.heapprofile`), JSON.stringify(profile));
  }
  if (threads.length > 0 && ended >= 0.5) threads.push(['threads that ended', ended]);
  const written =
    writtenBefore === null || writtenAfter === null
      ? ''
      : `, wrote ${num((writtenAfter[0] - writtenBefore[0]) / 1e6)} MB (to the disk ${num((writtenAfter[1] - writtenBefore[1]) / 1e6)} MB)`;
  const peak = memory.peakMb();
  log(
    `${what}: ${num((performance.now() - started) / 1000, 2)} s, CPU ${num((used.user + used.system) / 1e6, 2)} s (in the kernel ${num(used.system / 1e6, 2)} s; the engine's thread ${num((usedHere.user + usedHere.system) / 1e6, 2)} s, busy ${num(busy, 2)} s)${written}, ` +
      `peak RSS so far ${num(peak.maxRss)} MB, JS heap ${num(peak.heapByPhase[what] ?? 0)} MB (sampled); load ${num(loadavg()[0]!, 1)}`,
  );
  const atPeak = peak.atPeak;
  if (atPeak) log(`  at the highest sample so far: ${atPeakText(atPeak)}`);
  if (threads.length > 0) log(`  CPU by thread: ${threads.sort((a, b) => b[1] - a[1]).map(([name, seconds]) => `${name} ${num(seconds, 2)} s`).join(', ')}`);
  for (const line of statementTimes?.report() ?? []) log(line);
  return value;
};
try {
  for (const step of steps) await runStep(step);
} finally {
  await bench.close();
  await simulator.stop();
  if (first === 'plan-new') await rm(dataDir, { recursive: true, force: true });
}

/** A first run of the project, measured, with the calls it made and its CPU a call (the simulator reset before). */
async function firstRun(name: string, projectId: number): Promise<void> {
  const cpu = process.cpuUsage();
  await measure(name, () => bench.runToEnd(projectId));
  const used = process.cpuUsage(cpu);
  const tally = await simulator.tally();
  log(
    `  ${num(tally.findCalls)} calls (${num(tally.queries)} queries, ${num(tally.distinctQueries)} distinct), ` +
      `${num((used.user + used.system) / 1000 / Math.max(1, tally.findCalls), 1)} ms CPU a call; replies ${num(tally.replyBytes / 1e6)} MB`,
  );
}

async function runStep(step: string): Promise<void> {
  const projects = await bench.call('projects.list', {});
  const main = projects.find((p) => p.name === 'Profile');
  if (!main && !['prepare', 'plan-new', 'import-csv', 'import-xlsx'].includes(step)) throw new Error(`No prepared project in ${dataDir}: run the "prepare" step first.`);
  switch (step) {
    case 'prepare': {
      const imported = await measure('import', () => bench.importSheet(sheet.csv, 'Profile'));
      await measure('plan', () => bench.saveMapping(imported.project));
      await simulator.reset();
      await firstRun('run', imported.project.summary.id);
      break;
    }
    case 'first-run-again': {
      await bench.call('cache.clear', {});
      const imported = await bench.importSheet(sheet.csv, 'Profile again');
      await bench.saveMapping(imported.project);
      await simulator.reset();
      await firstRun('first run again', imported.project.summary.id);
      await bench.call('projects.delete', { projectId: imported.project.summary.id });
      break;
    }
    case 'plan-new': {
      const imported = await measure('import', () => bench.importSheet(sheet.csv, 'Profile'));
      await measure('plan', () => bench.saveMapping(imported.project));
      break;
    }
    case 'import-csv':
    case 'import-xlsx': {
      const imported = await measure(step, () => bench.importSheet(step === 'import-csv' ? sheet.csv : sheet.xlsx, 'Profile import'));
      await bench.call('projects.delete', { projectId: imported.project.summary.id });
      break;
    }
    case 'plan':
    case 'run': {
      const imported = await bench.importSheet(sheet.csv, 'Profile again');
      await measure(step === 'plan' ? 'plan' : 'plan (before the run)', () => bench.saveMapping(imported.project));
      if (step === 'run') {
        const preview = await bench.call('run.preview', { projectId: imported.project.summary.id, offline: false });
        log(`  the run's preview: ${num(preview.calls)} calls, estimated ${num(preview.estimatedSeconds)} s`);
        await measure('cached run', () => bench.runToEnd(imported.project.summary.id));
      }
      await measure('delete the project', () => bench.call('projects.delete', { projectId: imported.project.summary.id }));
      break;
    }
    case 'run-then-export': {
      const imported = await bench.importSheet(sheet.csv, 'Profile again');
      await measure('plan (before the run)', () => bench.saveMapping(imported.project));
      await measure('cached run', () => bench.runToEnd(imported.project.summary.id));
      await bench.call('projects.delete', { projectId: imported.project.summary.id });
      const destination = join(dataDir, 'profile-export.csv');
      await measure('export-csv after the run', () => bench.call('export.run', { projectId: main!.id, format: 'csv', scope: 'all', destination }));
      await rm(destination, { force: true });
      break;
    }
    case 'refresh': {
      const world = await simulator.moveOn();
      const preview = await measure('refresh.preview', () => bench.call('refresh.preview', { projectId: main!.id }));
      const refreshed = await measure('refresh', () => bench.refreshToEnd(main!.id));
      log(`  ${num(world.moved)} moved, ${num(world.left)} left; ${num(preview.people)} people (estimated ${num(preview.estimatedSeconds)} s), ${num(refreshed.progress.rowsChanged)} rows changed`);
      break;
    }
    case 'export-csv':
    case 'export-xlsx': {
      const format = step === 'export-csv' ? 'csv' : 'xlsx';
      const destination = join(dataDir, `profile-export.${format}`);
      const scope = z.enum(['all', 'matched', 'changed']).parse(values.scope ?? 'all');
      await measure(step, () => bench.call('export.run', { projectId: main!.id, format, scope, destination }));
      await rm(destination, { force: true });
      break;
    }
    case 'accept-all': {
      // "Accept all at or above" at the lowest threshold it offers, then undo: one action over every confident row.
      const projectId = main!.id;
      const preview = await bench.call('decisions.acceptPreview', { projectId });
      const lowest = preview.thresholds[preview.thresholds.length - 1]!;
      log(`  ${num(lowest.rows)} rows waiting for review at or above ${lowest.minConfidence}`);
      const accepted = await measure('accept all', () => bench.call('decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence }));
      const undone = await measure('undo', () => bench.call('decisions.undo', { projectId }));
      log(`  ${num(accepted.changed)} accepted, ${num(undone.changed)} undone`);
      break;
    }
    case 'web-host': {
      const flow = await runWebHostFlow(sheet.csv, dataDir, simulator.info, 50);
      log(`web host: run ${num(flow.runSeconds, 1)} s, export + download ${num(flow.exportSeconds, 1)} s, CPU ${num(flow.cpuSeconds, 1)} s; peak RSS ${num(flow.maxRssMb)} MB; by part: ${phaseText(flow.memory.byPhase)} MB`);
      if (flow.memory.atPeak) log(`  at its highest sample: ${atPeakText(flow.memory.atPeak)}`);
      // Its project is removed again, so the folder stays as prepare left it.
      const made = (await bench.call('projects.list', {})).filter((p) => p.name === 'Bench web host');
      for (const project of made) await bench.call('projects.delete', { projectId: project.id });
      break;
    }
    case 'review': {
      const projectId = main!.id;
      await measure('first text filter', () => bench.call('review.page', { projectId, text: 'smith', offset: 0, limit: 200 }));
      const pages = await measure('200 pages', () => bench.reviewPages(projectId, 200));
      for (const [kind, ms] of Object.entries(pages.byKind)) {
        log(`  ${kind}: p50 ${num(percentile(ms, 50), 1)} ms, p95 ${num(percentile(ms, 95), 1)} ms, max ${num(Math.max(...ms), 1)} ms (${ms.map((m) => num(m, 0)).join(' ')})`);
        const cpu = pages.cpuByKind[kind]!;
        log(`    the engine's thread's CPU: p50 ${num(percentile(cpu, 50), 1)} ms, p95 ${num(percentile(cpu, 95), 1)} ms`);
      }
      const cpu = Object.values(pages.cpuByKind).flat();
      log(`  all pages: p50 ${num(percentile(pages.all, 50), 1)} ms, p95 ${num(percentile(pages.all, 95), 1)} ms; the engine's thread's CPU p95 ${num(percentile(cpu, 95), 1)} ms`);
      log(`  the decisions between the queue's pages: p95 ${num(percentile(pages.decisionsMs, 95), 1)} ms`);
      await measure('jump to 90%', () => bench.call('review.page', { projectId, offset: Math.floor(rows * 0.9), limit: 200 }));
      for (const text of ['jones', 'acme', 'director', 'hotmail', 'zz']) await measure(`text "${text}"`, () => bench.call('review.page', { projectId, text, offset: 0, limit: 200 }));
      break;
    }
    default:
      throw new Error(`Unknown step "${step}".`);
  }
}
