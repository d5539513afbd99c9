// The confidence model's m probabilities estimated again from one project's own comparisons (issue 43), as Splink
// estimates them: expectation maximisation over the sheet's candidate pairs, the pairs the reviewer decided held at
// what they said (Splink's estimate_m_from_pairwise_labels), the app's model as the starting point and as a prior,
// so a level the sheet shows seldom keeps the app's figures. u stays the app's, as Splink's EM keeps it by default:
// it is judged among the people the service returns, and on a sheet of namesakes EM cannot tell it from m (left
// free, it took namesakes at the company for evidence against the company, and the calibration error of the
// confidences it gave on the evaluation set rose tenfold). Kept readable as data: one object in the shape of
// CONFIDENCE_MODEL, each figure with its reason. Pure: no I/O.
import type { Levels } from './assess-row';
import { CONFIDENCE_MODEL, type Comparison, type Level } from './confidence-model';

/** One row of the sheet with candidates: each candidate's levels, best first, and what the reviewer said. */
export interface SheetRow {
  levels: Levels[];
  /** The index of the candidate the reviewer chose, null when none fits, undefined when nobody decided the row. */
  label?: number | null;
}

export interface EstimatedLevel extends Level {
  /** How many of the sheet's candidate pairs had this level (the estimate stands on them). */
  pairs: number;
}

/** The model's figures as this sheet and its decisions give them: CONFIDENCE_MODEL's shape, every figure with its reason. */
export interface SheetWeights {
  why: string;
  estimatedFrom: { rows: number; pairs: number; labels: number; iterations: number };
  notAmongCandidates: { probability: number; why: string };
  comparisons: Record<Comparison, { levels: Record<string, EstimatedLevel> }>;
}

/** Pairs a level needs on the sheet before its m is estimated from it: fewer is noise, so the app's is kept. */
export const MIN_PAIRS = 30;
/** How many pairs the app's model counts for, as a prior, beside the sheet's. */
const PRIOR_PAIRS = 100;
const MAX_ITERATIONS = 40;
/** EM stops once no m, nor the share of rows whose person is none of the candidates, moves by more than this. */
const CONVERGED = 1e-4;
const FLOOR = 1e-5;

const COMPARISONS = Object.keys(CONFIDENCE_MODEL.comparisons) as Comparison[];
/** What EM estimates: the share of rows whose person is none of the candidates, and each informative level's m. */
type Figures = { p0: number; m: Record<string, Record<string, number>> };

function baseLevels(comparison: Comparison): Record<string, Level> {
  return CONFIDENCE_MODEL.comparisons[comparison].levels as Record<string, Level>;
}

/** A level that carries no information (the field is missing on a side): never estimated, weight 0. */
function informative(comparison: Comparison, level: string): boolean {
  const base = baseLevels(comparison)[level];
  return base !== undefined && !(base.m === 1 && base.u === 1);
}

/**
 * Each candidate's share of the evidence beside "none of them", as assess-row.ts' evidenceShares, under `figures`:
 * the probability the model gives each candidate of being the row's person (the E step).
 */
function shares(levels: readonly Levels[], f: Pick<Figures, 'p0'> & { weight: (c: Comparison, level: string) => number }): number[] {
  const weights = levels.map((l) => COMPARISONS.reduce((sum, c) => sum + f.weight(c, l[c] as string), 0));
  const none = Math.log2(f.p0 / ((1 - f.p0) / weights.length));
  const top = Math.max(none, ...weights);
  const total = 2 ** (none - top) + weights.reduce((sum, w) => sum + 2 ** (w - top), 0);
  return weights.map((w) => 2 ** (w - top) / total);
}

function weightOf(f: Figures): (c: Comparison, level: string) => number {
  return (c, level) => {
    const m = f.m[c]![level];
    return m === undefined ? 0 : Math.log2(m / baseLevels(c)[level]!.u);
  };
}

/** The app's model as figures EM starts from. */
function baseFigures(): Figures {
  const m: Figures['m'] = {};
  for (const c of COMPARISONS) {
    m[c] = {};
    for (const [level, l] of Object.entries(baseLevels(c))) if (informative(c, level)) m[c][level] = l.m;
  }
  return { p0: CONFIDENCE_MODEL.notAmongCandidates.probability, m };
}

/**
 * One M step: each level's share among the pairs that are the row's person (weighted by how likely each is), the
 * app's figures counted as PRIOR_PAIRS more pairs, and how often the row's person is none of the candidates. A level
 * seen on fewer than MIN_PAIRS pairs keeps the app's m.
 */
function maximise(rows: readonly SheetRow[], posteriors: readonly number[][], seen: Record<string, Record<string, number>>): Figures {
  const base = baseFigures();
  const m: Figures['m'] = {};
  let none = 0;
  for (const c of COMPARISONS) {
    const matchSum: Record<string, number> = {};
    rows.forEach((row, r) => {
      row.levels.forEach((levels, j) => {
        const level = levels[c] as string;
        if (!informative(c, level)) return;
        matchSum[level] = (matchSum[level] ?? 0) + posteriors[r]![j]!;
      });
    });
    m[c] = redistribute(base.m[c]!, matchSum, seen[c]!);
  }
  rows.forEach((_, r) => (none += 1 - posteriors[r]!.reduce((a, b) => a + b, 0)));
  const p0 = (none + PRIOR_PAIRS * base.p0) / (rows.length + PRIOR_PAIRS);
  // Held within reason: a sheet of absent people only, or of none, still leaves room for the other.
  return { p0: Math.min(0.9, Math.max(0.05, p0)), m };
}

