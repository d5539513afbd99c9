// Who may talk to the browser host: only this machine, only through the printed URL, only from the host's own
// page. Pure functions of the request's parts, so each rule is tested on its own.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_HEADER = 'x-matchdesk-token';
export const TOKEN_QUERY = 'token';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares in constant time: a timing difference would let a local page guess the token byte by byte. */
export function tokensEqual(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 512) return false;
  // Hash both sides: timingSafeEqual needs equal lengths, and the length itself must not leak either.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Cookies ignore ports: the port in the name keeps two hosts on one machine from overwriting each other. */
export function tokenCookieName(port: number): string {
  return `matchdesk_token_${port}`;
}

/**
 * The page's cookie, holding `secret` (not the API token: every server on 127.0.0.1 the browser visits is sent it,
 * whatever its port).
 */
export function tokenCookie(port: number, secret: string): string {
  // HttpOnly: page scripts never read it; SameSite=Strict: no other site's page can make the browser send it.
  return `${tokenCookieName(port)}=${secret}; Path=/; HttpOnly; SameSite=Strict`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * The Host values a page served by this host can send; anything else is a DNS-rebinding attempt. On port 80 a
 * browser names no port (HTTP's default), so the bare names are this host's too.
 */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, ...(port === 80 ? ['127.0.0.1', 'localhost'] : [])];
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  return typeof host === 'string' && allowedHosts(port).includes(host.toLowerCase());
}

/** A browser sends Origin on every POST, fetch and WebSocket; it must be the host's own page. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHosts(port).some((host) => origin.toLowerCase() === `http://${host}`);
}

export interface Refusal {
  status: 403;
  reason: string;
}

/**
 * The checks every request and WebSocket upgrade passes before anything else happens; null when it may go on.
 * The token check is separate: where the token may come from depends on the route.
 */
export function connectionRefusal(req: Pick<IncomingMessage, 'headers' | 'socket'>, port: number): Refusal | null {
  // Only this machine: the host listens on 127.0.0.1, and this holds even if someone changes that.
  if (!isLoopbackAddress(req.socket.remoteAddress)) return { status: 403, reason: 'Only this computer may connect.' };
  // DNS rebinding: a foreign name resolving to 127.0.0.1 would otherwise make this host same-origin with that site.
  if (!isAllowedHost(req.headers.host, port)) return { status: 403, reason: 'Unexpected Host header.' };
  // Another page open in the browser may send requests here; it must not act on the user's behalf.
  const origin = req.headers.origin;
  if (Array.isArray(origin) || !isAllowedOrigin(origin, port)) return { status: 403, reason: 'Requests from other sites are refused.' };
  return null;
}

/**
 * What a request carries: the API token in the header (API calls) or the query (the page, the events' WebSocket),
 * and the page's cookie (assets, reloads, downloads).
 */
export function presentedTokens(req: Pick<IncomingMessage, 'headers'>, url: URL, port: number): { header: string | null; cookie: string | null; query: string | null } {
  const header = req.headers[TOKEN_HEADER];
  return {
    header: typeof header === 'string' ? header : null,
    cookie: cookieValue(req.headers.cookie, tokenCookieName(port)),
    query: url.searchParams.get(TOKEN_QUERY),
  };
}
