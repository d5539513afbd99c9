import { describe, expect, it } from 'vitest';
import { columnLetter, formatBytes, formatConfidence, formatDuration, formatEstimate, formatRate, formatScore, formatThreshold, percent, plural } from '../../renderer/src/ui/format';

describe('format', () => {
  it('says durations roughly', () => {
    expect(formatDuration(null)).toBe('unknown');
    expect(formatDuration(0.2)).toBe('under a second');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(150)).toBe('3 min');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(4800)).toBe('1 h 20 min');
    expect(formatDuration(Number.NaN)).toBe('unknown');
  });

  it("says a preview's estimate as a figure from five seconds on", () => {
    expect(formatEstimate(0)).toBe('a few seconds');
    expect(formatEstimate(4)).toBe('a few seconds');
    expect(formatEstimate(5)).toBe('about 5 s');
    expect(formatEstimate(44)).toBe('about 44 s');
    expect(formatEstimate(2241)).toBe('about 37 min');
  });

  it('never shows 100% before the work is done', () => {
    expect(percent(999, 1000)).toBe(99);
    expect(percent(1000, 1000)).toBe(100);
    expect(percent(5, 0)).toBe(0);
    expect(percent(1, 3)).toBe(33);
  });

  it('pluralises with thousands separators', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(2400, 'row')).toBe('2,400 rows');
    expect(plural(2, 'row has', 'rows have')).toBe('2 rows have');
  });

  it('shows "rank only" when the service sent no score', () => {
    expect(formatScore(null)).toBe('rank only');
    // A confidence never reads 100% unless it is certain; a threshold reads as set.
    expect(formatConfidence(0.99999)).toBe('99%');
    expect(formatConfidence(1)).toBe('100%');
    expect(formatConfidence(0.954)).toBe('95%');
    expect(formatConfidence(null)).toBe('');
    expect(formatThreshold(0.9999)).toBe('99.99%');
    expect(formatThreshold(0.95)).toBe('95%');
    expect(formatScore(0.923)).toBe('0.92');
    expect(formatScore(12.345)).toBe('12.35');
  });

  it('formats rates and sizes', () => {
    expect(formatRate(0)).toBe('0/s');
    expect(formatRate(3.14)).toBe('3.1/s');
    expect(formatRate(120)).toBe('120/s');
    expect(formatBytes(500)).toBe('500 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
  });

  it('names columns like a spreadsheet', () => {
    expect(columnLetter(0)).toBe('A');
    expect(columnLetter(25)).toBe('Z');
    expect(columnLetter(26)).toBe('AA');
    expect(columnLetter(701)).toBe('ZZ');
    expect(columnLetter(702)).toBe('AAA');
  });
});
