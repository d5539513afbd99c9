// The packaged renderer is served from app://matchdesk/ rather than file://: a file: page could read any local
// file and shares one origin with every other file, while app://matchdesk is an origin of its own that the
// sender check and the CSP's 'self' can rely on.
import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { contentTypeFor, resolveStaticPath } from '../web/static-files';

export const APP_SCHEME = 'app';
export const APP_HOST = 'matchdesk';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** For `protocol.registerSchemesAsPrivileged`, which must run before the app is ready. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  // standard + secure: a real origin, secure-context APIs, and ES modules load like from https.
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
};

/** Answers one app:// request from the built renderer folder; anything else is a 404. */
export async function serveAppRequest(request: Request, rendererDir: string): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return notFound();
  }
  // Only our own host: app://anything-else/ must not become a second origin serving the same files.
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || request.method !== 'GET') return notFound();
  const file = resolveStaticPath(rendererDir, url.pathname);
  if (!file) return notFound();
  const body = await readFile(file);
  return new Response(body, {
    status: 200,
    headers: { 'content-type': contentTypeFor(file), 'x-content-type-options': 'nosniff' },
  });
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

export function registerAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, rendererDir));
}
