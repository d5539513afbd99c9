import type { Candidate, FindQuery, PersonJson } from '../../../shared/model';
import { systemClock, type Clock } from '../clock';
import type { FindFields } from '../store/query-text';
import type { Credentials } from './credentials';
import {
  BadRequestError,
  CancelledError,
  ForbiddenError,
  MalformedReplyError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  isRetryableStatus,
} from './errors';
import { parseFindReply } from './find-reply';
import { Limiter } from './limiter';
import { Redactor } from './redactor';
import { replyDetail } from './reply-detail';
import { replyBytesJson } from './reply-ascii';
import { ReplyNotJson, replyJson } from './reply-json';
import { MAX_PEOPLE_REPLY_BYTES, checkReplyValues } from './reply-limits';
import { CallBudget, RetryLater, parseRetryAfter, retrying } from './retry';
import { parseSearchReply, type SearchReplyPage } from './search-reply';
import { Session } from './session';
import { KeptConnections, NetworkFailure, exchange, keptExchange, type ExchangeLimits, type HttpReply, type ReplyBody, type ReplyHeaders } from './transport';

/** Spec §4.2 and §8: a find call carries 1 to 100 queries. */
export const MAX_QUERIES_PER_FIND = 100;
export const DEFAULT_SEARCH_PAGE_SIZE = 100;
export const DEFAULT_MAX_SEARCH_PAGES = 10_000;
const ORGANIZATION_CHECK = JSON.stringify({
  filters: [{ field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['matchdesk-connection-check'] }],
  size: 0,
});

/**
 * Find queries as their terms' text (store/query-text.ts storedQueryFields): a matching run sends its queries so,
 * written from `queries`' stored texts, never made into objects.
 */
export interface QueryFieldTexts {
  fields: readonly FindFields[];
}

export interface CreditsReport {
  used: number | null;
  remaining: number | null;
}

export interface ServiceClientOptions {
  baseUrl: string;
  orgId: string;
  credentials: Credentials;
  /** Calls are sent with this fetch when given; else on kept node:http(s) connections (transport.ts keptExchange). */
  fetch?: typeof fetch;
  clock?: Clock;
  /** Limiter shared by all calls of this client (default 4). */
  concurrency?: number;
  /** Sends per call, default 5. The one resend after a 401 and a fresh login does not count against it. */
  maxAttempts?: number;
  /** Per HTTP request, the whole reply (headers and body), default 60 s: a body that trickles in is cut off then. */
  timeoutMs?: number;
  /** Per HTTP request, the status line and headers (the connection included), default 30 s. */
  firstByteTimeoutMs?: number;
  /** All attempts of one call: none is sent after this long since the first (default 2 min). */
  callBudgetMs?: number;
  /** The most bytes a find or search reply may hold (default MAX_PEOPLE_REPLY_BYTES). */
  maxReplyBytes?: number;
  /** Log in again when fewer than this remain (default 25 s, the spec's reference client). */
  refreshMarginMs?: number;
  /** Jitter source for backoff (default Math.random). */
  random?: () => number;
  /** Called with the X-LDT-Credits-* headers of every people reply that carries them. */
  onCredits?: (credits: CreditsReport) => void;
}

export interface SearchPage {
  people: PersonJson[];
  /** The service's total for the criteria, when it sends one. */
  count: number | null;
  /** 1-based. */
  page: number;
  /** The token this page named for the next one (null on the last). */
  token: string | null;
}

export interface SearchRequest {
  filters: unknown[];
}

/** The People Data Service, seen from the engine: find, search and login, with retries and a shared limiter. */
export class ServiceClient {
  private readonly base: string;
  private readonly host: string;
  private readonly orgId: string;
  private readonly fetchImpl: typeof fetch;
  /** Where calls go on kept node:http(s) connections (transport.ts keptExchange); null when given a fetch to call by. */
  private readonly connections: KeptConnections | null;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly firstByteTimeoutMs: number;
  private readonly callBudgetMs: number;
  private readonly maxReplyBytes: number;
  private readonly onCredits?: (credits: CreditsReport) => void;
  private readonly limiter: Limiter;
  private readonly redactor = new Redactor();
  private readonly session: Session;
  /** The service and organization asked, as the client was given them (rows/service-scope.ts ServiceScope). */
  readonly scope: { baseUrl: string; orgId: string };

