// A real HTTP server on 127.0.0.1 whose every answer the test scripts: for fault sequences the simulator cannot
// express precisely (429 twice then 200, a reset socket, an expiry without fraction, a login counter).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Script = (req: Recorded, res: ServerResponse, seen: { sameRoute: number }) => void | Promise<void>;

export interface ScriptServer {
  baseUrl: string;
  requests: Recorded[];
  /** Requests whose path ends with `suffix` (e.g. '/session', '/find'). */
  count(suffix: string): number;
  close(): Promise<void>;
}

export const ORG = 'o_test';
export const SESSION_PATH = '/api/identity/v1/session';
export const FIND_PATH = `/api/people/v1/${ORG}/find`;
export const SEARCH_PATH = `/api/people/v1/${ORG}/search`;

export async function startScriptServer(script: Script): Promise<ScriptServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const sameRoute = requests.filter((r) => r.path === recorded.path).length;
      Promise.resolve(script(recorded, res, { sameRoute })).catch((err: unknown) => {
        if (!res.headersSent) reply(res, 599, { error: `script failed: ${String(err)}` });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    count: (suffix) => requests.filter((r) => r.path.endsWith(suffix)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** A UTC timestamp in the spec's form: YYYY-MM-DDTHH:MM:SS.ffffff, no zone. */
export function specTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000');
}

/** A session reply the way the spec describes it for client credentials, valid for an hour. */
export function goodLogin(res: ServerResponse, token = 'token-1', now = Date.now()): void {
  reply(res, 200, { accessToken: token, expiresAt: specTimestamp(now + 3_600_000) });
}

/** One find item per query in the request, each with `perQuery(i)` persons (bare-array items). */
export function echoFind(req: Recorded, perQuery: (i: number) => unknown[] = (i) => [{ id: `p${i}` }]): unknown[] {
  const { matches } = JSON.parse(req.body) as { matches: unknown[] };
  return matches.map((_, i) => perQuery(i));
}

export function bearer(req: Recorded): string | null {
  const auth = req.headers.authorization;
  return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : null;
}

export function queries(n: number, offset = 0): { fields: { field_name: string; search_term: string }[] }[] {
  return Array.from({ length: n }, (_, i) => ({ fields: [{ field_name: 'email_address', search_term: `person${offset + i}@example.com` }] }));
}

/** Polls until `check` holds: for waiting on a ManualClock sleeper or a request to land, without fixed sleeps. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
