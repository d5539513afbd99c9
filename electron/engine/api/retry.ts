// How long to wait before sending a call again (service-notes: honour Retry-After, otherwise back off).
import type { Clock } from '../clock';
import { CancelledError, type ServiceError } from './errors';

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
/** A Retry-After longer than this is waited only this long: the attempt budget still bounds the call. */
export const MAX_RETRY_AFTER_MS = 120_000;

/**
 * Milliseconds to wait from `now`, read from a Retry-After header in delay-seconds or HTTP-date form
 * (RFC 9110 §10.2.3); null when absent or unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(header: string | null | undefined, now: number): number | null {
  if (header == null) return null;
  const text = header.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only a date-like value: Date.parse also accepts bare numbers such as "-5" or "12abc" in some forms.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * Exponential backoff with full jitter: a uniform wait in [0, min(cap, base * 2^(attempt-1))].
 * `attempt` counts the sends already made (1 after the first failure).
 */
export function backoffDelay(
  attempt: number,
  random: () => number,
  opts: { baseMs?: number; capMs?: number } = {},
): number {
  const base = opts.baseMs ?? BACKOFF_BASE_MS;
  const cap = opts.capMs ?? BACKOFF_CAP_MS;
  const exponent = Math.min(Math.max(0, Math.floor(attempt) - 1), 30);
  const ceiling = Math.min(cap, base * 2 ** exponent);
  const drawn = random();
  const r = Number.isFinite(drawn) ? Math.min(Math.max(drawn, 0), 1) : 0.5;
  return Math.floor(r * ceiling);
}

/** Thrown by one attempt to say "this may work if sent again": carries the error to report if it never does. */
export class RetryLater extends Error {
  constructor(
    readonly error: ServiceError,
    readonly afterMs: number | null = null,
  ) {
    super(error.message);
    this.name = 'RetryLater';
  }
}

export interface RetryContext {
  clock: Clock;
  random: () => number;
  maxAttempts: number;
  signal?: AbortSignal;
}

/**
 * Runs `attempt(1..maxAttempts)` until it returns, throws anything but RetryLater, or runs out of attempts
 * (then the last RetryLater's error is thrown). Waits between attempts on the injected clock, honouring the signal.
 */
export async function retrying<T>(ctx: RetryContext, attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    if (ctx.signal?.aborted) throw new CancelledError();
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof RetryLater)) throw err;
      if (n >= ctx.maxAttempts) throw err.error;
      const wait = err.afterMs === null ? backoffDelay(n, ctx.random) : Math.min(err.afterMs, MAX_RETRY_AFTER_MS);
      await pause(ctx.clock, wait, ctx.signal);
    }
  }
}

async function pause(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new CancelledError();
  // A zero wait skips the clock: a ManualClock would otherwise hold it until the next advance().
  if (ms <= 0) return;
  try {
    await clock.sleep(ms, signal);
  } catch (err) {
    if (signal?.aborted) throw new CancelledError();
    throw err;
  }
}
