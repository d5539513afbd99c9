import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressTimer } from '../../../electron/engine/progress-pace';

describe('ProgressTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the first change at once, then at most once an interval, and the last change of a quiet stretch late', () => {
    const told: number[] = [];
    const timer = new ProgressTimer(() => told.push(performance.now()), 100);
    const start = performance.now();
    timer.soon();
    expect(told).toEqual([start]);
    vi.advanceTimersByTime(30);
    timer.soon();
    timer.soon();
    expect(told).toHaveLength(1);
    // Nothing more changes: the change at 30 ms is told once the interval is over, and once only.
    vi.advanceTimersByTime(200);
    expect(told).toEqual([start, start + 100]);
  });

  it('tells a change at once once the last word is an interval old', () => {
    const told: number[] = [];
    const timer = new ProgressTimer(() => told.push(performance.now()), 100);
    const start = performance.now();
    timer.now();
    vi.advanceTimersByTime(150);
    timer.soon();
    expect(told).toEqual([start, start + 150]);
  });

  it('drops a pending word when told now, and tells nothing after its end', () => {
    let told = 0;
    const timer = new ProgressTimer(() => told++, 100);
    timer.now();
    timer.soon();
    timer.now();
    vi.advanceTimersByTime(500);
    expect(told).toBe(2);
    timer.soon();
    timer.soon();
    expect(told).toBe(3);
    // Its end is told at once, the word pending for the second change with it.
    timer.end();
    expect(told).toBe(4);
    timer.soon();
    timer.now();
    vi.advanceTimersByTime(500);
    expect(told).toBe(4);
  });
});
