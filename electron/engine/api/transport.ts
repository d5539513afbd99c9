import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { CancelledError, MalformedReplyError, RedirectRefusedError } from './errors';
import { looseReplyText, replyText } from './reply-text';

/** A reply's headers as the client reads them: by name, several values joined (as the Fetch API's Headers.get does). */
export interface ReplyHeaders {
  get(name: string): string | null;
}

/**
 * A reply as it came: its body's bytes, and their text decoded only when asked. The matching run hands a find
 * reply's bytes to the thread that reads it, so the engine's thread never decodes the ~100 KB of text.
 */
export class HttpReply {
  private decoded: string | null = null;

  constructor(
    readonly status: number,
    readonly headers: ReplyHeaders,
    readonly bytes: Uint8Array,
    /** What the reply answers, in words for an error ("find reply"). */
    readonly what: string,
  ) {}

  /** The body as UTF-8 text (a byte order mark dropped), decoded once; MalformedReplyError when it is not UTF-8. */
  get text(): string {
    return (this.decoded ??= replyText(this.bytes, this.what));
  }

  /** The body as text for an error message, whatever its bytes. */
  get looseText(): string {
    return looseReplyText(this.bytes);
  }
}

/** What a reply's reader is given: the body's bytes, or its text. */
export type ReplyBody = Pick<HttpReply, 'bytes' | 'text'>;

/** The request never got a whole answer: refused, reset, timed out, unreachable. Retryable by nature. */
export class NetworkFailure extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'NetworkFailure';
  }
}

/** How long an exchange may take and how much it may bring: every wait has a deadline, every reply a size. */
export interface ExchangeLimits {
  /** What is asked, in words for an error ("find reply"). */
  what: string;
  /**
   * The status line and headers within this long of sending. It covers the connection too (Node's fetch also
   * gives a connection up after 10 s).
   */
  firstByteMs: number;
  /** The whole reply, body included, within this long of sending: a body that trickles in is cut off here. */
  replyMs: number;
  /** The most bytes a body may hold: past it reading stops and the request is aborted, so memory stays bounded. */
  maxBytes: number;
}

/** What an exchange sends. */
export interface ExchangeRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One HTTP exchange within `limits`: a body cut off mid-way, or late, is a network failure, not a reply; a body over
 * the size limit is a MalformedReplyError (sending again would bring the same). A redirect is followed on the origin
 * of `url` only, else refused (RedirectRefusedError). Throws CancelledError when `signal` aborts, NetworkFailure for
 * everything the network did.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  url: string,
  init: ExchangeRequest,
  limits: ExchangeLimits,
  signal?: AbortSignal,
): Promise<HttpReply> {
  if (signal?.aborted) throw new CancelledError();
  const whole = AbortSignal.timeout(limits.replyMs);
  const firstByte = new AbortController();
  const tooLarge = new AbortController();
  const firstByteTimer = setTimeout(() => firstByte.abort(), Math.min(limits.firstByteMs, limits.replyMs));
  const combined = AbortSignal.any([whole, firstByte.signal, tooLarge.signal, ...(signal ? [signal] : [])]);
  let headersIn = false;
  try {
    let target = url;
    let request: ExchangeRequest = init;
    for (let hops = 0; ; hops++) {
      const response = await fetchImpl(target, { ...request, signal: combined, redirect: 'manual' });
      const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
      if (location !== null) {
        await response.body?.cancel();
        const next = followedRedirect(url, target, location, response.status, hops);
        target = next.href;
        request = redirectedRequest(request, response.status);
        continue;
      }
      headersIn = true;
      clearTimeout(firstByteTimer);
      const bytes = await readCapped(response, limits, () => tooLarge.abort());
      return new HttpReply(response.status, response.headers, bytes, limits.what);
    }
  } catch (err) {
    if (err instanceof MalformedReplyError || err instanceof RedirectRefusedError) throw err;
    if (signal?.aborted) throw new CancelledError();
    if (firstByte.signal.aborted || (whole.aborted && !headersIn)) {
      throw new NetworkFailure(`no answer within ${formatSeconds(Math.min(limits.firstByteMs, limits.replyMs))}`, { cause: err });
    }
    if (whole.aborted) throw new NetworkFailure(`the ${limits.what} did not arrive in full within ${formatSeconds(limits.replyMs)}`, { cause: err });
    throw new NetworkFailure(networkReason(err), { cause: err });
  } finally {
    clearTimeout(firstByteTimer);
  }
}

