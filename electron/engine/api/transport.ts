import { CancelledError } from './errors';

const utf8 = new TextDecoder();

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
  ) {}

  /** The body as UTF-8 text (a byte order mark dropped, as fetch's text() does), decoded once. */
  get text(): string {
    return (this.decoded ??= utf8.decode(this.bytes));
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

/**
 * One HTTP exchange with a deadline covering headers and body: a body cut off mid-way is a network failure, not a
 * reply. Throws CancelledError when `signal` aborts, NetworkFailure for everything the network did.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpReply> {
  if (signal?.aborted) throw new CancelledError();
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  try {
    const response = await fetchImpl(url, { ...init, signal: combined, redirect: 'follow' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return new HttpReply(response.status, response.headers, bytes);
  } catch (err) {
    if (signal?.aborted) throw new CancelledError();
    if (deadline.aborted) throw new NetworkFailure(`no answer within ${formatSeconds(timeoutMs)}`, { cause: err });
    throw new NetworkFailure(networkReason(err), { cause: err });
  }
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

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
