import { describe, expect, it } from 'vitest';
import {
  connectionRefusal,
  cookieValue,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackAddress,
  newToken,
  tokenCookie,
  tokenCookieName,
  tokensEqual,
} from '../../electron/web/request-guard';

describe('the browser host request guard', () => {
  it('makes 32-byte base64url tokens, different each launch', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newToken()).not.toBe(a);
  });

  it('compares tokens exactly, whatever their length', () => {
    const token = newToken();
    expect(tokensEqual(token, token)).toBe(true);
    expect(tokensEqual(`${token}x`, token)).toBe(false);
    expect(tokensEqual(token.slice(0, -1), token)).toBe(false);
    expect(tokensEqual('', token)).toBe(false);
    expect(tokensEqual(null, token)).toBe(false);
    expect(tokensEqual(undefined, token)).toBe(false);
    expect(tokensEqual('x'.repeat(10_000), token)).toBe(false);
  });

  it('recognizes loopback addresses only', () => {
    for (const address of ['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.2', '192.168.1.10', '::ffff:10.0.0.1', 'fe80::1', '0.0.0.0', '1127.0.0.1', undefined]) {
      expect(isLoopbackAddress(address)).toBe(false);
    }
  });

  it('accepts only its own Host and Origin (DNS rebinding, foreign pages)', () => {
    expect(isAllowedHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(isAllowedHost('localhost:4000', 4000)).toBe(true);
    expect(isAllowedHost('LOCALHOST:4000', 4000)).toBe(true);
    expect(isAllowedHost('127.0.0.1:4001', 4000)).toBe(false);
    expect(isAllowedHost('evil.example:4000', 4000)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 4000)).toBe(false);
    expect(isAllowedHost(undefined, 4000)).toBe(false);
    expect(isAllowedOrigin(undefined, 4000)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:4000', 4000)).toBe(true);
    expect(isAllowedOrigin('http://localhost:4000', 4000)).toBe(true);
    expect(isAllowedOrigin('null', 4000)).toBe(false);
    expect(isAllowedOrigin('https://127.0.0.1:4000', 4000)).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:4001', 4000)).toBe(false);
    expect(isAllowedOrigin('http://evil.example', 4000)).toBe(false);
    // On HTTP's own port a browser names none.
    expect(isAllowedHost('127.0.0.1', 80)).toBe(true);
    expect(isAllowedHost('localhost:80', 80)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1', 80)).toBe(true);
    expect(isAllowedOrigin('http://localhost', 80)).toBe(true);
    expect(isAllowedHost('evil.example', 80)).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1', 4000)).toBe(false);
  });

  it('refuses a connection on any one failed rule', () => {
    const ok = { socket: { remoteAddress: '127.0.0.1' }, headers: { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000' } };
    expect(connectionRefusal(ok as never, 4000)).toBeNull();
    expect(connectionRefusal({ ...ok, socket: { remoteAddress: '192.168.0.5' } } as never, 4000)?.status).toBe(403);
    expect(connectionRefusal({ ...ok, headers: { ...ok.headers, host: 'rebound.example:4000' } } as never, 4000)?.status).toBe(403);
    expect(connectionRefusal({ ...ok, headers: { ...ok.headers, origin: 'https://evil.example' } } as never, 4000)?.status).toBe(403);
  });

  it('sets an HttpOnly, SameSite=Strict cookie named by port, and reads it back', () => {
    const cookie = tokenCookie(4000, 'abc');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie.startsWith(`${tokenCookieName(4000)}=abc;`)).toBe(true);
    expect(cookieValue(`other=1; ${tokenCookieName(4000)}=abc; x=y`, tokenCookieName(4000))).toBe('abc');
    expect(cookieValue(`${tokenCookieName(4001)}=abc`, tokenCookieName(4000))).toBeNull();
    expect(cookieValue(undefined, tokenCookieName(4000))).toBeNull();
  });
});