  constructor(opts: ServiceClientOptions) {
    this.scope = { baseUrl: opts.baseUrl, orgId: opts.orgId };
    this.base = opts.baseUrl.trim().replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(this.base);
    } catch {
      throw new TypeError(`"${opts.baseUrl}" is not a web address. Enter the service's base URL, for example https://gotlivedata.io.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`The base URL must start with https:// (got "${url.protocol}").`);
    this.host = url.host;
    this.orgId = opts.orgId.trim();
    if (!this.orgId) throw new TypeError('The organization id is empty. Enter the id the service gave your organization (it starts with "o_").');
    this.fetchImpl = opts.fetch ?? globalThis.fetch;
    this.connections = opts.fetch ? null : new KeptConnections();
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.maxAttempts = Math.max(1, Math.floor(opts.maxAttempts ?? 5));
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.firstByteTimeoutMs = opts.firstByteTimeoutMs ?? 30_000;
    this.callBudgetMs = opts.callBudgetMs ?? 120_000;
    this.maxReplyBytes = opts.maxReplyBytes ?? MAX_PEOPLE_REPLY_BYTES;
    this.onCredits = opts.onCredits;
    this.limiter = new Limiter(opts.concurrency ?? 4);
    this.session = new Session({
      credentials: opts.credentials,
      sessionUrl: `${this.base}/api/identity/v1/session`,
      host: this.host,
      fetch: this.fetchImpl,
      clock: this.clock,
      random: this.random,
      maxAttempts: this.maxAttempts,
      timeoutMs: this.timeoutMs,
      firstByteTimeoutMs: this.firstByteTimeoutMs,
      callBudgetMs: this.callBudgetMs,
      refreshMarginMs: opts.refreshMarginMs ?? 25_000,
      redactor: this.redactor,
    });
  }

  /** Session calls sent by this client (an API key makes none). */
  get loginCount(): number {
    return this.session.loginCount;
  }

  /** One find call of at most 100 queries: one Candidate[] per query, in order. */
  async findBatch(queries: FindQuery[], opts: { signal?: AbortSignal } = {}): Promise<Candidate[][]> {
    if (queries.length > MAX_QUERIES_PER_FIND) {
      throw new RangeError(`A find call carries at most ${MAX_QUERIES_PER_FIND} queries (got ${queries.length}); use find() to split them.`);
    }
    if (queries.length === 0) return [];
    // Read from its bytes (api/reply-ascii.ts): decoded, a reply with one letter beyond ASCII took the decoder's slow path.
    return this.findBatchReading(queries, (reply) => parseFindReply(replyBytesJson(reply.bytes, 'find reply'), queries.length), opts);
  }

  /**
   * One find call of 1 to 100 queries (as objects, or as their terms' text), whose reply `read` turns into the result:
   * parseFindReply(replyJson(reply.text)) or work that starts with it, on this thread or another (the matching run
   * hands the bytes to its verdict worker). `read` is called again for each attempt the call takes; a ReplyNotJson it
   * throws (a cut-off reply) sends the call again, any other error fails it.
   */
  async findBatchReading<T>(queries: FindQuery[] | QueryFieldTexts, read: (reply: ReplyBody) => T | Promise<T>, opts: { signal?: AbortSignal } = {}): Promise<T> {
    const count = 'fields' in queries ? queries.fields.length : queries.length;
    if (count === 0 || count > MAX_QUERIES_PER_FIND) {
      throw new RangeError(`A find call carries 1 to ${MAX_QUERIES_PER_FIND} queries (got ${count}).`);
    }
    // Strict in what we send: only the spec's fields, whatever else the caller's objects carry.
    const body =
      'fields' in queries
        ? `{"matches":[${queries.fields.map((fields) => `{"fields":[${fields}]}`).join(',')}]}`
        : JSON.stringify({
            matches: queries.map((q) => ({ fields: q.fields.map((f) => ({ field_name: f.field_name, search_term: f.search_term })) })),
          });
    return this.callPeople('find', body, read, opts.signal);
  }

  /** Any number of queries: split into calls of <= 100 (sent concurrently through the limiter), results in order. */
  async find(queries: FindQuery[], opts: { signal?: AbortSignal } = {}): Promise<Candidate[][]> {
    const batches: FindQuery[][] = [];
    for (let i = 0; i < queries.length; i += MAX_QUERIES_PER_FIND) batches.push(queries.slice(i, i + MAX_QUERIES_PER_FIND));
    // The first failure stops the batches not sent yet: their results could not be returned anyway.
    const stop = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    try {
      const results = await Promise.all(
        batches.map((batch) =>
          this.findBatch(batch, { signal }).catch((err: unknown) => {
            stop.abort();
            throw err;
          }),
        ),
      );
      return results.flat();
    } finally {
      stop.abort();
    }
  }

  /**
   * Pages through a search until done, yielding each page as it lands. `startToken` resumes after a page already
   * stored (its `token`), numbering pages from `startPage`.
   */
  async *search(
    request: SearchRequest,
    opts: { pageSize?: number; maxPages?: number; signal?: AbortSignal; startToken?: string | null; startPage?: number } = {},
  ): AsyncGenerator<SearchPage> {
    const size = opts.pageSize ?? DEFAULT_SEARCH_PAGE_SIZE;
    const maxPages = opts.maxPages ?? DEFAULT_MAX_SEARCH_PAGES;
    const sent = new Set<string>();
    const seenIds = new Set<string>();
    let token: string | null = opts.startToken ?? null;
    if (token !== null) sent.add(token);
    for (let page = opts.startPage ?? 1; page <= maxPages; page++) {
      const body: string = JSON.stringify({ filters: request.filters, size, ...(token === null ? {} : { pagination_token: token }) });
      const reply: SearchReplyPage = await this.callPeople('search', body, (http) => {
        checkReplyValues(http.bytes, 'search reply');
        return parseSearchReply(replyJson(http.text));
      }, opts.signal);
      const fresh = reply.people.filter((person) => typeof person.id !== 'string' || !seenIds.has(person.id)).length;
      for (const person of reply.people) if (typeof person.id === 'string') seenIds.add(person.id);
      yield { people: reply.people, count: reply.count, page, token: reply.token };
      // Never loop forever on a service that may keep handing out tokens: stop at the last
      // token, on an empty page, on a token already followed, or on a page of nobody new.
      if (reply.token === null || reply.people.length === 0 || sent.has(reply.token) || fresh === 0) return;
      sent.add(reply.token);
      token = reply.token;
    }
  }

  /**
   * Logs in (or, for an API key, makes one minimal find call) to prove the profile works, and proves the organization
   * too: a login alone does not name it.
   */
  async testConnection(opts: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.session.usesApiKey) {
      // An address that cannot belong to anyone: proves the key and the org without returning (or charging for) a person.
      await this.findBatch([{ fields: [{ field_name: 'email_address', search_term: 'connection-test@matchdesk.invalid' }] }], opts);
      return;
    }
    await this.session.loginNow(opts.signal);
    try {
      // A count-only search (size 0) for a company nobody works at: it returns, and so charges for, no one. Asked
      // once, not retried: it is a question, not work.
      await this.callPeople('search', ORGANIZATION_CHECK, () => undefined, opts.signal, 1);
    } catch (err) {
      // Only a no fails it (the token, the role on the org, the org itself). Out of credits, an outage or a cut
      // connection say nothing about those, and the work that follows meets them as it would have.
      if (err instanceof UnauthorizedError || err instanceof ForbiddenError || err instanceof NotFoundError || err instanceof CancelledError) throw err;
    }
  }

