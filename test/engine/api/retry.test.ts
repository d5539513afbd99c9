import { describe, expect, it } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelay, parseRetryAfter } from '../../../electron/engine/api';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
  });

  it('reads an HTTP-date as the time left until it', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
  });

  it('treats an HTTP-date in the past as no wait', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it.each([[null], [undefined], [''], ['soon'], ['-5'], ['12abc'], ['Fri, 99 Foo 2026']])('returns null for %j', (header) => {
    expect(parseRetryAfter(header, now)).toBeNull();
  });
});

describe('backoffDelay', () => {
  it('is zero when the jitter draws zero', () => {
    expect(backoffDelay(1, () => 0)).toBe(0);
    expect(backoffDelay(10, () => 0)).toBe(0);
  });

  it('doubles its ceiling per attempt from the base', () => {
    expect(backoffDelay(1, () => 1)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(2, () => 1)).toBe(BACKOFF_BASE_MS * 2);
    expect(backoffDelay(3, () => 1)).toBe(BACKOFF_BASE_MS * 4);
  });

  it('never exceeds the cap, however many attempts', () => {
    expect(backoffDelay(50, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(10_000, () => 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
  });

  it('stays within [0, ceiling] for any jitter draw, even a bad random source', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
      for (const r of [0, 0.1, 0.5, 0.999, 1, -3, 7, Number.NaN]) {
        const delay = backoffDelay(attempt, () => r);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('spreads waits across the whole range (full jitter)', () => {
    expect(backoffDelay(4, () => 0.5)).toBe(Math.floor(0.5 * BACKOFF_BASE_MS * 8));
  });

  it('takes its own base and cap', () => {
    expect(backoffDelay(3, () => 1, { baseMs: 10, capMs: 25 })).toBe(25);
    expect(backoffDelay(2, () => 1, { baseMs: 10, capMs: 25 })).toBe(20);
  });
});
