// How far the confidences shown to a reviewer are from what happens: every candidate listed for a row of the
// labeled set, binned by its confidence, against the share of them that are the row's person. The expected
// calibration error (ECE) is the gap, weighted by the candidates in each bin, over the doubtful middle only
// (0.05 to 0.95): near 0 and 1 nearly every candidate sits, and would hide the middle's misses.
import type { EvaluationCategory } from '../../electron/simulator/evaluation-set';

/** One candidate listed for a row of the labeled set. */
export interface CandidateOutcome {
  category: EvaluationCategory;
  confidence: number;
  /** Whether the candidate is the row's true person. */
  right: boolean;
}

export interface ReliabilityBin {
  from: number;
  to: number;
  candidates: number;
  meanConfidence: number;
  shareRight: number;
}

export interface Reliability {
  /** The confidences counted: from <= confidence <= to. */
  from: number;
  to: number;
  candidates: number;
  /** Bins of 0.1 holding at least one candidate, lowest first. */
  bins: ReliabilityBin[];
  /** Sum over bins of |mean confidence - share right| x the bin's share of the candidates; null without any. */
  expectedCalibrationError: number | null;
}

export const CALIBRATION_RANGE = { from: 0.05, to: 0.95 } as const;
const BIN_WIDTH = 0.1;

export function reliability(candidates: readonly CandidateOutcome[], range: { from: number; to: number } = CALIBRATION_RANGE): Reliability {
  const sums = new Map<number, { n: number; confidence: number; right: number }>();
  for (const c of candidates) {
    if (c.confidence < range.from || c.confidence > range.to) continue;
    const bin = Math.min(Math.floor(c.confidence / BIN_WIDTH + 1e-9), Math.round(1 / BIN_WIDTH) - 1);
    const sum = sums.get(bin) ?? { n: 0, confidence: 0, right: 0 };
    sum.n++;
    sum.confidence += c.confidence;
    sum.right += c.right ? 1 : 0;
    sums.set(bin, sum);
  }
  const total = [...sums.values()].reduce((n, s) => n + s.n, 0);
  const bins = [...sums.entries()]
    .sort(([a], [b]) => a - b)
    .map(([bin, s]) => ({ from: round(bin * BIN_WIDTH), to: round((bin + 1) * BIN_WIDTH), candidates: s.n, meanConfidence: s.confidence / s.n, shareRight: s.right / s.n }));
  const gap = bins.reduce((sum, b) => sum + (Math.abs(b.meanConfidence - b.shareRight) * b.candidates) / total, 0);
  return { ...range, candidates: total, bins, expectedCalibrationError: total === 0 ? null : gap };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

export function reliabilityConsoleTable(r: Reliability): string {
  const headings = ['Confidence', 'Candidates', 'Mean confidence', 'Share right', 'Gap'];
  const rows = r.bins.map((b) => [
    `${b.from.toFixed(1)}-${b.to.toFixed(1)}`,
    String(b.candidates),
    `${(b.meanConfidence * 100).toFixed(1)}%`,
    `${(b.shareRight * 100).toFixed(1)}%`,
    `${((b.shareRight - b.meanConfidence) * 100).toFixed(1)}`,
  ]);
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const ece = r.expectedCalibrationError === null ? '-' : r.expectedCalibrationError.toFixed(3);
  return [
    line(headings),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    `Expected calibration error over the ${r.candidates} candidates shown between ${r.from} and ${r.to}: ${ece}`,
  ].join('\n');
}
