// The figures the targets hold (bench/targets.ts), worked out from what each sheet size measured.
import type { ScaleResult } from './measure-scale';
import { PER_ROW_STEPS, type BenchFigures, type PerRowStep } from './targets';

const STEP_SECONDS: Record<PerRowStep, (s: ScaleResult) => number> = {
  csvImport: (s) => s.csvImport.seconds,
  xlsxImport: (s) => s.xlsxImport.seconds,
  planning: (s) => s.planning.seconds,
  matching: (s) => s.matching.seconds,
  cachedRerun: (s) => s.cachedRerun.seconds,
  csvExport: (s) => s.csvExport.seconds,
  xlsxExport: (s) => s.xlsxExport.seconds,
};

/** The engine process's peak resident memory: the sampler's or the kernel's high-water mark, whichever is higher. */
export const engineRssMb = (s: ScaleResult) => Math.max(s.engineMemory.maxRss, s.engineMemory.sampled);

/** Bytes the engine wrote to the disk during the first run / the replies' bytes; null when its writes are unknown. */
export const writtenVsReplies = (s: ScaleResult) => (s.matching.io && s.matching.replyBytes > 0 ? s.matching.io.writeBytes / s.matching.replyBytes : null);

/** The data folder `matchdesk match` left after one first run, in MB per 100,000 of its rows. */
export const dataFolderMbPer100k = (s: ScaleResult) => s.cliMatch.dataFolder.bytes / 1e6 / (s.rows / 100_000);

/** The worse (higher) of the sizes' figures; null when any size lacks it. */
function worst(scales: ScaleResult[], figure: (s: ScaleResult) => number | null): number | null {
  const values = scales.map(figure);
  return values.some((v) => v === null) ? null : Math.max(...(values as number[]));
}

/** `scales`: the reference size first, the largest last (one entry when the run measured one size). */
export function figuresOf(scales: ScaleResult[]): BenchFigures {
  const small = scales[0]!;
  const large = scales[scales.length - 1]!;
  const two = scales.length > 1;
  const perRow = (step: PerRowStep) => STEP_SECONDS[step](large) / large.rows / (STEP_SECONDS[step](small) / small.rows);
  const ref = small.reference;
  return {
    smallRows: small.rows,
    largeRows: two ? large.rows : null,
    matchVsBoundSmall: small.cliMatch.seconds / small.cliMatch.lowerBoundSeconds,
    matchVsBoundLarge: two ? large.cliMatch.seconds / large.cliMatch.lowerBoundSeconds : null,
    firstRunCpuMsPerCall: worst(scales, (s) => (s.matching.cpuSeconds * 1000) / s.matching.calls)!,
    firstRunWrittenVsReplies: worst(scales, writtenVsReplies),
    dataFolderMbPer100kRows: worst(scales, dataFolderMbPer100k)!,
    cachedVsFirst: large.cachedRerun.seconds / large.matching.seconds,
    cachedCalls: large.cachedRerun.findCallsServed,
    csvExportRowsPerSecond: large.csvExport.rows / large.csvExport.seconds,
    xlsxImportRowsPerSecond: large.xlsxImport.rows / large.xlsxImport.seconds,
    peakRssMbEngine: worst(scales, engineRssMb)!,
    peakRssMbCli: worst(scales, (s) => s.cliMatch.maxRssMb)!,
    peakRssMbWebHost: worst(scales, (s) => s.webHost.maxRssMb)!,
    perRowGrowth: two ? (Object.fromEntries(PER_ROW_STEPS.map((step) => [step, perRow(step)])) as Record<PerRowStep, number>) : null,
    reviewP95Ms: large.review.p95Ms,
    jumpRow: large.review.jumpRow,
    jumpMs: large.review.jumpMs,
    textFilters: Object.keys(large.review.textFilterMs).length,
    textFilterMaxMs: large.review.textFilterMaxMs,
    csvImportRowsPerSecondSmall: small.rows / small.csvImport.seconds,
    matchingVsBoundSmall: small.matching.seconds / small.matching.lowerBoundSeconds,
    speedupVsTenPerCall: ref ? ref.tenPerCallWithPause.secondsPerRow / (small.matching.seconds / small.rows) : null,
    cachedRerunSecondsSmall: small.cachedRerun.seconds,
    csvExportSecondsSmall: small.csvExport.seconds,
    reviewP95MsSmall: small.review.p95Ms,
  };
}
