// How long to wait before sending a call again: honour the service's Retry-After, otherwise back off.
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
  /** No attempt starts later than this long after the first one was sent (see CallBudget); none when absent. */
  budget?: CallBudget;
  signal?: AbortSignal;
}

/**
 * The time one call may spend on its attempts, counted from its first send (a call waiting for a place in the
 * limiter has not begun). An attempt is bounded by its own deadlines, so a call ends at most that long after this.
 */
export class CallBudget {
  private since: number | null = null;

  constructor(
    private readonly clock: Clock,
    readonly ms: number,
  ) {}

  /** Marks a send: the first one starts the budget. */
  sent(): void {
    this.since ??= this.clock.now();
  }

  /** Whether a wait of `ms` still ends within the budget. */
  allows(ms: number): boolean {
    return this.since === null || this.clock.now() - this.since + ms < this.ms;
  }
}

/**
 * Runs `attempt(1..maxAttempts)` until it returns, throws anything but RetryLater, or runs out of attempts or of
 * its budget (then the last RetryLater's error is thrown, the budget said in its message). Waits between attempts on
 * the injected clock, honouring the signal.
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
      if (ctx.budget && !ctx.budget.allows(wait)) throw outOfTime(err.error, n, ctx.budget.ms, err.afterMs);
      await pause(ctx.clock, wait, ctx.signal);
    }
  }
}

/**
 * The last attempt's error, saying that the call was not sent again because its time was up, and how long the
 * service asked to wait (`askedMs`, its Retry-After), when it asked.
 */
function outOfTime(error: ServiceError, attempts: number, budgetMs: number, askedMs: number | null): ServiceError {
  const asked = askedMs === null ? '' : `the service asked to wait ${formatWait(askedMs)} before the next, and `;
  const note = `Matchdesk stopped after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${asked}a call is not sent again once ${formatDuration(budgetMs)} have passed since it was first sent.`;
  error.message = `${error.message} ${note}`;
  return error;
}

/** A wait the service asked for, rounded up: "70 s" below 2 min, then "3 min", "5 h", "365 days". */
function formatWait(ms: number): string {
  if (!Number.isFinite(ms)) return 'for ever';
  if (ms < 120_000) return `${Math.ceil(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.ceil(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.ceil(ms / 3_600_000)} h`;
  return `${Math.ceil(ms / 86_400_000).toLocaleString('en-US')} days`;
}

function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
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
