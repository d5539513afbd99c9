// `npm run bench`: Matchdesk against the simulator (in its own process) on a generated sheet. The engine runs in a
// process of its own, and so do the browser host and `matchdesk match`, so each one's peak memory is its own.
// With --rows above 100,000 the same run measures a 100,000-row sheet first, so every step's cost per row at the
// larger size is a ratio to the smaller one taken minutes apart on the same machine (issue 12): a shared machine's
// load skews both alike. Prints the figures against the targets (bench/targets.ts: issues 6, 12 and 41), writes
// bench/results.json and the README's benchmark section. A benchmark, not a test: it measures, it never fails on a
// missed target.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchFailure } from './engine-bench';
import { measureScale, phaseText, type ScaleResult } from './measure-scale';
import { BENCH_USAGE, BenchUsageError, parseBenchArgs } from './options';
import { qualityConsoleTable, qualityMarkdownTable } from './quality/quality-table';
import { DEFAULT_EVALUATION, runEvaluation } from './quality/run-evaluation';
import { buildAndMeasureRenderer } from './renderer-bundle';
import { dataFolderMbPer100k, engineRssMb, figuresOf, writtenVsReplies } from './bench-figures';
import { consoleReport, consoleTable, describeMachine, markdownSection, num, updateReadme, writeJson, type Figure, type ScaleRow, type TargetCheck } from './report';
import { SimulatorProcess } from './simulator-process';
import { checkTargets, MATCH_VS_BOUND_LIMIT, short, type BenchFigures } from './targets';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const TMP_DIR = join(BENCH_DIR, 'tmp');
const RESULTS = join(BENCH_DIR, 'results.json');
const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** The size every larger run is compared with, per row. */
export const REFERENCE_ROWS = 100_000;

const log = (line: string) => process.stdout.write(`${line}\n`);

let simulator: SimulatorProcess | null = null;

async function main(argv: string[]): Promise<number> {
  let opts;
  try {
    opts = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof BenchUsageError) {
      process.stderr.write(`bench: ${error.message}\n\n${BENCH_USAGE}`);
      return 2;
    }
    throw error;
  }
  if (!opts) {
    process.stdout.write(BENCH_USAGE);
    return 0;
  }
  const machine = describeMachine(loadavg()[0] ?? 0);
  const started = performance.now();
  const sizes = opts.rows > REFERENCE_ROWS ? [REFERENCE_ROWS, opts.rows] : [opts.rows];
  const params = `${sizes.map((n) => num(n)).join(' and ')} rows, seed ${opts.seed}, ${num(opts.people)} people, latency ${opts.latencyMs} ms, concurrency ${opts.concurrency}`;
  log(`Matchdesk benchmark: ${params}`);
  log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}; load average ${machine.loadAtStart}`);
  if (machine.loadAtStart > machine.cores) log(`  note: the machine is busy (load ${machine.loadAtStart} on ${machine.cores} cores): figures will be slower than on an idle one`);

  await mkdir(TMP_DIR, { recursive: true });
  // Data folders of earlier runs that stopped half-way.
  for (const name of await readdir(TMP_DIR)) if (name.startsWith('engine-') || name.startsWith('cli-')) await rm(join(TMP_DIR, name), { recursive: true, force: true });
  log('\nSimulator (its own process)');
  simulator = await SimulatorProcess.start({ people: opts.people, seed: opts.seed, latencyMs: opts.latencyMs });
  log(`  ${simulator.info.baseUrl} (pid ${simulator.pid}, ${num(opts.people)} people, ${simulator.info.rssMb} MB)`);

  const scales: ScaleResult[] = [];
  const loads: number[] = [];
  for (const [i, rows] of sizes.entries()) {
    loads.push(Math.round((loadavg()[0] ?? 0) * 100) / 100);
    log(`\n[${i + 1}/${sizes.length}] ${num(rows)} rows (load average ${loads[i]})`);
    scales.push(await measureScale(rows, opts, simulator, TMP_DIR, i === 0, log));
  }

  // The evaluation runs its own simulator and engine in this process, after the sizes' memory figures.
  log(`\nMatch quality: the engine with auto-accept on the simulator's labeled evaluation set`);
  const quality = await runEvaluation({ ...DEFAULT_EVALUATION, seed: opts.seed, log });
  log(`  ${num(quality.seconds.total, 1)} s; row states: ${Object.entries(quality.states).map(([k, n]) => `${k} ${num(n)}`).join(', ')}`);
  const renderer = buildAndMeasureRenderer();
  log(`  renderer bundle (minified production build): ${renderer.text}`);

  const { checks, unmeasured, benchFigures, table, figures } = evaluate(scales, machine.cores);
  figures.push({ label: 'Renderer bundle', value: renderer.text });
  log('');
  log(consoleReport(checks, table, figures));
  const qualityParams = `${num(quality.rows)} labeled rows, ${num(quality.options.people)} people, seed ${quality.options.seed}`;
  log(`\nMatch quality (${qualityParams})`);
  log(consoleTable(quality.checks));
  log(qualityConsoleTable(quality.score));

  const results = {
    machine: { ...machine, loadAtEachSize: loads, loadAtEnd: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
    params: { rows: sizes, seed: opts.seed, latencyMs: opts.latencyMs, concurrency: opts.concurrency, people: opts.people, slice: opts.slice, quick: opts.quick },
    targets: checks,
    unmeasuredTargets: unmeasured,
    figures: benchFigures,
    scales,
    quality,
    rendererBundle: renderer.size,
    totalSeconds: (performance.now() - started) / 1000,
  };
  // The JSON goes with the README's table: a check run with --no-readme leaves both as the last full run wrote them.
  if (opts.readme) {
    await writeJson(RESULTS, results);
    log(`\nWrote ${RESULTS}`);
    const qualitySection = { heading: `Match quality (\`npm run eval\`: ${qualityParams})`, checks: quality.checks, table: qualityMarkdownTable(quality.score) };
    await updateReadme(README, markdownSection(checks, table, figures, machine, params, loads, qualitySection));
    log(`Updated the benchmark section of ${README}`);
  }
  const missed = checks.filter((c) => !c.pass);
  const qualityMissed = quality.checks.filter((c) => !c.pass);
  log(`\n${checks.length - missed.length} of ${checks.length} targets met${missed.length ? `; missed: ${missed.map((c) => c.label).join(', ')}` : ''}.`);
  log(`${quality.checks.length - qualityMissed.length} of ${quality.checks.length} match-quality targets met${qualityMissed.length ? `; missed: ${qualityMissed.map((c) => c.label).join(', ')}` : ''}. Took ${num(results.totalSeconds, 0)} s.`);
  return 0;
}