/**
 * Keep-alive connections for exchanges sent with node:http or node:https (keptExchange): Node's fetch spends more CPU
 * on the same exchange (docs/performance.md, "The first run").
 */
export class KeptConnections {
  readonly http = new http.Agent({ keepAlive: true });
  readonly https = new https.Agent({ keepAlive: true });
}

/**
 * As exchange, sent with node:http or node:https on kept connections, within the same limits and failing with the
 * same errors. What fetch would treat differently is sent again with `fetchImpl`: a redirect, which exchange follows
 * on the profile's origin only. A compressed body is decoded as fetch decodes it, and asked
 * for as fetch asks.
 */
export async function keptExchange(
  connections: KeptConnections,
  fetchImpl: typeof fetch,
  url: string,
  init: ExchangeRequest,
  limits: ExchangeLimits,
  signal?: AbortSignal,
): Promise<HttpReply> {
  if (signal?.aborted) throw new CancelledError();
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  const headers: Record<string, string | number> = { 'accept-encoding': secure ? 'br, gzip, deflate' : 'gzip, deflate', ...init.headers };
  if (body) headers['content-length'] = body.byteLength;
  const reply = await new Promise<HttpReply | 'redirect'>((resolve, reject) => {
    let headersIn = false;
    let done = false;
    const finish = (error: Error | null, result?: HttpReply | 'redirect') => {
      if (done) return;
      done = true;
      clearTimeout(firstByteTimer);
      clearTimeout(wholeTimer);
      signal?.removeEventListener('abort', onAbort);
      if (error) {
        request.destroy();
        reject(error);
      } else resolve(result!);
    };
    const onAbort = () => finish(new CancelledError());
    const noAnswer = () => finish(new NetworkFailure(`no answer within ${formatSeconds(Math.min(limits.firstByteMs, limits.replyMs))}`));
    const firstByteTimer = setTimeout(noAnswer, Math.min(limits.firstByteMs, limits.replyMs));
    const wholeTimer = setTimeout(() => {
      if (!headersIn) noAnswer();
      else finish(new NetworkFailure(`the ${limits.what} did not arrive in full within ${formatSeconds(limits.replyMs)}`));
    }, limits.replyMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    const request = (secure ? https : http).request(target, { method: init.method, headers, agent: secure ? connections.https : connections.http }, (response) => {
      headersIn = true;
      clearTimeout(firstByteTimer);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location !== undefined) {
        response.resume();
        finish(null, 'redirect');
        return;
      }
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      const coding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
      if (Number.isFinite(declared) && declared > limits.maxBytes) return finish(tooLarge(limits));
      const decoded = decodedBody(response, coding);
      const chunks: Buffer[] = [];
      let total = 0;
      decoded.on('data', (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > limits.maxBytes) finish(tooLarge(limits));
        else chunks.push(chunk);
      });
      decoded.on('end', () => finish(null, new HttpReply(status, new KeptHeaders(response.headers), chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), limits.what)));
      // A body cut off mid-way, as fetch says it.
      decoded.on('error', (err) => finish(new NetworkFailure(decoded === response ? REASONS.UND_ERR_SOCKET! : networkReason(err), { cause: err })));
      response.on('aborted', () => finish(new NetworkFailure(REASONS.UND_ERR_SOCKET!)));
      response.on('close', () => {
        if (!response.complete) finish(new NetworkFailure(REASONS.UND_ERR_SOCKET!));
      });
    });
    request.on('error', (err) => finish(signal?.aborted ? new CancelledError() : new NetworkFailure(sentReason(err), { cause: err })));
    request.end(body);
  });
  if (reply === 'redirect') return exchange(fetchImpl, url, init, limits, signal);
  return reply;
}