  private async callPeople<T>(
    operation: 'find' | 'search',
    body: string,
    read: (reply: ReplyBody) => T | Promise<T>,
    signal?: AbortSignal,
    maxAttempts = this.maxAttempts,
  ): Promise<T> {
    const path = `/api/people/v1/${encodeURIComponent(this.orgId)}/${operation}`;
    // A 401 logs in again once and retries at once; a fresh token refused right away means logging in does not
    // help. A token revoked again on a later attempt (after a 5xx, say) gets its own re-login: attempts bound it.
    // The limiter counts calls on the wire: an attempt holds a place from its login to its reply, and gives it up to
    // wait before the next attempt and while the reply is read (which the matching run does on another thread).
    const budget = new CallBudget(this.clock, this.callBudgetMs);
    const limits: ExchangeLimits = { what: `${operation} reply`, firstByteMs: this.firstByteTimeoutMs, replyMs: this.timeoutMs, maxBytes: this.maxReplyBytes };
    return retrying({ clock: this.clock, random: this.random, maxAttempts, budget, signal }, async (attempt) => {
      const reply = await this.limiter.run(() => {
        budget.sent();
        return this.exchangeOnce(path, body, limits, attempt, signal);
      }, signal);
      return this.read(reply, path, attempt, read);
    });
  }

