// The People Data Service client.
export type { Credentials } from './credentials';
export {
  ServiceClient,
  MAX_QUERIES_PER_FIND,
  DEFAULT_SEARCH_PAGE_SIZE,
  DEFAULT_MAX_SEARCH_PAGES,
  type ServiceClientOptions,
  type SearchPage,
  type SearchRequest,
  type CreditsReport,
} from './service-client';
export { parseExpiry, parseInstant, FALLBACK_TOKEN_LIFETIME_MS } from './expiry';
export { parseFindReply, readPeople } from './find-reply';
export { ReplyNotJson, replyJson } from './reply-json';
export { parseSearchReply, type SearchReplyPage } from './search-reply';
export { parseRetryAfter, backoffDelay, BACKOFF_BASE_MS, BACKOFF_CAP_MS, MAX_RETRY_AFTER_MS } from './retry';
export { Limiter } from './limiter';
export { Redactor } from './redactor';
export {
  ServiceError,
  LoginFailedError,
  UnauthorizedError,
  BadRequestError,
  PaymentRequiredError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnexpectedStatusError,
  RedirectRefusedError,
  NetworkError,
  MalformedReplyError,
  CancelledError,
  SERVICE_ERROR_KINDS,
  MAX_BODY_CHARS,
  isRetryable,
  isRetryableStatus,
  isAbortError,
  toErrorInfo,
  type ServiceErrorKind,
  type ServiceErrorInfo,
} from './errors';
