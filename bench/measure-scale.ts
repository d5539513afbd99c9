// Everything the benchmark measures on one sheet size: the engine's steps (in its own process), the review list,
// the browser host and `matchdesk match` end to end, each process's peak resident memory.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCliMatch, type CliMatchResult } from './cli-match';
import { EngineProcess } from './engine-process';
import { lowerBoundSeconds, roundsOfRun, rowsFoundInSlice, type RoundQueries } from './lower-bound';
import { atPeakText, type MemoryPeak } from './memory-sampler';
import { folderSize, type FolderSize, type ProcessIo } from './process-io';
import type { BenchOptions } from './options';
import { onePerCall, tenPerCallWithPause, type ReferenceResult, type ServiceAccess } from './reference-strategies';
import { num, percentile } from './report';
import { ensureSheetFiles, readFirstRows, type SheetFiles } from './sheet-files';
import { SHEET_MAPPING } from './sheet-generator';
import { measureStorageFloor, type FloorResult } from './storage-floor-process';
import type { SimulatorProcess, SimulatorTally } from './simulator-process';
import { runWebHostFlow, type WebHostFlow } from './web-host-process';

const REVIEW_FETCHES = 200;
/** The review list's page (renderer/src/features/review/review-list.ts PAGE_SIZE). */
const REVIEW_PAGE = 200;
/** Filters typed into the review list, each new to the text index (its first filter builds it, timed apart). */
const FIRST_TEXT = 'smith';
const TEXT_FILTERS = ['jones', 'acme', 'director', 'hotmail', 'linkedin.com/in/jo', 'Müller', 'sales'];

export interface Step {
  seconds: number;
  /** The engine's CPU seconds during the step. */
  cpuSeconds: number;
}

export interface ScaleResult {
  rows: number;
  sheet: SheetFiles['stats'];
  csvImport: Step & { storedSeconds: number };
  planning: Step & { mappingFixed: boolean };
  xlsxImport: Step & { rows: number; storedSeconds: number };
  previewMs: number;
  preview: unknown;
  matching: Step & {
    calls: number;
    cacheHits: number;
    errors: number;
    rounds: RoundQueries[];
    distinctQueries: number;
    lowerBoundSeconds: number;
    simulator: SimulatorTally;
    simulatorCpuSeconds: number;
    rowStates: Record<string, number>;
    /** What the engine process wrote during the run; null where /proc/PID/io is not there. */
    io: ProcessIo | null;
    /** Bytes of the replies' bodies as the simulator sent them during the run. */
    replyBytes: number;
    /** The data folder before and after the run (the sheet imported and planned before it). */
    dataFolderBefore: FolderSize;
    dataFolderAfter: FolderSize;
  };
  /**
   * The first run's floors on this machine (storage-floor.ts), measured at the reference size only: its answers
   * stored alone, and stored with each settled row's verdict worked out (the whole of its essential work).
   */
  storageFloor: FloorResult | null;
  runFloor: FloorResult | null;
  reference: null | { slice: number; matchdeskRowsFound: number; onePerCall: ReferenceResult; tenPerCallWithPause: ReferenceResult };
  cachedRerun: Step & { importSeconds: number; planningSeconds: number; calls: number; findCallsServed: number; cacheHits: number };
  refresh: Step & {
    world: { moved: number; left: number };
    people: number;
    queries: number;
    calls: number;
    rowsChanged: number;
    rowsUpdated: number;
    notFound: number;
  };
  csvExport: Step & { rows: number };
  xlsxExport: Step & { rows: number };
  review: {
    fetches: number;
    p50Ms: number;
    p95Ms: number;
    byKind: Record<string, { fetches: number; p50Ms: number; p95Ms: number; maxMs: number }>;
    /** The decisions between the pages of kind "decided" (a row of the queue skipped each time). */
    decisionP95Ms: number;
    jumpRow: number;
    jumpMs: number;
    textIndexFirstFilterMs: number;
    textFilterMs: Record<string, number>;
    textFilterMaxMs: number;
  };
  engineMemory: MemoryPeak;
  webHost: WebHostFlow;
  /**
   * `simulatorCpuSeconds`: the simulator's CPU over the same span, taken from the cores the app runs on;
   * `replyBytes`: the replies' bodies it sent meanwhile.
   */
  cliMatch: CliMatchResult & { simulatorCpuSeconds: number; replyBytes: number };
  simulatorMaxRssMb: number;
}

type Log = (line: string) => void;

