// The benchmark's targets, one object each: the figure it holds (named as in bench/results.json's "figures"), the
// limit, and the issue that set it. A later issue that tightens a limit replaces the earlier one's entry here.
import { check, num, type TargetCheck } from './report';

/** The steps whose cost per row at the largest size is held to their cost at the reference size. */
export const PER_ROW_STEPS = ['csvImport', 'xlsxImport', 'planning', 'matching', 'cachedRerun', 'csvExport', 'xlsxExport'] as const;
export type PerRowStep = (typeof PER_ROW_STEPS)[number];

/**
 * What one bench run measured, as plain numbers. "small" is the reference size (100k rows) and "large" the largest
 * size of the run; a run of one size has no large-only figure (null). "Worst" is the worse of the sizes.
 */
export interface BenchFigures {
  smallRows: number;
  /** Null when the run measured one size. */
  largeRows: number | null;
  /** `matchdesk match` end to end / the network bound of its run's queries. */
  matchVsBoundSmall: number;
  matchVsBoundLarge: number | null;
  /** The engine's CPU during the first run / the calls it made, worst of the sizes. */
  firstRunCpuMsPerCall: number;
  /** Bytes the engine process wrote to the disk during the first run / the replies' bytes as the simulator sent them,
   * worst of the sizes; null where the process's write counter is unknown (not Linux). */
  firstRunWrittenVsReplies: number | null;
  /** The data folder after `matchdesk match` (one first run), in MB per 100,000 rows, worst of the sizes. */
  dataFolderMbPer100kRows: number;
  /** The cached re-run's time / the first run's, and the find calls the simulator saw during it, at the largest size. */
  cachedVsFirst: number;
  cachedCalls: number;
  /** At the largest size. */
  csvExportRowsPerSecond: number;
  xlsxImportRowsPerSecond: number;
  /** Peak resident memory of each process, worst of the sizes. */
  peakRssMbEngine: number;
  peakRssMbCli: number;
  peakRssMbWebHost: number;
  /** Each step's cost per row at the largest size / at the reference size; null when the run measured one size. */
  perRowGrowth: Record<PerRowStep, number> | null;
  /** The review at the largest size. */
  reviewP95Ms: number;
  jumpRow: number;
  jumpMs: number;
  textFilters: number;
  textFilterMaxMs: number;
  /** At the reference size. */
  csvImportRowsPerSecondSmall: number;
  matchingVsBoundSmall: number;
  /** 10 queries a call with a 50 ms pause, its time per row / Matchdesk's; null when the reference strategies did not run. */
  speedupVsTenPerCall: number | null;
  cachedRerunSecondsSmall: number;
  csvExportSecondsSmall: number;
  reviewP95MsSmall: number;
}

/** A target: `figure` against `limit`, lower or higher being better. */
export interface Target {
  id: string;
  label: (f: BenchFigures) => string;
  /** Null when this run does not measure it (a per-row ratio with one size, say). */
  figure: (f: BenchFigures) => number | null;
  unit: string;
  limit: number;
  better: 'lower' | 'higher';
  /** The issue that set the limit. */
  issue: number;
  /** What it replaces or keeps of an earlier issue's target. */
  note?: string;
}

/** Sheet sizes as the table says them: 100k, 1M, 99,746. */
export function short(rows: number): string {
  return rows >= 1_000_000 && rows % 1_000_000 === 0 ? `${rows / 1_000_000}M` : rows >= 1000 && rows % 1000 === 0 ? `${rows / 1000}k` : num(rows);
}

/** The largest size measured (the only one in a run of one size). */
const large = (f: BenchFigures) => short(f.largeRows ?? f.smallRows);
const small = (f: BenchFigures) => short(f.smallRows);
/** The larger size, for the targets only a run of two sizes measures. */
const larger = (f: BenchFigures) => (f.largeRows === null ? 'a larger size' : short(f.largeRows));

