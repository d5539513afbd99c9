// Calibration: the isotonic fit on observations counted by eye, the map between and beyond its blocks, and the
// maps the app ships (calibration.ts): rising, within [0, 1], fitted on a seed of their own.
import { describe, expect, it } from 'vitest';
import { ROW_KINDS, applyMap, calibrated, fitMap, type CalibrationMap, type Observation } from '../../../electron/engine/matching/calibrate';
import { CALIBRATION } from '../../../electron/engine/matching/calibration';
import { CONFIDENCE_MODEL } from '../../../electron/engine/matching';
import { DEFAULT_EVALUATION } from '../../../bench/quality/run-evaluation';

const at = (share: number, right: boolean, times = 1): Observation[] => Array.from({ length: times }, () => ({ share, right }));
const GRID = Array.from({ length: 1001 }, (_, i) => i / 1000);

function expectRising(map: CalibrationMap): void {
  const values = GRID.map((s) => applyMap(map, s));
  for (const [i, v] of values.entries()) {
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(1);
    if (i > 0) expect(v, `at ${GRID[i]}`).toBeGreaterThanOrEqual(values[i - 1]!);
  }
  for (const [i, [low, high, p]] of map.blocks.entries()) {
    expect(low).toBeLessThanOrEqual(high);
    if (i > 0) expect(low).toBeGreaterThan(map.blocks[i - 1]![1]);
    if (i > 0) expect(p).toBeGreaterThanOrEqual(map.blocks[i - 1]![2]);
  }
}

describe('fitMap', () => {
  it('pools the shares that break the order and gives each block (right + 1) / (n + 2)', () => {
    // 0.2 is right less often than 0.1: one block of 40 (10 right); 0.9: 30 of 30 right.
    const map = fitMap([...at(0.1, true, 8), ...at(0.1, false, 12), ...at(0.2, true, 2), ...at(0.2, false, 18), ...at(0.9, true, 30)]);
    expect(map).toEqual({ candidates: 70, blocks: [[0.1, 0.2, 0.2619], [0.9, 0.9, 0.9688]], allRightFrom: 0.9 });
  });

  it('keeps a share above the last block\'s probability only where every candidate of that block was right', () => {
    const allRight = fitMap([...at(0.1, false, 30), ...at(0.95, true, 20), ...at(0.999, true, 20)]);
    expect(allRight.allRightFrom).toBe(0.95);
    expect(applyMap(allRight, 0.95)).toBeCloseTo(41 / 42, 4);
    expect(applyMap(allRight, 0.999)).toBe(0.999);
    const oneWrong = fitMap([...at(0.1, false, 30), ...at(0.95, true, 19), ...at(0.999, true, 20), ...at(0.999, false, 1)]);
    expect(oneWrong.allRightFrom).toBeNull();
    expect(applyMap(oneWrong, 0.999)).toBe(applyMap(oneWrong, 0.95));
    expectRising(allRight);
  });

  it('pools a block of fewer candidates than the least with its neighbour', () => {
    const map = fitMap([...at(0.1, false, 30), ...at(0.5, true, 3), ...at(0.6, true, 30)], 20);
    expect(map.blocks.map(([low, high]) => [low, high])).toEqual([[0.1, 0.1], [0.5, 0.6]]);
  });

  it('is rising and within [0, 1] on noisy observations, never quite 0 or 1', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const observations = Array.from({ length: 3000 }, () => {
      const share = random();
      return { share, right: random() < share ** 2 };
    });
    const map = fitMap(observations);
    expectRising(map);
    expect(map.blocks[0]![2]).toBeGreaterThan(0);
    expect(map.blocks[map.blocks.length - 1]![2]).toBeLessThan(1);
  });
});

describe('applyMap', () => {
  const map: CalibrationMap = { candidates: 100, blocks: [[0.1, 0.2, 0.05], [0.6, 0.9, 0.8]], allRightFrom: null };

  it('gives a block\'s probability across it, and the last one\'s beyond it', () => {
    expect(applyMap(map, 0.15)).toBe(0.05);
    expect(applyMap(map, 0.6)).toBe(0.8);
    expect(applyMap(map, 0.95)).toBe(0.8);
  });

  it('where the set had no candidate, gives the raw share held between the blocks around it', () => {
    expect(applyMap(map, 0.5)).toBe(0.5);
    expect(applyMap(map, 0.03)).toBe(0.03);
    expect(applyMap({ candidates: 100, blocks: [[0.1, 0.2, 0.3], [0.6, 0.9, 0.4]], allRightFrom: null }, 0.5)).toBe(0.4);
    expect(applyMap({ candidates: 100, blocks: [[0.1, 0.2, 0.3], [0.6, 0.9, 0.4]], allRightFrom: null }, 0.25)).toBe(0.3);
  });

  it('leaves the share as it is without blocks', () => {
    expect(applyMap({ candidates: 0, blocks: [], allRightFrom: null }, 0.42)).toBe(0.42);
  });
});

describe('the shipped calibration', () => {
  it('is part of the model, and every map is rising and within [0, 1]', () => {
    expect(CONFIDENCE_MODEL.calibration).toBe(CALIBRATION);
    for (const map of Object.values(CALIBRATION.maps)) expectRising(map!);
    for (const kind of ROW_KINDS) for (const share of GRID) expect(calibrated(CALIBRATION, kind, share)).toBeGreaterThanOrEqual(0);
  });

  it('has a map for clear rows and twins; a guarded kind without one claims no more than its share nor every guarded row\'s map', () => {
    expect(CALIBRATION.maps.clear?.candidates).toBeGreaterThan(1000);
    expect(CALIBRATION.maps.twins?.candidates).toBeGreaterThan(100);
    for (const kind of ROW_KINDS.filter((k) => k !== 'clear' && !CALIBRATION.maps[k])) {
      for (const share of [0.1, 0.5, 0.99]) expect(calibrated(CALIBRATION, kind, share)).toBe(Math.min(share, applyMap(CALIBRATION.maps.guarded, share)));
    }
  });

  it('was fitted on a seed that npm run eval and the tests hold out', () => {
    expect([DEFAULT_EVALUATION.seed, 5, 11]).not.toContain(CALIBRATION.fittedOn.seed);
  });
});
