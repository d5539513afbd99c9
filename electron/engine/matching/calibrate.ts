// Turns the model's raw share of the evidence into the probability that a candidate is the row's person, by the
// isotonic maps of calibration.ts; and fits those maps (`npm run calibrate`). Pure: no I/O.

/**
 * One map, isotonic as fitted: from share `low` to `high` a block's probability; between two blocks, where the
 * labeled set had no candidate, the raw share itself held between their probabilities; flat beyond the last.
 */
export interface CalibrationMap {
  /** Candidates the map was fitted on. */
  candidates: number;
  /** [low share, high share, probability], rising in all three. */
  blocks: readonly (readonly [number, number, number])[];
  /**
   * Where the last block starts when every candidate in it was right (null otherwise): there the set only says
   * such candidates are right at least that often, so a higher share is kept (an e-mail hit above a name + company).
   */
  allRightFrom: number | null;
}

/** The probability a map gives a raw share. */
export function applyMap(map: CalibrationMap, share: number): number {
  const value = blockValue(map, share);
  return map.allRightFrom !== null && share >= map.allRightFrom ? Math.max(value, share) : value;
}

function blockValue(map: CalibrationMap, share: number): number {
  let below = 0;
  for (const [low, high, probability] of map.blocks) {
    if (share < low) return Math.min(Math.max(share, below), probability);
    if (share <= high) return probability;
    below = probability;
  }
  return map.blocks.length === 0 ? share : below;
}

/** A candidate of the labeled set: its raw share and whether it is the row's person. */
export interface Observation {
  share: number;
  right: boolean;
}

interface Block {
  n: number;
  right: number;
  low: number;
  high: number;
}

/**
 * Isotonic regression (pool adjacent violators) of being right on the raw share. Blocks of fewer than `minBlock`
 * candidates are pooled with a neighbour, so no block stands on a handful of rows; each block's probability is
 * (right + 1) / (n + 2), never quite 0 or 1, however many rows agreed.
 */
export function fitMap(observations: readonly Observation[], minBlock = 20): CalibrationMap {
  const sorted = [...observations].sort((a, b) => a.share - b.share);
  const blocks: Block[] = [];
  for (const o of sorted) {
    const last = blocks[blocks.length - 1];
    // Equal shares are one point: the map cannot tell them apart.
    if (last && last.high === o.share) {
      last.n++;
      if (o.right) last.right++;
    } else blocks.push({ n: 1, right: o.right ? 1 : 0, low: o.share, high: o.share });
    while (blocks.length > 1 && rate(blocks[blocks.length - 2]!) >= rate(blocks[blocks.length - 1]!)) merge(blocks, blocks.length - 2);
  }
  for (let i = 0; i < blocks.length && blocks.length > 1; ) {
    if (blocks[i]!.n >= minBlock) i++;
    else merge(blocks, i === blocks.length - 1 ? i - 1 : i);
  }
  // Shares are written to four decimals: blocks that would touch there are one block.
  for (let i = 1; i < blocks.length; ) {
    if (round(blocks[i]!.low) <= round(blocks[i - 1]!.high)) merge(blocks, i - 1);
    else i++;
  }
  let floor = 0;
  const fitted = blocks.map((b) => {
    floor = Math.max(floor, round((b.right + 1) / (b.n + 2)));
    return [round(b.low), round(b.high), floor] as const;
  });
  const last = blocks[blocks.length - 1];
  return { candidates: observations.length, blocks: fitted, allRightFrom: last && last.right === last.n ? round(last.low) : null };
}

function rate(b: Block): number {
  return b.right / b.n;
}

/** Pools blocks i and i + 1. */
function merge(blocks: Block[], i: number): void {
  const [a, b] = [blocks[i]!, blocks[i + 1]!];
  blocks.splice(i, 2, { n: a.n + b.n, right: a.right + b.right, low: a.low, high: b.high });
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * What a row is, for calibration: clear (nothing stops it being accepted alone) or the guard that stops it
 * (assess-row.ts). Each has its own map: a twin and a clear match with the same share of the evidence turn out
 * differently.
 */
export const ROW_KINDS = [
  'clear', 'twins', 'not_at_company', 'near_name', 'no_such_name', 'no_company', 'no_name', 'hit_other_name', 'hit_family_name', 'several_hits',
] as const;
export type RowKind = (typeof ROW_KINDS)[number];

export interface Calibration {
  why: string;
  /** The labeled set the maps were fitted on: a seed `npm run eval` does not use by default, so it is held out. */
  fittedOn: { seed: number; people: number; rowsPerCategory: number };
  /** A kind with too few candidates in the labeled set to fit its own map leans on `guarded`, every guarded row's. */
  maps: Partial<Record<RowKind, CalibrationMap>> & { guarded: CalibrationMap };
}

/**
 * The probability a candidate of a row of this kind is the row's person, from its raw share. A guarded kind the
 * labeled set holds too few of to have its own map claims no more than its share nor than every guarded row's map.
 */
export function calibrated(calibration: Calibration, kind: RowKind, share: number): number {
  const own = calibration.maps[kind];
  if (own) return applyMap(own, share);
  return kind === 'clear' ? share : Math.min(share, applyMap(calibration.maps.guarded, share));
}
