// The client sends calls on kept node:http connections unless given a fetch; what fetch did for it, it still does:
// compressed bodies decoded, redirects followed, a cut-off body or a closed connection said in the same words.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MalformedReplyError, NetworkError, RedirectRefusedError, ServiceClient, type Credentials, type ServiceClientOptions } from '../../../electron/engine/api';
import { FIND_PATH, ORG, SESSION_PATH, echoFind, queries, reply, specTimestamp, startScriptServer, type Script, type ScriptServer } from './script-server';

const credentials: Credentials = { kind: 'service_account', clientId: 'svc', clientSecret: 'top-secret-value' };

let server: ScriptServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(find: Script): Promise<ScriptServer> {
  server = await startScriptServer((req, res, seen) => {
    if (req.path === SESSION_PATH) return reply(res, 200, { accessToken: 'token-1', expiresAt: specTimestamp(Date.now() + 3_600_000) });
    if (req.path.endsWith('/find')) return find(req, res, seen);
    reply(res, 404, 'no such route');
  });
  return server;
}

/** The client as the app makes it (kept connections), and one sending with Node's fetch, on the same server. */
function clients(s: ScriptServer, extra: Partial<ServiceClientOptions> = {}): [string, ServiceClient][] {
  const options = { baseUrl: s.baseUrl, orgId: ORG, credentials, random: () => 0, maxAttempts: 1, ...extra };
  return [
    ['kept connections', new ServiceClient(options)],
    ['fetch', new ServiceClient({ ...options, fetch: (input, init) => fetch(input, init) })],
  ];
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call should have failed'),
    (err: unknown) => err,
  );
}

describe('calls on kept connections, as fetch sent them', () => {
  it('asks for a compressed body as fetch does and reads a gzip one', async () => {
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify(echoFind(req, (i) => [{ id: `p${i}`, full_name: 'Zoë Ångström' }]))));
    });
    for (const [, client] of clients(s)) {
      const found = await client.findBatch(queries(2));
      expect(found.map((candidates) => candidates.map((c) => c.person.full_name))).toEqual([['Zoë Ångström'], ['Zoë Ångström']]);
    }
    const finds = s.requests.filter((r) => r.path === FIND_PATH);
    expect(finds.map((r) => r.headers['accept-encoding'])).toEqual(['gzip, deflate', 'gzip, deflate']);
  });

  it('refuses a compressed body that inflates past the reply limit (a zip bomb), whatever its coding', async () => {
    // 64 MB of one byte, compressed to some 64 kB (brotli: a few hundred bytes), against a 1 MB limit.
    const bomb = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const bodies = { gzip: gzipSync(bomb), deflate: deflateSync(bomb), br: brotliCompressSync(bomb) } as const;
    for (const [coding, body] of Object.entries(bodies)) {
      expect(body.length).toBeLessThan(1024 * 1024);
      const s = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(body);
      });
      // Node's fetch asks for no brotli over plain http, as the kept connections do not: it still decodes one sent.
      for (const [name, client] of clients(s, { maxReplyBytes: 1024 * 1024 })) {
        const error = await failure(client.findBatch(queries(1)));
        expect(error, `${coding}, ${name}`).toBeInstanceOf(MalformedReplyError);
        expect((error as Error).message, `${coding}, ${name}`).toMatch(/larger than 1 MB/);
      }
      await s.close();
      server = null;
    }
  });

  it('says a compressed body that does not inflate as a failed network call, and reads the next call again', async () => {
    const s = await serve((req, res, seen) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      // The first call's body says gzip and is not; the second's is.
      res.end(seen.sameRoute % 2 === 1 ? Buffer.from('{"not":"gzip"}') : gzipSync(JSON.stringify(echoFind(req))));
    });
    for (const [name, client] of clients(s)) {
      const error = await failure(client.findBatch(queries(1)));
      expect(error, name).toBeInstanceOf(NetworkError);
      await expect(client.findBatch(queries(1)), name).resolves.toHaveLength(1);
    }
  });

  it('follows a redirect to where the service moved', async () => {
    const s = await serve((req, res) => {
      if (req.path === FIND_PATH) {
        res.writeHead(307, { location: `/moved${FIND_PATH}` });
        res.end();
        return;
      }
      reply(res, 200, echoFind(req));
    });
    for (const [, client] of clients(s)) await expect(client.findBatch(queries(1))).resolves.toHaveLength(1);
    expect(s.count(`/moved${FIND_PATH}`)).toBe(2);
  });

  it('follows a redirect on the same host only: neither the secret nor the people asked about go to another', async () => {
    const elsewhere = await startScriptServer((req, res) => reply(res, 200, req.path === SESSION_PATH ? { accessToken: 'stolen', expiresAt: specTimestamp(Date.now() + 3_600_000) } : echoFind(req)));
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        for (const moved of ['login', 'find'] as const) {
          const s = await startScriptServer((req, res) => {
            const redirected = moved === 'login' ? req.path === SESSION_PATH : req.path === FIND_PATH;
            if (redirected) {
              res.writeHead(status, { location: `${elsewhere.baseUrl}${req.path}` });
              res.end();
            } else if (req.path === SESSION_PATH) reply(res, 200, { accessToken: 'token-1', expiresAt: specTimestamp(Date.now() + 3_600_000) });
            else reply(res, 200, echoFind(req));
          });
          for (const [name, client] of clients(s)) {
            const error = await failure(client.findBatch(queries(1)));
            expect(error, `${status} ${moved}, ${name}`).toBeInstanceOf(RedirectRefusedError);
            expect((error as Error).message).toContain(`with HTTP ${status}, a redirect to ${elsewhere.baseUrl}. Matchdesk sends credentials and the people it asks about only to ${s.baseUrl}`);
          }
          await s.close();
        }
      }
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('gives up after five redirects in a row on the same host', async () => {
    const s = await serve((req, res) => {
      res.writeHead(307, { location: `/again${req.path}` });
      res.end();
    });
    for (const [name, client] of clients(s)) {
      const error = await failure(client.findBatch(queries(1)));
      expect(error, name).toBeInstanceOf(RedirectRefusedError);
      expect((error as Error).message).toMatch(/a redirect after 5 redirects in a row/);
    }
  });

  it('says a body cut off before its announced length, and a connection closed without a reply, in the same words', async () => {
    const cut = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('[[{"id":"p0"');
      setTimeout(() => res.socket?.destroy(), 5);
    });
    const cutMessages: string[] = [];
    for (const [, client] of clients(cut)) cutMessages.push(((await failure(client.findBatch(queries(1)))) as NetworkError).message);
    expect(cutMessages[0]).toBe(cutMessages[1]);
    expect(cutMessages[0]).toMatch(/the connection was closed before the answer was complete/);
    await cut.close();
    server = null;

    const closed = await serve((_req, res) => void res.socket?.destroy());
    const closedMessages: string[] = [];
    for (const [, client] of clients(closed)) {
      const err = await failure(client.findBatch(queries(1)));
      expect(err).toBeInstanceOf(NetworkError);
      closedMessages.push((err as NetworkError).message);
    }
    expect(closedMessages[0]).toBe(closedMessages[1]);
  });
});
