// The reliability table and the calibration error on hand-made candidates, where every figure can be counted by eye.
import { describe, expect, it } from 'vitest';
import { reliability, reliabilityConsoleTable, type CandidateOutcome } from '../../bench/quality/reliability';

const at = (confidence: number, right: boolean): CandidateOutcome => ({ category: 'twins', confidence, right });

describe('reliability', () => {
  it('bins the candidates between 0.05 and 0.95 by 0.1 and weighs each bin\'s gap by its count', () => {
    const r = reliability([
      // 0.3-0.4: four shown at 0.3, one right: 25% against 30%.
      at(0.3, true), at(0.3, false), at(0.3, false), at(0.3, false),
      // 0.5-0.6: two at 0.5, both right: 100% against 50%.
      at(0.5, true), at(0.5, true),
      // Outside the doubtful middle: not counted.
      at(0.01, false), at(0.99, true), at(0.96, false),
    ]);
    expect(r.candidates).toBe(6);
    expect(r.bins.map((b) => [b.from, b.to, b.candidates])).toEqual([[0.3, 0.4, 4], [0.5, 0.6, 2]]);
    expect(r.bins[0]!.meanConfidence).toBeCloseTo(0.3);
    expect(r.bins[0]!.shareRight).toBe(0.25);
    expect(r.bins[1]!.shareRight).toBe(1);
    expect(r.expectedCalibrationError).toBeCloseTo((4 / 6) * 0.05 + (2 / 6) * 0.5);
    expect(reliabilityConsoleTable(r)).toMatch(/over the 6 candidates shown between 0.05 and 0.95: 0.200/);
  });

  it('puts the range\'s ends in its first and last bins, and says when nothing was in it', () => {
    expect(reliability([at(0.05, false), at(0.95, true)]).bins.map((b) => b.from)).toEqual([0, 0.9]);
    expect(reliability([at(0.01, false)])).toMatchObject({ candidates: 0, bins: [], expectedCalibrationError: null });
  });
});