/**
 * A comparison's m over its levels: the app's where the sheet shows too few pairs; for the others the
 * sheet's proportions among them (with the prior), holding the mass the app gives those levels together. The app's
 * figures are not one distribution a comparison (an e-mail found by the service and one on the record are two ways
 * of seeing the same thing), so the sheet only says how the levels it shows share theirs, as Splink estimates a
 * comparison's levels beside its null level.
 */
function redistribute(base: Record<string, number>, sums: Record<string, number>, seen: Record<string, number>): Record<string, number> {
  const estimated = Object.keys(base).filter((level) => (seen[level] ?? 0) >= MIN_PAIRS);
  const mass = estimated.reduce((sum, level) => sum + base[level]!, 0);
  const total = estimated.reduce((sum, level) => sum + (sums[level] ?? 0), 0);
  const out: Record<string, number> = { ...base };
  for (const level of estimated) {
    const share = ((sums[level] ?? 0) + PRIOR_PAIRS * (base[level]! / mass)) / (total + PRIOR_PAIRS);
    out[level] = Math.min(1 - FLOOR, Math.max(FLOOR, share * mass));
  }
  return out;
}

/** The posteriors of each row's candidates under `f`: a decided row's are what the reviewer said. */
function expect(rows: readonly SheetRow[], f: Figures): number[][] {
  const weight = weightOf(f);
  return rows.map((row) => (row.label === undefined ? shares(row.levels, { p0: f.p0, weight }) : row.levels.map((_, j) => (j === row.label ? 1 : 0))));
}

/**
 * The model's figures estimated from the sheet's rows: EM from the app's figures until they settle (at most
 * MAX_ITERATIONS). `onIteration` is awaited between iterations, so a long estimate hears a cancel.
 */
export async function estimateSheetWeights(all: readonly SheetRow[], onIteration: (iteration: number) => Promise<void> = async () => undefined): Promise<SheetWeights> {
  // An e-mail or profile hit outweighs everything else a row says, so EM would take its candidate for the person
  // whatever the name, and learn that any name goes with a hit: such a row counts only when the reviewer decided it.
  const rows = all.filter((row) => row.label !== undefined || !row.levels.some(isHit));
  const seen: Record<string, Record<string, number>> = Object.fromEntries(COMPARISONS.map((c) => [c, {}]));
  for (const row of rows) for (const levels of row.levels) for (const c of COMPARISONS) seen[c]![levels[c] as string] = (seen[c]![levels[c] as string] ?? 0) + 1;
  let figures = baseFigures();
  let iterations = 0;
  while (iterations < MAX_ITERATIONS) {
    const next = maximise(rows, expect(rows, figures), seen);
    iterations++;
    const moved = Math.max(
      Math.abs(next.p0 - figures.p0),
      ...COMPARISONS.flatMap((c) => Object.keys(next.m[c]!).map((level) => Math.abs(next.m[c]![level]! - figures.m[c]![level]!))),
    );
    figures = next;
    await onIteration(iterations);
    if (moved < CONVERGED) break;
  }
  return described(figures, seen, rows, iterations);
}

function isHit(levels: Levels): boolean {
  return levels.email === 'found_by' || levels.email === 'record_same' || levels.profile === 'same';
}

const round = (x: number) => Number(x.toPrecision(3));

function described(f: Figures, seen: Record<string, Record<string, number>>, rows: readonly SheetRow[], iterations: number): SheetWeights {
  const pairs = rows.reduce((n, r) => n + r.levels.length, 0);
  const labels = rows.filter((r) => r.label !== undefined).length;
  const comparisons = Object.fromEntries(
    COMPARISONS.map((c) => [
      c,
      {
        levels: Object.fromEntries(
          Object.entries(baseLevels(c)).map(([level, base]): [string, EstimatedLevel] => {
            const n = seen[c]![level] ?? 0;
            if (!informative(c, level)) return [level, { m: 1, u: 1, pairs: n, why: base.why }];
            const m = round(f.m[c]![level]!);
            const u = base.u;
            const why =
              n < MIN_PAIRS
                ? `The app's m ${base.m} and u ${base.u}: ${n} of this sheet's pairs had it, too few to tell.`
                : `m ${base.m} -> ${m}, from the ${n} pairs of this sheet that had it; u the app's.`;
            return [level, { m, u, pairs: n, why }];
          }),
        ),
      },
    ]),
  ) as SheetWeights['comparisons'];
  return {
    why:
      `m estimated by expectation maximisation over ${rows.length} of this sheet's rows with candidates (${pairs} candidate pairs; ` +
      `a row found by an e-mail or profile hit only when decided by hand), the ${labels} rows decided by hand held at what the reviewer ` +
      `said, starting from the app's model and counting it as ${PRIOR_PAIRS} pairs more; u the app's.`,
    estimatedFrom: { rows: rows.length, pairs, labels, iterations },
    notAmongCandidates: {
      probability: round(f.p0),
      why: `How often this sheet's person is none of the candidates: ${round(f.p0)} here, ${CONFIDENCE_MODEL.notAmongCandidates.probability} in the app's model.`,
    },
    comparisons,
  };
}

/** Each candidate's share of the evidence under the sheet's figures, as evidenceShares does under the app's. */
export function sheetShares(levels: readonly Levels[], weights: SheetWeights): number[] {
  return shares(levels, {
    p0: weights.notAmongCandidates.probability,
    weight: (c, level) => {
      const l = weights.comparisons[c]?.levels[level];
      return l ? Math.log2(l.m / l.u) : 0;
    },
  });
}