/** Each step's target id (as in earlier results.json files) and label. */
const STEP_TARGETS: Record<PerRowStep, [string, string]> = {
  csvImport: ['per_row_csv_import', 'CSV import'],
  xlsxImport: ['per_row_xlsx_import', 'XLSX import'],
  planning: ['per_row_planning', 'Planning'],
  matching: ['per_row_run', 'Matching run'],
  cachedRerun: ['per_row_cached_rerun', 'Cached re-run'],
  csvExport: ['per_row_csv_export', 'CSV export'],
  xlsxExport: ['per_row_xlsx_export', 'XLSX export'],
};

/** `matchdesk match` end to end against the network bound (issue 41): the cores' budget row of the table uses it too. */
export const MATCH_VS_BOUND_LIMIT = 2.0;
const PEAK_RSS_MB = 300;

const peakRss = (id: string, process: string, figure: (f: BenchFigures) => number): Target => ({
  id: `peak_rss_${id}`,
  label: () => `${process} peak RSS (worst size)`,
  figure,
  unit: 'MB',
  limit: PEAK_RSS_MB,
  better: 'lower',
  issue: 41,
  note: 'replaces issue 12 (400 MB)',
});

export const TARGETS: readonly Target[] = [
  // Issue 41: a first run near the network bound, a cached re-run and an export in seconds, as ratios in one run.
  {
    id: 'match_vs_bound_small',
    label: (f) => `matchdesk match end to end / network bound (${small(f)})`,
    figure: (f) => f.matchVsBoundSmall,
    unit: 'x',
    limit: MATCH_VS_BOUND_LIMIT,
    better: 'lower',
    issue: 41,
  },
  {
    id: 'match_vs_bound_large',
    label: (f) => `matchdesk match end to end / network bound (${larger(f)})`,
    figure: (f) => f.matchVsBoundLarge,
    unit: 'x',
    limit: MATCH_VS_BOUND_LIMIT,
    better: 'lower',
    issue: 41,
    note: 'replaces issue 12 (1.5x at 1M only)',
  },
  {
    id: 'first_run_cpu_per_call',
    label: () => 'First run: engine CPU per call (worst size)',
    figure: (f) => f.firstRunCpuMsPerCall,
    unit: 'ms',
    limit: 8,
    better: 'lower',
    issue: 41,
  },
  {
    id: 'first_run_written_vs_replies',
    label: () => 'First run: bytes written / reply bytes (worst size)',
    figure: (f) => f.firstRunWrittenVsReplies,
    unit: 'x',
    limit: 2,
    better: 'lower',
    issue: 41,
  },
  {
    id: 'data_folder_per_100k',
    label: () => 'Data folder after a first run, per 100k rows (worst size)',
    figure: (f) => f.dataFolderMbPer100kRows,
    unit: 'MB',
    limit: 100,
    better: 'lower',
    issue: 41,
  },
  {
    id: 'cached_vs_first',
    label: (f) => `Cached re-run / first run (${large(f)})`,
    figure: (f) => f.cachedVsFirst,
    unit: 'x',
    limit: 0.2,
    better: 'lower',
    issue: 41,
    note: 'replaces issue 12 (0.25x)',
  },
  {
    id: 'cached_calls',
    label: (f) => `Calls on the cached re-run (${large(f)})`,
    figure: (f) => f.cachedCalls,
    unit: 'calls',
    limit: 0,
    better: 'lower',
    issue: 41,
    note: 'as issue 12',
  },
  {
    id: 'csv_export_rate',
    label: (f) => `CSV export (${large(f)})`,
    figure: (f) => f.csvExportRowsPerSecond,
    unit: 'rows/s',
    limit: 150_000,
    better: 'higher',
    issue: 41,
  },
  {
    id: 'xlsx_import_rate',
    label: (f) => `XLSX import (${large(f)})`,
    figure: (f) => f.xlsxImportRowsPerSecond,
    unit: 'rows/s',
    limit: 80_000,
    better: 'higher',
    issue: 41,
  },
  peakRss('engine', 'Engine process', (f) => f.peakRssMbEngine),
  peakRss('cli', 'matchdesk match process', (f) => f.peakRssMbCli),
  peakRss('web', 'Browser host process', (f) => f.peakRssMbWebHost),
  // Issue 12, kept by issue 41: every step scales with the rows.
  ...PER_ROW_STEPS.map(
    (step): Target => ({
      id: STEP_TARGETS[step][0],
      label: (f) => `${STEP_TARGETS[step][1]}: per-row cost ${larger(f)} / ${small(f)}`,
      figure: (f) => f.perRowGrowth?.[step] ?? null,
      unit: 'x',
      limit: 1.3,
      better: 'lower',
      issue: 12,
      note: 'kept by issue 41',
    }),
  ),
  {
    id: 'review_p95',
    label: (f) => `Review page p95 (${large(f)})`,
    figure: (f) => f.reviewP95Ms,
    unit: 'ms',
    limit: 16,
    better: 'lower',
    issue: 12,
  },
  {
    id: 'review_jump',
    label: (f) => `Jump to row ${num(f.jumpRow)}`,
    figure: (f) => f.jumpMs,
    unit: 'ms',
    limit: 100,
    better: 'lower',
    issue: 12,
  },
  {
    id: 'review_text_filter',
    label: (f) => `Text filter, slowest of ${f.textFilters} (${large(f)})`,
    figure: (f) => f.textFilterMaxMs,
    unit: 'ms',
    limit: 300,
    better: 'lower',
    issue: 12,
  },
  // Issue 6, on the reference (100k) sheet.
  {
    id: 'i6_csv_import',
    label: (f) => `CSV import (${small(f)})`,
    figure: (f) => f.csvImportRowsPerSecondSmall,
    unit: 'rows/s',
    limit: 100_000,
    better: 'higher',
    issue: 6,
  },
  {
    id: 'i6_matching_vs_bound',
    label: (f) => `Matching run / network bound (${small(f)})`,
    figure: (f) => f.matchingVsBoundSmall,
    unit: 'x',
    limit: 1.3,
    better: 'lower',
    issue: 6,
  },
  {
    id: 'i6_speedup',
    label: () => 'Faster than 10 per call (per row)',
    figure: (f) => f.speedupVsTenPerCall,
    unit: 'x',
    limit: 30,
    better: 'higher',
    issue: 6,
  },
  {
    id: 'i6_cached_rerun',
    label: (f) => `Cached re-run (${small(f)})`,
    figure: (f) => f.cachedRerunSecondsSmall,
    unit: 's',
    limit: 5,
    better: 'lower',
    issue: 6,
  },
  {
    id: 'i6_csv_export',
    label: (f) => `CSV export (${small(f)})`,
    figure: (f) => f.csvExportSecondsSmall,
    unit: 's',
    limit: 2,
    better: 'lower',
    issue: 6,
  },
  {
    id: 'i6_review_p95',
    label: (f) => `Review page p95 (${small(f)})`,
    figure: (f) => f.reviewP95MsSmall,
    unit: 'ms',
    limit: 50,
    better: 'lower',
    issue: 6,
  },
];

/** The targets this run measured, each checked, and those it did not (null figure). */
export function checkTargets(figures: BenchFigures, targets: readonly Target[] = TARGETS): { checks: TargetCheck[]; unmeasured: Target[] } {
  const checks: TargetCheck[] = [];
  const unmeasured: Target[] = [];
  for (const t of targets) {
    const value = t.figure(figures);
    if (value === null) unmeasured.push(t);
    else checks.push({ ...check(t.id, t.label(figures), value, t.unit, t.limit, t.better, t.note), issue: t.issue });
  }
  return { checks, unmeasured };
}
