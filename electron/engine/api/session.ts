import type { Clock } from '../clock';
import type { Credentials } from './credentials';
import { CancelledError, LoginFailedError, MalformedReplyError, NetworkError, isRetryableStatus } from './errors';
import { FALLBACK_TOKEN_LIFETIME_MS, parseExpiry } from './expiry';
import type { Redactor } from './redactor';
import { replyDetail } from './reply-detail';
import { MAX_LOGIN_REPLY_BYTES } from './reply-limits';
import { CallBudget, RetryLater, parseRetryAfter, retrying } from './retry';
import { NetworkFailure, exchange, type HttpReply } from './transport';

export interface SessionOptions {
  credentials: Credentials;
  /** Full URL of POST /api/identity/v1/session. */
  sessionUrl: string;
  host: string;
  fetch: typeof fetch;
  clock: Clock;
  random: () => number;
  maxAttempts: number;
  timeoutMs: number;
  firstByteTimeoutMs: number;
  callBudgetMs: number;
  refreshMarginMs: number;
  redactor: Redactor;
}

/** The login in flight, and how many calls wait on it. */
interface PendingLogin {
  token: Promise<string>;
  waiting: number;
  stop: AbortController;
}

/**
 * The access token of one client. Fixes the reference client's bugs with sessions: one login
 * in flight however many calls wait, a failed login rejects every waiter and leaves nothing stuck, and a token
 * rejected with 401 is replaced once for all the calls that saw it.
 */
export class Session {
  private token: string | null = null;
  private expiresAt = 0;
  private pending: PendingLogin | null = null;
  private logins = 0;

  constructor(private readonly opts: SessionOptions) {
    if (opts.credentials.kind === 'api_key') opts.redactor.add(opts.credentials.apiKey);
    if (opts.credentials.kind === 'service_account') opts.redactor.add(opts.credentials.clientSecret);
    if (opts.credentials.kind === 'password') opts.redactor.add(opts.credentials.password);
  }

  get usesApiKey(): boolean {
    return this.opts.credentials.kind === 'api_key';
  }

  get loginCount(): number {
    return this.logins;
  }

  /** A token good for at least refreshMarginMs more, logging in (or joining the login in flight) when needed. */
  async current(signal?: AbortSignal): Promise<string> {
    const { credentials, clock, refreshMarginMs } = this.opts;
    if (credentials.kind === 'api_key') return credentials.apiKey;
    if (this.token !== null && clock.now() < this.expiresAt - refreshMarginMs) return this.token;
    return this.join(signal);
  }

  /** After a 401 with `stale`: the first caller drops it and logs in; the others get that same new token. */
  async replace(stale: string, signal?: AbortSignal): Promise<string> {
    if (this.token === stale) this.token = null;
    return this.current(signal);
  }

  /** Logs in now, whatever token is held (or joins a login already in flight). */
  async loginNow(signal?: AbortSignal): Promise<void> {
    if (this.usesApiKey) return;
    if (!this.pending) this.token = null;
    await this.join(signal);
  }

  private join(signal?: AbortSignal): Promise<string> {
    let login = this.pending;
    // A login abandoned by every waiter is on its way out: a new waiter starts its own.
    if (!login || login.stop.signal.aborted) {
      const stop = new AbortController();
      const started: PendingLogin = { token: Promise.resolve(''), waiting: 0, stop };
      started.token = this.login(stop.signal).finally(() => {
        if (this.pending === started) this.pending = null;
      });
      // Every waiter may have gone (aborted): the outcome must not surface as an unhandled rejection.
      started.token.catch(() => {});
      this.pending = login = started;
    }
    const joined = login;
    joined.waiting++;
    // The login is no one caller's: it is abandoned only once every call waiting on it has been cancelled, so a
    // login reply that trickles in does not outlive the run that asked for it.
    return untilAborted(joined.token, signal, () => {
      if (--joined.waiting === 0) joined.stop.abort();
    });
  }

  private async login(signal: AbortSignal): Promise<string> {
    const { clock, random, maxAttempts, callBudgetMs } = this.opts;
    const budget = new CallBudget(clock, callBudgetMs);
    const { token, expiresAt } = await retrying({ clock, random, maxAttempts, budget, signal }, (attempt) => {
      budget.sent();
      return this.attemptLogin(attempt, signal);
    });
    this.opts.redactor.add(token);
    this.token = token;
    this.expiresAt = expiresAt;
    return token;
  }

  private async attemptLogin(attempt: number, signal: AbortSignal): Promise<{ token: string; expiresAt: number }> {
    const { credentials, fetch, timeoutMs, firstByteTimeoutMs, clock, host, redactor } = this.opts;
    let reply: HttpReply;
    try {
      this.logins++;
      const limits = { what: 'login reply', firstByteMs: firstByteTimeoutMs, replyMs: timeoutMs, maxBytes: MAX_LOGIN_REPLY_BYTES };
      reply = await exchange(fetch, this.opts.sessionUrl, loginRequest(credentials), limits, signal);
    } catch (err) {
      if (err instanceof NetworkFailure) throw new RetryLater(new NetworkError(host, err.reason, attempt, err));
      throw err;
    }
    const text = redactor.apply(reply.looseText);
    if (reply.status !== 200) {
      const failure = new LoginFailedError(reply.status, text, replyDetail(text), loginHint(credentials.kind, reply.status));
      if (isRetryableStatus(reply.status)) throw new RetryLater(failure, parseRetryAfter(reply.headers.get('retry-after'), clock.now()));
      throw failure;
    }
    const json = reply.text;
    let body: unknown;
    try {
      body = JSON.parse(json);
    } catch {
      throw new RetryLater(new MalformedReplyError('the login reply is not valid JSON', { transient: true, body: text }));
    }
    const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const token = [record.accessToken, record.access_token].find((t): t is string => typeof t === 'string' && t !== '');
    if (!token) throw new MalformedReplyError('the login reply holds no access token (neither accessToken nor access_token)');
    const now = clock.now();
    const expiresAt = parseExpiry(body, now);
    // An expiry already past on a token just issued is a zone or clock mismatch, not the truth: assume the short
    // lifetime rather than log in before every call; a 401 still catches a token that dies sooner.
    return { token, expiresAt: expiresAt > now ? expiresAt : now + FALLBACK_TOKEN_LIFETIME_MS };
  }
}

function loginRequest(credentials: Credentials): { method: string; headers: Record<string, string>; body: string } {
  if (credentials.kind === 'service_account') {
    return {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ grantType: 'clientCredentials', clientId: credentials.clientId, clientSecret: credentials.clientSecret }),
    };
  }
  if (credentials.kind === 'password') {
    return {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ username: credentials.username, password: credentials.password }).toString(),
    };
  }
  throw new Error('An API key needs no login.');
}

function loginHint(kind: Credentials['kind'], status: number): string {
  if (status >= 500 || status === 429) return 'The service could not log in right now; try again in a few minutes.';
  if (kind === 'service_account') {
    return 'Check the client id and client secret of this profile (the secret is shown only once, when the service account is created).';
  }
  return 'Check the username and password of this profile.';
}

/** `promise`, or CancelledError as soon as `signal` aborts (then `left` is called). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, left: () => void): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    left();
    return Promise.reject(new CancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      left();
      reject(new CancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