/** Statuses fetch follows to their Location. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Redirects followed in a row before the exchange gives up (fetch follows 20). */
const MAX_REDIRECTS = 5;

/** Where a redirect from `current` (asked for as `first`) leads, when it may be followed: on `first`'s origin only. */
function followedRedirect(first: string, current: string, location: string, status: number, hops: number): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new RedirectRefusedError(status, current, 'a redirect to an address that does not read as one. Check the base URL of the profile.');
  }
  const origin = new URL(first).origin;
  if (next.origin !== origin) {
    throw new RedirectRefusedError(
      status,
      current,
      `a redirect to ${next.origin}. Matchdesk sends credentials and the people it asks about only to ${origin}, the base URL of the profile: check it, or set it to where the service moved.`,
    );
  }
  if (hops >= MAX_REDIRECTS) throw new RedirectRefusedError(status, current, `a redirect after ${MAX_REDIRECTS} redirects in a row. Check the base URL of the profile.`);
  return next;
}

/** The request a redirect of `status` sends on, as fetch sends it: 303, and 301 or 302 after a POST, as a GET without its body. */
function redirectedRequest(request: ExchangeRequest, status: number): ExchangeRequest {
  const asGet = status === 303 ? request.method !== 'HEAD' : (status === 301 || status === 302) && request.method === 'POST';
  if (!asGet) return request;
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !BODY_HEADERS.has(name.toLowerCase())));
  return { method: 'GET', headers };
}

/** Headers that describe a body, dropped with it. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

/** The body as fetch decodes it: gzip, deflate and brotli; anything else as it came. */
function decodedBody(response: IncomingMessage, coding: string): Readable {
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : coding === 'deflate'
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : coding === 'br'
          ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : null;
  if (!decoder) return response;
  response.on('error', (err) => decoder.destroy(err));
  return response.pipe(decoder);
}

/** A request that failed before its reply: a connection closed with nothing said is what fetch calls a closed socket. */
function sentReason(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ECONNRESET' && (err as Error).message === 'socket hang up') return REASONS.UND_ERR_SOCKET!;
  return networkReason(err);
}

class KeptHeaders implements ReplyHeaders {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

function tooLarge(limits: ExchangeLimits): MalformedReplyError {
  return new MalformedReplyError(`the ${limits.what} is larger than ${formatBytes(limits.maxBytes)}, more than any answer to the call can take, so it was not read further`);
}

/** The body's bytes, read as they come and counted: over `maxBytes` the reading stops and `abort` closes the request. */
async function readCapped(response: Response, limits: ExchangeLimits, abort: () => void): Promise<Uint8Array> {
  const refuse = () => {
    abort();
    return tooLarge(limits);
  };
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limits.maxBytes) throw refuse();
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limits.maxBytes) {
      const error = refuse();
      await reader.cancel().catch(() => undefined);
      throw error;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is the service running at that address?)',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was reset',
  UND_ERR_SOCKET: 'the connection was closed before the answer was complete',
  UND_ERR_CLOSED: 'the connection was closed',
  ENOTFOUND: 'the host name could not be found',
  EAI_AGAIN: 'the host name could not be looked up (DNS)',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the service took too long to answer',
  UND_ERR_BODY_TIMEOUT: 'the service took too long to send its answer',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate could not be verified',
};

/** Node's fetch hides the socket error in `cause` (often nested): find its code and say it in words. */
export function networkReason(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && REASONS[code]) return REASONS[code];
    if (typeof code === 'string') return `${(current as Error).message || 'network error'} (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${Number((bytes / 1_000_000).toFixed(1))} MB`;
  if (bytes >= 1_000) return `${Number((bytes / 1_000).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