  /** One attempt's request and reply; a 401 logs in again and sends once more. */
  private async exchangeOnce(path: string, body: string, limits: ExchangeLimits, attempt: number, signal?: AbortSignal): Promise<HttpReply> {
    const token = await this.session.current(signal);
    let reply = await this.post(path, body, token, limits, attempt, signal);
    if (reply.status === 401) {
      if (this.session.usesApiKey) throw this.unauthorized(reply, 'The service refused the API key (HTTP 401). Check that the key in this profile is complete and has not been revoked.');
      const fresh = await this.session.replace(token, signal);
      reply = await this.post(path, body, fresh, limits, attempt, signal);
      if (reply.status === 401) throw this.unauthorized(reply, 'The service refused a fresh access token (HTTP 401) right after logging in. Check that the account of this profile is still active, then test the connection.');
    }
    return reply;
  }

  private async post(path: string, body: string, token: string, limits: ExchangeLimits, attempt: number, signal?: AbortSignal): Promise<HttpReply> {
    let reply: HttpReply;
    try {
      const url = `${this.base}${path}`;
      const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` }, body };
      reply = this.connections ? await keptExchange(this.connections, this.fetchImpl, url, init, limits, signal) : await exchange(this.fetchImpl, url, init, limits, signal);
    } catch (err) {
      if (err instanceof NetworkFailure) throw new RetryLater(new NetworkError(this.host, err.reason, attempt, err));
      throw err;
    }
    this.reportCredits(reply.headers);
    return reply;
  }

  private async read<T>(reply: HttpReply, path: string, attempt: number, read: (reply: ReplyBody) => T | Promise<T>): Promise<T> {
    const { status } = reply;
    if (status >= 200 && status < 300) {
      try {
        return await read(reply);
      } catch (error) {
        if (!(error instanceof ReplyNotJson)) throw error;
        // On the real network a cut-off body is a passing fault: sending again is the cure.
        throw new RetryLater(new MalformedReplyError(`the ${path.split('/').pop()} reply is not valid JSON`, { transient: true, body: this.redactor.apply(reply.looseText) }));
      }
    }
    const text = this.redactor.apply(reply.looseText);
    const detail = replyDetail(text);
    const retryAfter = () => parseRetryAfter(reply.headers.get('retry-after'), this.clock.now());
    switch (status) {
      case 400:
        throw new BadRequestError(text, detail);
      case 402:
        throw new PaymentRequiredError(text, detail);
      case 403:
        throw new ForbiddenError(this.orgId, text, detail);
      case 404:
        throw new NotFoundError(path, text, detail);
      case 429:
        throw new RetryLater(new RateLimitedError(attempt, text, detail), retryAfter());
    }
    if (isRetryableStatus(status)) throw new RetryLater(new ServerError(status, attempt, text, detail), retryAfter());
    if (status >= 500) throw new ServerError(status, attempt, text, detail);
    throw new UnexpectedStatusError(status, path, text, detail);
  }

  private unauthorized(reply: HttpReply, message: string): UnauthorizedError {
    const text = this.redactor.apply(reply.looseText);
    const detail = replyDetail(text);
    return new UnauthorizedError(detail ? `${message} The service said: ${detail.slice(0, 300)}` : message, text);
  }

  private reportCredits(headers: ReplyHeaders): void {
    if (!this.onCredits) return;
    const used = headers.get('x-ldt-credits-used');
    const remaining = headers.get('x-ldt-credits-remaining');
    if (used === null && remaining === null) return;
    this.onCredits({ used: creditNumber(used), remaining: creditNumber(remaining) });
  }
}

function creditNumber(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const n = Number(header.trim());
  return Number.isFinite(n) ? n : null;
}
