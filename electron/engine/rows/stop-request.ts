import { RedirectRefusedError, ServiceError, isAbortError, isRetryableStatus } from '../api';

// Why a long run that sends batched calls (a matching run, a refresh) stops, and what a failed call means for it: both
// keep their stop and their failure streaks here, so they stop for the same reasons, the same way.

/** Why a run (a matching run, a refresh) is asked to stop, and the words to show for it. */
export type StopReason = 'paused' | 'failed' | 'out_of_credits' | 'cancelled';
export interface StopRequest<S extends StopReason = StopReason> {
  status: S;
  message: string | null;
  /**
   * The kind of service failure that stops the run (api/errors.ts ServiceErrorKind: `unauthorized`, `forbidden`,
   * `network_error`, ...), when one does: a host tells refused credentials from an unreachable service by it.
   */
  kind?: string;
}

/** How long a pause lets calls in flight land before abandoning them: a reply that trickles in must not hold it. */
export const PAUSE_GRACE_MS = 1_000;

/** A stronger reason to stop wins: cancelling beats running out of credits beats a failure beats a pause. */
const STOP_WEIGHT: Record<StopReason, number> = { paused: 1, failed: 2, out_of_credits: 3, cancelled: 4 };

/** The stop that stands once `next` is asked for while `current` stands. */
function strongerStop<S extends StopReason>(current: StopRequest<S> | null, next: StopRequest<S>): StopRequest<S> {
  return !current || STOP_WEIGHT[next.status] > STOP_WEIGHT[current.status] ? next : current;
}

/** Waits for a stopping run to settle, giving its calls in flight `graceMs` to land before they are abandoned. */
async function settleWithin<T>(settled: Promise<T>, graceMs: number, abort: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const first = await Promise.race([settled, late]);
  clearTimeout(timer);
  if (first === 'late') abort.abort();
  return settled;
}

/**
 * A run's stop: the strongest reason asked for while it runs (strongerStop), and the signal its calls are sent with,
 * aborted at once by a cancel, or once a pause's grace is over.
 */
export class RunStop<S extends StopReason> {
  private asked: StopRequest<S> | null = null;
  private readonly abort = new AbortController();

  /** `running`: whether the run still runs; a stop asked after its end is not kept. */
  constructor(private readonly running: () => boolean) {}

  /** The stop asked for, null while the run goes on. */
  get request(): StopRequest<S> | null {
    return this.asked;
  }

  /** What the run's calls are sent with: aborted, they are abandoned. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** The stop a failed call asked for (CallFailures). */
  askFor(stop: StopRequest<S>): void {
    this.ask(stop.status, stop.message, stop.kind);
  }

  ask(status: S, message: string | null, kind?: string): void {
    if (!this.running()) return;
    this.asked = strongerStop(this.asked, { status, message, ...(kind === undefined ? {} : { kind }) });
    if (status === 'cancelled') this.abort.abort();
  }

  /** `settled`, once the calls in flight landed or, after `graceMs`, were abandoned. */
  within<T>(settled: Promise<T>, graceMs: number): Promise<T> {
    return settleWithin(settled, graceMs, this.abort);
  }
}

/** Failures that will fail every call the same way: marking each query as failed would only hide the cause. */
const FATAL_KINDS = new Set(['login_failed', 'unauthorized', 'forbidden', 'not_found']);
/** Calls in a row that could not reach the service before the run gives up for now. */
const NETWORK_FAILURES_TO_STOP = 3;
/** Calls in a row refused a token (or a login) for a passing reason before the run gives up for now. */
const AUTH_FAILURES_TO_STOP = 5;

/**
 * What a failed call means for its run:
 * - `abandoned`: the run abandoned it (a cancel, a pause's grace over): its queries stay waiting;
 * - `passing`: a token revoked between the client's fresh login and its one retry, or a login the service failed
 *   (5xx): the queries were not answered and wait for the next round; `stop` when a streak of them says to stop, and
 *   `turnedAway` the stop it would be (for a run whose every call was turned away so);
 * - `stop`: a failure every call would meet (out of credits, refused credentials): the run stops, the call's queries
 *   stay waiting;
 * - `failed`: this call's queries failed (`message` says why); `stop` when it is the last of a streak of calls that
 *   could not reach the service, after which the run stops until the connection is back.
 */
export type FailedCall =
  | { kind: 'abandoned' }
  | { kind: 'passing'; stop: StopRequest<'failed'> | null; turnedAway: StopRequest<'failed'> }
  | { kind: 'stop'; stop: StopRequest<'failed' | 'out_of_credits'> }
  | { kind: 'failed'; message: string; stop: StopRequest<'failed'> | null };

/** A run's streaks of failed calls, and what each failure means for it (FailedCall). */
export class CallFailures {
  private networkInARow = 0;
  private authInARow = 0;

  /** `work`: what the run is called in its messages ("The refresh stopped after ..."). */
  constructor(private readonly work: 'run' | 'refresh') {}

  /** A call was answered: the streaks are over. */
  answered(): void {
    this.networkInARow = 0;
    this.authInARow = 0;
  }

  /** What the call's `error` means; `aborted`: the run's calls were abandoned (RunStop.signal). */
  failed(error: unknown, aborted: boolean): FailedCall {
    const kind = error instanceof ServiceError ? error.kind : null;
    if (kind === 'cancelled' || (aborted && isAbortError(error))) return { kind: 'abandoned' };
    const message = error instanceof Error ? error.message : String(error);
    if (kind === 'payment_required') return { kind: 'stop', stop: { status: 'out_of_credits', message, kind } };
    if (isPassingAuthFailure(error)) {
      // A login the service failed (5xx) is the service failing, not the credentials refused.
      const stop = { status: 'failed' as const, message, kind: kind === 'login_failed' ? 'server_error' : kind! };
      return { kind: 'passing', stop: ++this.authInARow >= AUTH_FAILURES_TO_STOP ? stop : null, turnedAway: stop };
    }
    // A refused redirect: every call goes to the same address.
    if ((kind !== null && FATAL_KINDS.has(kind)) || error instanceof RedirectRefusedError) return { kind: 'stop', stop: { status: 'failed', message, kind: kind! } };
    if (kind !== 'network_error' || ++this.networkInARow < NETWORK_FAILURES_TO_STOP) return { kind: 'failed', message, stop: null };
    const outOfReach = `${message} The ${this.work} stopped after ${NETWORK_FAILURES_TO_STOP} calls in a row failed to reach the service; resume once the connection is back.`;
    return { kind: 'failed', message, stop: { status: 'failed', message: outOfReach, kind } };
  }
}

function isPassingAuthFailure(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  if (error.kind === 'unauthorized') return true;
  return error.kind === 'login_failed' && error.status !== undefined && isRetryableStatus(error.status);
}
