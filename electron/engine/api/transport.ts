import { CancelledError, MalformedReplyError } from './errors';
import { looseReplyText, replyText } from './reply-text';

/**
 * A reply as it came: its body's bytes, and their text decoded only when asked. The matching run hands a find
 * reply's bytes to the thread that reads it, so the engine's thread never decodes the ~100 KB of text.
 */
export class HttpReply {
  private decoded: string | null = null;

  constructor(
    readonly status: number,
    readonly headers: Headers,
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

/**
 * One HTTP exchange within `limits`: a body cut off mid-way, or late, is a network failure, not a reply; a body over
 * the size limit is a MalformedReplyError (sending again would bring the same). Throws CancelledError when `signal`
 * aborts, NetworkFailure for everything the network did.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
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
    const response = await fetchImpl(url, { ...init, signal: combined, redirect: 'follow' });
    headersIn = true;
    clearTimeout(firstByteTimer);
    const bytes = await readCapped(response, limits, () => tooLarge.abort());
    return new HttpReply(response.status, response.headers, bytes, limits.what);
  } catch (err) {
    if (err instanceof MalformedReplyError) throw err;
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

/** The body's bytes, read as they come and counted: over `maxBytes` the reading stops and `abort` closes the request. */
async function readCapped(response: Response, limits: ExchangeLimits, abort: () => void): Promise<Uint8Array> {
  const refuse = () => {
    abort();
    return new MalformedReplyError(
      `the ${limits.what} is larger than ${formatBytes(limits.maxBytes)}, more than any answer to the call can take, so it was not read further`,
    );
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
