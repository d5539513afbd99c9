import { describe, expect, it } from 'vitest';
import { rowsPerPage, scrollTopToReveal, visibleRange } from '../../renderer/src/ui/visible-range';

describe('virtual list window', () => {
  it('renders only the rows in view plus a margin, even for 100,000 rows', () => {
    const range = visibleRange(360_000, 600, 36, 100_000, 8);
    expect(range.start).toBe(10_000 - 8);
    expect(range.end).toBe(10_000 + Math.ceil(600 / 36) + 1 + 8);
    expect(range.end - range.start).toBeLessThan(50);
  });

  it('clamps at both ends', () => {
    expect(visibleRange(0, 600, 36, 100_000)).toMatchObject({ start: 0 });
    expect(visibleRange(10_000_000, 600, 36, 100)).toMatchObject({ end: 100 });
    expect(visibleRange(0, 600, 36, 0)).toEqual({ start: 0, end: 0 });
    expect(visibleRange(-50, 600, 36, 5)).toEqual({ start: 0, end: 5 });
  });

  it('scrolls only as far as needed to reveal a row', () => {
    expect(scrollTopToReveal(5, 36, 0, 600)).toBeNull();
    expect(scrollTopToReveal(20, 36, 0, 600)).toBe(21 * 36 - 600);
    expect(scrollTopToReveal(2, 36, 360, 600)).toBe(72);
  });

  it('pages by a screenful less one row', () => {
    expect(rowsPerPage(600, 36)).toBe(15);
    expect(rowsPerPage(10, 36)).toBe(1);
  });
});