const perRow = (seconds: number, rows: number) => seconds / rows;

/** The targets checked, the figures they hold, the table of figures by sheet size, and the figures shown once. */
function evaluate(
  scales: ScaleResult[],
  cores: number,
): { checks: TargetCheck[]; unmeasured: string[]; benchFigures: BenchFigures; table: { sizes: number[]; rows: ScaleRow[] }; figures: Figure[] } {
  const small = scales[0]!;
  const large = scales[scales.length - 1]!;
  const two = scales.length > 1;
  const benchFigures = figuresOf(scales);
  const { checks, unmeasured } = checkTargets(benchFigures);

  const sec = (v: number) => `${num(v, v < 10 ? 2 : 1)} s`;
  const ms = (v: number) => `${num(v, v < 100 ? 1 : 0)} ms`;
  const mb = (v: number) => `${num(v)} MB`;
  const bytesMb = (bytes: number) => `${num(bytes / 1e6, bytes < 1e8 ? 1 : 0)} MB`;
  const row = (label: string, text: (s: ScaleResult) => string, cost?: (s: ScaleResult) => number): ScaleRow => ({
    label,
    values: scales.map(text),
    growth: two && cost ? perRow(cost(large), large.rows) / perRow(cost(small), small.rows) : null,
  });
  const rate = (seconds: (s: ScaleResult) => number) => (s: ScaleResult) => `${sec(seconds(s))} (${num(s.rows / seconds(s))} rows/s)`;
  const rows: ScaleRow[] = [
    row('CSV import', rate((s) => s.csvImport.seconds), (s) => s.csvImport.seconds),
    row('XLSX import', rate((s) => s.xlsxImport.seconds), (s) => s.xlsxImport.seconds),
    row('Planning (mapping.save)', rate((s) => s.planning.seconds), (s) => s.planning.seconds),
    row('Preview (run.preview)', (s) => ms(s.previewMs), (s) => s.previewMs),
    row(
      'Matching run',
      (s) => `${sec(s.matching.seconds)}, ${num(s.matching.calls)} calls, ${num(s.matching.seconds / s.matching.lowerBoundSeconds, 2)}x bound, engine CPU ${sec(s.matching.cpuSeconds)}`,
      (s) => s.matching.seconds,
    ),
    row('First run: engine CPU per call', (s) => {
      const perCall = (s.matching.cpuSeconds * 1000) / s.matching.calls;
      const storage = s.storageFloor?.cpuMsPerCall;
      const whole = s.runFloor?.cpuMsPerCall;
      if (storage === undefined || whole === undefined) return ms(perCall);
      return `${ms(perCall)} (floor: storage ${ms(storage)}, the run's work in row order ${ms(whole)}: ${num(perCall / whole, 2)}x)`;
    }),
    row('First run: written to the disk / reply bytes', (s) => {
      const ratio = writtenVsReplies(s);
      return s.matching.io && ratio !== null ? `${bytesMb(s.matching.io.writeBytes)} / ${bytesMb(s.matching.replyBytes)} = ${num(ratio, 2)}x` : 'not measured (no /proc/PID/io)';
    }),
    row(
      'Data folder after matchdesk match',
      (s) => `${bytesMb(s.cliMatch.dataFolder.bytes)} = ${num(dataFolderMbPer100k(s), 1)} MB per 100k rows`,
      (s) => s.cliMatch.dataFolder.bytes,
    ),
    row('Cached re-run (run only)', (s) => `${sec(s.cachedRerun.seconds)}, ${s.cachedRerun.findCallsServed} calls, engine CPU ${sec(s.cachedRerun.cpuSeconds)}`, (s) => s.cachedRerun.seconds),
    row(
      'Refresh (a fifth of the employed moved on)',
      (s) => `${sec(s.refresh.seconds)}, ${num(s.refresh.queries)} queries for ${num(s.refresh.people)} people, ${num(s.refresh.rowsChanged)} rows changed`,
    ),
    row('CSV export', (s) => `${sec(s.csvExport.seconds)} (${num(s.csvExport.rows / s.csvExport.seconds)} rows/s)`, (s) => s.csvExport.seconds),
    row('XLSX export', (s) => sec(s.xlsxExport.seconds), (s) => s.xlsxExport.seconds),
    row('matchdesk match end to end', (s) => `${sec(s.cliMatch.seconds)} = ${num(s.cliMatch.seconds / s.cliMatch.lowerBoundSeconds, 2)}x bound (${sec(s.cliMatch.lowerBoundSeconds)})`, (s) => s.cliMatch.seconds),
    // The end-to-end target leaves the machine's cores for its multiple of the bound; the app and the simulator beside
    // it both spend from them, so a CPU total above what they give cannot meet it, however the steps are overlapped.
    row(
      `matchdesk match CPU (app + simulator) / ${cores} cores x ${MATCH_VS_BOUND_LIMIT}x bound`,
      (s) => {
        const { cpuSeconds: app, simulatorCpuSeconds: simulator, lowerBoundSeconds: bound } = s.cliMatch;
        const allowed = cores * MATCH_VS_BOUND_LIMIT * bound;
        return `${sec(app)} + ${sec(simulator)} / ${sec(allowed)} = ${num((app + simulator) / allowed, 2)}x`;
      },
    ),
    row('Review page p50 / p95', (s) => `${ms(s.review.p50Ms)} / ${ms(s.review.p95Ms)}`),
    row('Jump to row 90% down', (s) => `${ms(s.review.jumpMs)} (row ${num(s.review.jumpRow)})`),
    row('Text filter, slowest', (s) => ms(s.review.textFilterMaxMs)),
    row('First text filter (builds the index)', (s) => sec(s.review.textIndexFirstFilterMs / 1000), (s) => s.review.textIndexFirstFilterMs),
    row('Peak RSS: engine', (s) => mb(engineRssMb(s))),
    row('Peak RSS: matchdesk match', (s) => mb(s.cliMatch.maxRssMb)),
    row('Peak RSS: browser host', (s) => mb(s.webHost.maxRssMb)),
    row('Peak RSS: simulator (not the app)', (s) => mb(s.simulatorMaxRssMb)),
  ];
  const figures: Figure[] = scales.flatMap((s) => [
    { label: `Engine peak RSS by step, ${short(s.rows)}`, value: `${phaseText(s.engineMemory.byPhase)} MB` },
    { label: `Engine JS heap peak by step, ${short(s.rows)}`, value: `${phaseText(s.engineMemory.heapByPhase)} MB` },
  ]);
  if (small.reference) {
    const ref = small.reference;
    figures.push({
      label: 'Reference strategies',
      value:
        `one query per call ${num(ref.onePerCall.secondsPerRow * 1000, 2)} ms/row, 10 per call + 50 ms pause ${num(ref.tenPerCallWithPause.secondsPerRow * 1000, 2)} ms/row ` +
        `(${num(ref.slice)} rows), Matchdesk ${num((small.matching.seconds / small.rows) * 1000, 3)} ms/row`,
    });
  }
  const notMeasured = unmeasured.map((t) => t.label(benchFigures));
  if (notMeasured.length > 0) figures.push({ label: 'Targets this run does not measure', value: notMeasured.join('; ') });
  return { checks, unmeasured: unmeasured.map((t) => t.id), benchFigures, table: { sizes: scales.map((s) => s.rows), rows }, figures };
}

async function cleanUp(): Promise<void> {
  const sim = simulator;
  simulator = null;
  await sim?.stop().catch(() => undefined);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write(`\nbench: ${signal}, stopping the simulator...\n`);
    void cleanUp().finally(() => process.exit(130));
  });
}

let code = 1;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  // Once interrupted, what fails next is only the interruption showing through.
  if (!interrupted) {
    process.stderr.write(`\nbench failed: ${error instanceof BenchFailure ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  code = 1;
} finally {
  await cleanUp();
}
process.exit(interrupted ? 130 : code);
