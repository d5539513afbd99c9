// Typed failures of the People Data Service client. Messages are written for the user; none may carry a secret.

export const SERVICE_ERROR_KINDS = [
  'login_failed',
  'unauthorized',
  'bad_request',
  'payment_required',
  'forbidden',
  'not_found',
  'rate_limited',
  'server_error',
  'network_error',
  'malformed_reply',
  'unexpected_status',
  'cancelled',
] as const;
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];

/** Longest body text an error keeps: enough to read the service's explanation, small enough to store and show. */
export const MAX_BODY_CHARS = 2048;

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  /** The reply's body text, truncated, with every known secret replaced. */
  readonly body?: string;

  constructor(kind: ServiceErrorKind, message: string, opts: { status?: number; body?: string; cause?: unknown } = {}) {
    // Messages quote the service's own words, which reach a terminal, a log and an export's error column.
    super(printable(message), opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.kind = kind;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.body !== undefined) this.body = truncate(opts.body, MAX_BODY_CHARS);
  }
}

/** The session call answered with something other than 200. */
export class LoginFailedError extends ServiceError {
  constructor(status: number, body: string, detail: string, credentialHint: string) {
    super('login_failed', `Login failed (HTTP ${status})${withDetail(detail)}. ${credentialHint}`, { status, body });
  }
}

/** 401 again after logging in once more, or 401 for an API key. */
export class UnauthorizedError extends ServiceError {
  constructor(message: string, body?: string) {
    super('unauthorized', message, { status: 401, ...(body === undefined ? {} : { body }) });
  }
}

export class BadRequestError extends ServiceError {
  constructor(body: string, detail: string) {
    super('bad_request', `The service rejected the request as invalid (HTTP 400)${withDetail(detail)}.`, { status: 400, body });
  }
}

/** Out of credits: the run must stop and keep what it has, since every further call would fail the same way. */
export class PaymentRequiredError extends ServiceError {
  constructor(body: string, detail: string) {
    super(
      'payment_required',
      `The organization is out of credits (HTTP 402)${withDetail(detail)}. Everything fetched so far is kept; add credits, then resume.`,
      { status: 402, body },
    );
  }
}

export class ForbiddenError extends ServiceError {
  readonly orgId: string;
  constructor(orgId: string, body: string, detail: string) {
    super(
      'forbidden',
      `This account has no access to organization "${orgId}" (HTTP 403)${withDetail(detail)}. Check the organization id in the profile, or ask an admin of that organization to grant the account the role for people data.`,
      { status: 403, body },
    );
    this.orgId = orgId;
  }
}

export class NotFoundError extends ServiceError {
  constructor(path: string, body: string, detail: string) {
    super('not_found', `The service has nothing at ${path} (HTTP 404)${withDetail(detail)}. Check the base URL and the organization id of the profile.`, {
      status: 404,
      body,
    });
  }
}

export class RateLimitedError extends ServiceError {
  constructor(attempts: number, body: string, detail: string) {
    super(
      'rate_limited',
      `The service is still limiting requests (HTTP 429) after ${attempts} attempt${attempts === 1 ? '' : 's'}${withDetail(detail)}. Lower the concurrency in Settings or try again in a few minutes.`,
      { status: 429, body },
    );
  }
}

export class ServerError extends ServiceError {
  constructor(status: number, attempts: number, body: string, detail: string) {
    super(
      'server_error',
      `The service failed with HTTP ${status} ${attempts === 1 ? 'once' : `${attempts} times in a row`}${withDetail(detail)}. This is on the service's side; try again later.`,
      { status, body },
    );
  }
}

/** Any other status the spec gives no meaning to (405, 409, 501, ...): reported with its body, never retried. */
export class UnexpectedStatusError extends ServiceError {
  constructor(status: number, path: string, body: string, detail: string) {
    super('unexpected_status', `The service answered ${path} with HTTP ${status}${withDetail(detail)}.`, { status, body });
  }
}

/**
 * A redirect the client does not follow: to another host, scheme or port than the one the profile names (a login's
 * body holds its secret, a call's the people asked about; fetch would send both on), or one too many.
 */
export class RedirectRefusedError extends ServiceError {
  constructor(status: number, from: string, message: string) {
    super('unexpected_status', `The service answered ${new URL(from).pathname} with HTTP ${status}, ${message}`, { status });
  }
}

export class NetworkError extends ServiceError {
  constructor(host: string, reason: string, attempts: number, cause?: unknown) {
    super(
      'network_error',
      `Could not get an answer from ${host}: ${reason}${attempts > 1 ? ` (${attempts} attempts)` : ''}. Check the base URL and your connection, then try again.`,
      { cause },
    );
  }
}

/** The reply could not be read: bad JSON (transient: a truncated body), or a shape the client does not know. */
export class MalformedReplyError extends ServiceError {
  /** True when the same call may well succeed if sent again (unparseable JSON), false for a wrong shape. */
  readonly transient: boolean;
  constructor(detail: string, opts: { transient?: boolean; body?: string } = {}) {
    super('malformed_reply', `The service sent a reply Matchdesk cannot read: ${detail}.`, opts.body === undefined ? {} : { body: opts.body });
    this.transient = opts.transient ?? false;
  }
}

export class CancelledError extends ServiceError {
  constructor() {
    super('cancelled', 'Cancelled before the service answered.');
  }
}

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Whether sending the same request again later may succeed: transient faults yes, answers about the request no. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  switch (err.kind) {
    case 'rate_limited':
    case 'network_error':
      return true;
    case 'server_error':
      return err.status !== undefined && isRetryableStatus(err.status);
    case 'login_failed':
      return err.status !== undefined && isRetryableStatus(err.status);
    case 'malformed_reply':
      return err instanceof MalformedReplyError && err.transient;
    default:
      return false;
  }
}

export interface ServiceErrorInfo {
  kind: ServiceErrorKind | 'unknown';
  message: string;
  status?: number;
}

/** A plain-JSON form of any thrown value, for storing in `lookups` and crossing the contract. */
export function toErrorInfo(err: unknown): ServiceErrorInfo {
  if (err instanceof ServiceError) return { kind: err.kind, message: err.message, ...(err.status === undefined ? {} : { status: err.status }) };
  if (isAbortError(err)) return { kind: 'cancelled', message: new CancelledError().message };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'unknown', message: `Unexpected error while talking to the service: ${message}` };
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err instanceof CancelledError);
}

/**
 * Characters that are not text when shown: control characters (a terminal takes ESC and the like as commands: a
 * reply's words could set its title, clear it or print what looks like Matchdesk's own lines) and the marks that
 * reorder text right to left. Line breaks and tabs are kept for the caller to fold.
 */
// eslint-disable-next-line no-control-regex -- these control characters are what it finds
const NOT_SHOWN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without the characters that are not text when shown (NOT_SHOWN). */
export function printable(text: string): string {
  return text.replace(NOT_SHOWN, '');
}

function withDetail(detail: string): string {
  const text = detail.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return text ? `: ${truncate(text, 300)}` : '';
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