/** Measures every step on a generated sheet of `rows` rows; the reference strategies only when asked (they are per row). */
export async function measureScale(
  rows: number,
  opts: BenchOptions,
  simulator: SimulatorProcess,
  tmpDir: string,
  withReference: boolean,
  log: Log,
): Promise<ScaleResult> {
  const service = simulator.info;
  const sheet = await ensureSheetFiles(tmpDir, { rows, people: opts.people, seed: opts.seed }, log);
  const s = sheet.stats;
  log(
    `  sheet: ${num(s.rows)} rows: ${num(s.email)} e-mail, ${num(s.profile)} profile link, ${num(s.nameCompany)} name + company, ` +
      `${num(s.duplicates)} duplicates, ${num(s.junk)} junk; ${num(s.nobody)} ask for nobody in the dataset, ${num(s.stale)} have an out-of-date e-mail or link`,
  );
  const dataDir = join(tmpDir, `engine-${process.pid}-${rows}`);
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const engine = await EngineProcess.start(dataDir, service, opts.concurrency, log, opts.cpuProfileDir);
  log(`  engine process: pid ${engine.pid}`);
  try {
    await engine.enter('import');
    log('  import (projects.import: read, store, guess the columns), then the mapping confirmed (mapping.save plans the queries)');
    const csv = await engine.importSheet(sheet.csv, 'Bench CSV');
    const projectId = csv.project.summary.id;
    const stored = csv.project.summary.rowCount;
    log(`  CSV: ${num(stored)} rows in ${num(csv.seconds, 2)} s = ${num(stored / csv.seconds)} rows/s (engine CPU ${num(csv.cpuSeconds, 2)} s; stored after ${num(csv.storedSeconds, 2)} s)`);
    await engine.enter('planning');
    const planning = await engine.saveMapping(csv.project);
    log(`  planning (mapping.save): ${num(planning.seconds, 2)} s = ${num(stored / planning.seconds)} rows/s (engine CPU ${num(planning.cpuSeconds, 2)} s)`);
    await engine.enter('xlsx import');
    const xlsx = await engine.importSheet(sheet.xlsx, 'Bench XLSX');
    const xlsxRows = xlsx.project.summary.rowCount;
    log(`  XLSX: ${num(xlsxRows)} rows in ${num(xlsx.seconds, 2)} s = ${num(xlsxRows / xlsx.seconds)} rows/s (engine CPU ${num(xlsx.cpuSeconds, 2)} s)`);
    await engine.call('projects.delete', { projectId: xlsx.project.summary.id });

    await engine.enter('preview');
    const preview = await engine.timed('run.preview', { projectId, offline: false });
    log(`  preview: ${num(preview.seconds * 1000, 1)} ms, ${num(preview.value.distinctQueries)} distinct first-round queries, ${num(preview.value.calls)} calls`);

    await engine.enter('matching');
    log(`  matching run (run.start until done), concurrency ${opts.concurrency}`);
    await simulator.reset();
    const simCpuBefore = (await simulator.tally()).cpuSeconds;
    const dataFolderBefore = await folderSize(dataDir);
    const run = await engine.runToEnd(projectId);
    const served = await simulator.tally();
    const dataFolderAfter = await folderSize(dataDir);
    const rounds = roundsOfRun(engine.dbPath, projectId);
    const distinct = rounds.reduce((n, r) => n + r.distinct, 0);
    const bound = lowerBoundSeconds(rounds, opts.latencyMs, opts.concurrency);
    log(
      `  run: ${num(run.seconds, 2)} s, ${num(run.progress.calls)} calls; rounds ${rounds.map((r) => num(r.distinct)).join(' + ')} = ${num(distinct)} distinct queries; ` +
        `lower bound ${num(bound, 2)} s; ratio ${num(run.seconds / bound, 2)}; CPU engine ${num(run.cpuSeconds, 1)} s, simulator ${num(served.cpuSeconds - simCpuBefore, 1)} s`,
    );
    log(
      `  run's writes: ${run.io ? `${mbText(run.io.writeBytes)} to the disk (${mbText(run.io.wchar)} handed to write(), sockets included)` : 'unknown here'} ` +
        `for ${mbText(served.replyBytes)} of replies; data folder ${mbText(dataFolderBefore.bytes)} -> ${mbText(dataFolderAfter.bytes)} ` +
        `(du ${mbText(dataFolderAfter.allocatedBytes)}, WAL ${mbText(dataFolderAfter.walBytes)})`,
    );
    // From the project, not a review page: opening the review starts filling the text index in the background, which
    // would take its turns between the later steps and leave the review step's first text filter less to build.
    const counts = (await engine.call('projects.get', { projectId })).summary.counts;

    let storageFloor: FloorResult | null = null;
    let runFloor: FloorResult | null = null;
    let reference: ScaleResult['reference'] = null;
    if (withReference) {
      // Figures beside another: a floor that fails is reported, the bench goes on.
      const floor = (inRowOrder: boolean) =>
        measureStorageFloor(engine.dbPath, projectId, { inRowOrder }).catch((error: unknown) => {
          log(`  ${inRowOrder ? 'first run' : 'storage'} floor not measured: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        });
      storageFloor = await floor(false);
      runFloor = await floor(true);
      if (storageFloor && runFloor) {
        log(
          `  floors (bench/storage-floor.ts: the run's answers stored alone, in a process of its own): CPU ${num(storageFloor.cpuMsPerCall, 2)} ms a call, ` +
            `${num(runFloor.cpuMsPerCall, 2)} with the rows settled as the run settles them (in row order, with their verdicts); ` +
            (runFloor.writtenBytes === null ? 'its writes unknown here' : `${mbText(runFloor.writtenBytes)} handed to write(), ${num(runFloor.writtenBytes / runFloor.replyBytes, 2)}x the replies`),
        );
      }

      await engine.enter('reference');
      log(`  reference strategies on the first ${num(opts.slice)} rows, same simulator, same waterfall`);
      const access: ServiceAccess = { baseUrl: service.baseUrl, orgId: service.orgId, clientId: service.clientId, clientSecret: service.clientSecret };
      const slice = await readFirstRows(sheet.csv, opts.slice);
      const matchdeskRowsFound = rowsFoundInSlice(engine.dbPath, projectId, slice.length);
      const a = await onePerCall(access, slice, SHEET_MAPPING, () => undefined);
      log(`    one per call: ${num(a.secondsPerRow * 1000, 2)} ms/row (${num(a.calls)} calls)`);
      const b = await tenPerCallWithPause(access, slice, SHEET_MAPPING, () => undefined);
      log(`    10 per call + pause: ${num(b.secondsPerRow * 1000, 2)} ms/row (${num(b.calls)} calls)`);
      reference = { slice: slice.length, matchdeskRowsFound, onePerCall: a, tenPerCallWithPause: b };
    }

    await engine.enter('cached re-run');
    const again = await engine.importSheet(sheet.csv, 'Bench CSV again');
    const againPlanning = await engine.saveMapping(again.project);
    await simulator.reset();
    const cached = await engine.runToEnd(again.project.summary.id);
    const cachedServed = await simulator.tally();
    log(
      `  cached re-run: import ${num(again.seconds, 2)} s, planning ${num(againPlanning.seconds, 2)} s; run ${num(cached.seconds, 2)} s (engine CPU ${num(cached.cpuSeconds, 2)} s), ` +
        `${cached.progress.calls} calls (simulator saw ${cachedServed.findCalls} find calls), ${num(cached.progress.cacheHits)} cache hits`,
    );
    // Only the first project is exported and reviewed: the second one's rows would be on the disk beside them for nothing.
    await engine.call('projects.delete', { projectId: again.project.summary.id });

    // A refresh after the simulator's world moved on: measured, not held to a target (issue 11 sets none but one
    // query per distinct person). Before the exports, so they write the rows as the refresh left them.
    await engine.enter('refresh');
    const world = await simulator.moveOn();
    const refreshPreview = await engine.timed('refresh.preview', { projectId });
    await simulator.reset();
    const refresh = await engine.refreshToEnd(projectId);
    const refreshServed = await simulator.tally();
    const rp = refresh.progress;
    log(
      `  refresh after ${num(world.moved)} people moved and ${num(world.left)} left: ${num(refresh.seconds, 2)} s (engine CPU ${num(refresh.cpuSeconds, 2)} s), ` +
        `${num(refreshServed.queries)} queries in ${num(refreshServed.findCalls)} calls for ${num(rp.peopleTotal)} people ` +
        `(${num(refreshServed.queries / Math.max(1, rp.peopleTotal), 3)} per person; preview said ${num(refreshPreview.value.people)}); ${num(rp.rowsChanged)} rows changed`,
    );

    await engine.enter('export');
    const csvExport = await engine.timed('export.run', { projectId, format: 'csv', scope: 'all', destination: join(dataDir, 'bench-export.csv') });
    log(`  CSV export: ${num(csvExport.value.rows)} rows in ${num(csvExport.seconds, 2)} s (engine CPU ${num(csvExport.cpuSeconds, 2)} s)`);
    await rm(join(dataDir, 'bench-export.csv'), { force: true });
    const xlsxExport = await engine.timed('export.run', { projectId, format: 'xlsx', scope: 'all', destination: join(dataDir, 'bench-export.xlsx') });
    log(`  XLSX export: ${num(xlsxExport.value.rows)} rows in ${num(xlsxExport.seconds, 2)} s (engine CPU ${num(xlsxExport.cpuSeconds, 2)} s)`);
    await rm(join(dataDir, 'bench-export.xlsx'), { force: true });

    await engine.enter('review');
    const review = await measureReview(engine, projectId, stored, log);

    const engineMemory = await engine.memory();
    log(`  engine process peak RSS ${num(Math.max(engineMemory.maxRss, engineMemory.sampled))} MB; by step: ${phaseText(engineMemory.byPhase)} MB; JS heap ${phaseText(engineMemory.heapByPhase)} MB`);
    if (engineMemory.atPeak) log(`    at its highest sample: ${atPeakText(engineMemory.atPeak)}`);
    await engine.close();

    log('  browser host (its own process, on the same data folder): upload, import, plan, cached run, review, export + download');
    const webHost = await runWebHostFlow(sheet.csv, dataDir, service, 50);
    log(
      `    upload ${num(webHost.uploadSeconds, 1)} s, import ${num(webHost.importSeconds, 1)} s, planning ${num(webHost.planningSeconds, 1)} s, run ${num(webHost.runSeconds, 1)} s ` +
        `(${webHost.calls} calls), review p95 ${num(webHost.reviewP95Ms, 1)} ms, export + download ${num(webHost.exportSeconds, 1)} s; peak RSS ${num(webHost.maxRssMb)} MB; by part: ${phaseText(webHost.memory.byPhase)} MB`,
    );
    if (webHost.memory.atPeak) log(`    at its highest sample: ${atPeakText(webHost.memory.atPeak)}`);
    await rm(dataDir, { recursive: true, force: true });

    log('  matchdesk match end to end (its own process, an empty data folder)');
    await simulator.reset();
    const cliSimulatorCpuBefore = (await simulator.tally()).cpuSeconds;
    const cliMatch = await runCliMatch(sheet.csv, tmpDir, service, opts.latencyMs, opts.concurrency);
    const { maxRssMb: simulatorMaxRssMb, cpuSeconds: cliSimulatorCpuAfter, replyBytes: cliReplyBytes } = await simulator.tally();
    const cliSimulatorCpu = cliSimulatorCpuAfter - cliSimulatorCpuBefore;
    log(
      `    ${num(cliMatch.seconds, 1)} s for ${num(cliMatch.rows)} rows, ${num(cliMatch.calls)} calls; network bound ${num(cliMatch.lowerBoundSeconds, 2)} s; ` +
        `ratio ${num(cliMatch.seconds / cliMatch.lowerBoundSeconds, 2)}; peak RSS ${num(cliMatch.maxRssMb)} MB, CPU ${num(cliMatch.cpuSeconds, 1)} s (the simulator's meanwhile ${num(cliSimulatorCpu, 1)} s)`,
    );
    log(
      `    data folder after it ${mbText(cliMatch.dataFolder.bytes)} (du ${mbText(cliMatch.dataFolder.allocatedBytes)}); ` +
        `${cliMatch.io ? `${mbText(cliMatch.io.writeBytes)} written to the disk, the export's included,` : 'its writes unknown here,'} for ${mbText(cliReplyBytes)} of replies`,
    );

    return {
      rows: stored,
      sheet: sheet.stats,
      csvImport: { seconds: csv.seconds, cpuSeconds: csv.cpuSeconds, storedSeconds: csv.storedSeconds },
      planning: { seconds: planning.seconds, cpuSeconds: planning.cpuSeconds, mappingFixed: planning.mappingFixed },
      xlsxImport: { seconds: xlsx.seconds, cpuSeconds: xlsx.cpuSeconds, rows: xlsxRows, storedSeconds: xlsx.storedSeconds },
      previewMs: preview.seconds * 1000,
      preview: preview.value,
      matching: {
        seconds: run.seconds,
        cpuSeconds: run.cpuSeconds,
        calls: run.progress.calls,
        cacheHits: run.progress.cacheHits,
        errors: run.progress.errors,
        rounds,
        distinctQueries: distinct,
        lowerBoundSeconds: bound,
        simulator: served,
        simulatorCpuSeconds: served.cpuSeconds - simCpuBefore,
        rowStates: counts,
        io: run.io,
        replyBytes: served.replyBytes,
        dataFolderBefore,
        dataFolderAfter,
      },
      storageFloor,
      runFloor,
      reference,
      cachedRerun: {
        seconds: cached.seconds,
        cpuSeconds: cached.cpuSeconds,
        importSeconds: again.seconds,
        planningSeconds: againPlanning.seconds,
        calls: cached.progress.calls,
        findCallsServed: cachedServed.findCalls,
        cacheHits: cached.progress.cacheHits,
      },
      refresh: {
        world,
        seconds: refresh.seconds,
        cpuSeconds: refresh.cpuSeconds,
        people: rp.peopleTotal,
        queries: refreshServed.queries,
        calls: refreshServed.findCalls,
        rowsChanged: rp.rowsChanged,
        rowsUpdated: rp.rowsUpdated,
        notFound: rp.notFound,
      },
      csvExport: { seconds: csvExport.seconds, cpuSeconds: csvExport.cpuSeconds, rows: csvExport.value.rows },
      xlsxExport: { seconds: xlsxExport.seconds, cpuSeconds: xlsxExport.cpuSeconds, rows: xlsxExport.value.rows },
      review,
      engineMemory,
      webHost,
      cliMatch: { ...cliMatch, simulatorCpuSeconds: cliSimulatorCpu, replyBytes: cliReplyBytes },
      simulatorMaxRssMb,
    };
  } finally {
    await engine.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The review list as the renderer asks for it: pages spread over the list (unfiltered, by state, by text), a jump
 * to row 900,000 (or 90% down a smaller list), and text filters typed anew, each a first page with its total.
 */
async function measureReview(engine: EngineProcess, projectId: number, rows: number, log: Log): Promise<ScaleResult['review']> {
  const first = await engine.timed('review.page', { projectId, text: FIRST_TEXT, offset: 0, limit: REVIEW_PAGE });
  log(`  review: the first text filter builds the text index: ${num(first.seconds, 2)} s`);
  const pages = (await engine.ask<{ all: number[]; byKind: Record<string, number[]>; decisionsMs: number[] }>('reviewPages', projectId, REVIEW_FETCHES)).value;
  const jumpRow = Math.min(900_000, Math.floor(rows * 0.9));
  const jumpOffset = Math.floor(jumpRow / REVIEW_PAGE) * REVIEW_PAGE;
  const jump = await engine.timed('review.page', { projectId, offset: jumpOffset, limit: REVIEW_PAGE });
  const textFilterMs: Record<string, number> = {};
  for (const text of TEXT_FILTERS) {
    const page = await engine.timed('review.page', { projectId, text, offset: 0, limit: REVIEW_PAGE });
    textFilterMs[text] = page.seconds * 1000;
  }
  const textFilterMaxMs = Math.max(...Object.values(textFilterMs));
  const p50 = percentile(pages.all, 50);
  const p95 = percentile(pages.all, 95);
  const kinds = Object.entries(pages.byKind).map(([k, v]) => `${k} ${num(percentile(v, 95), 1)}`);
  log(`  review pages p95 by kind: ${kinds.join(', ')} ms; the decisions between the queue's pages p95 ${num(percentile(pages.decisionsMs, 95), 1)} ms`);
  log(
    `  review pages p50 ${num(p50, 1)} / p95 ${num(p95, 1)} ms; jump to row ${num(jumpRow)} ${num(jump.seconds * 1000, 1)} ms; ` +
      `text filters (first page + total) ${Object.entries(textFilterMs).map(([t, ms]) => `${t} ${num(ms, 0)}`).join(', ')} ms`,
  );
  return {
    fetches: pages.all.length,
    p50Ms: p50,
    p95Ms: p95,
    byKind: Object.fromEntries(
      Object.entries(pages.byKind).map(([k, v]) => [k, { fetches: v.length, p50Ms: percentile(v, 50), p95Ms: percentile(v, 95), maxMs: Math.max(...v) }]),
    ),
    decisionP95Ms: percentile(pages.decisionsMs, 95),
    jumpRow,
    jumpMs: jump.seconds * 1000,
    textIndexFirstFilterMs: first.seconds * 1000,
    textFilterMs,
    textFilterMaxMs,
  };
}

const mbText = (bytes: number) => `${num(bytes / 1e6, 1)} MB`;

export function phaseText(byPhase: Record<string, number>): string {
  return Object.entries(byPhase)
    .map(([k, v]) => `${k} ${num(v)}`)
    .join(', ');
}
