import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../electron/engine/clock';
import { CancelledError, LoginFailedError, MalformedReplyError, ServiceClient, UnauthorizedError, type Credentials } from '../../../electron/engine/api';
import {
  FIND_PATH,
  ORG,
  SEARCH_PATH,
  SESSION_PATH,
  bearer,
  echoFind,
  goodLogin,
  queries,
  reply,
  specTimestamp,
  startScriptServer,
  type Script,
  type ScriptServer,
} from './script-server';

const serviceAccount: Credentials = { kind: 'service_account', clientId: 'svc-123', clientSecret: 'shh-client-secret-value' };
const password: Credentials = { kind: 'password', username: 'ada@example.com', password: 'correct horse&battery=staple' };
const apiKey: Credentials = { kind: 'api_key', apiKey: 'ldtkey_abcdef123456' };

let server: ScriptServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(script: Script): Promise<ScriptServer> {
  server = await startScriptServer(script);
  return server;
}

function clientFor(s: ScriptServer, credentials: Credentials, extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) {
  return new ServiceClient({ baseUrl: s.baseUrl, orgId: ORG, credentials, random: () => 0, ...extra });
}

/** Logs in with `login`, answers finds (and count-only searches) when the bearer is a token it issued (or the API key). */
function loginAndFind(login: Script, accept: (token: string | null) => boolean = (t) => t !== null): Script {
  return (req, res, seen) => {
    if (req.path === SESSION_PATH) return login(req, res, seen);
    if (req.path === FIND_PATH) return accept(bearer(req)) ? reply(res, 200, echoFind(req)) : reply(res, 401, { message: 'invalid token' });
    if (req.path === SEARCH_PATH) return accept(bearer(req)) ? reply(res, 200, { people: [], count: 0 }) : reply(res, 401, { message: 'invalid token' });
    reply(res, 404, 'no such route');
  };
}

const one = queries(1);

describe('login with client credentials', () => {
  it('sends the spec JSON body and uses the token as the bearer', async () => {
    const s = await serve(loginAndFind((_req, res) => goodLogin(res, 'tok-sa'), (t) => t === 'tok-sa'));
    const client = clientFor(s, serviceAccount);
    const result = await client.findBatch(one);
    expect(result).toEqual([[{ rank: 1, score: null, person: { id: 'p0' } }]]);
    const [login, find] = s.requests;
    expect(login.method).toBe('POST');
    expect(login.headers['content-type']).toBe('application/json');
    expect(login.headers.accept).toBe('application/json');
    expect(login.headers.authorization).toBeUndefined();
    expect(JSON.parse(login.body)).toEqual({ grantType: 'clientCredentials', clientId: 'svc-123', clientSecret: 'shh-client-secret-value' });
    expect(find.headers.authorization).toBe('Bearer tok-sa');
    expect(client.loginCount).toBe(1);
  });
});

describe('login with username and password', () => {
  it('sends a form-encoded body and reads access_token with expires_in', async () => {
    const s = await serve(loginAndFind((_req, res) => reply(res, 200, { access_token: 'tok-pw', expires_in: 900 }), (t) => t === 'tok-pw'));
    const client = clientFor(s, password);
    await client.findBatch(one);
    const login = s.requests[0];
    expect(login.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(login.body).toBe('username=ada%40example.com&password=correct+horse%26battery%3Dstaple');
    const form = new URLSearchParams(login.body);
    expect(form.get('password')).toBe('correct horse&battery=staple');
    expect(s.requests[1].headers.authorization).toBe('Bearer tok-pw');
  });
});

describe('API key', () => {
  it('makes no session call and sends the key as the bearer', async () => {
    const s = await serve(loginAndFind((_req, res) => goodLogin(res), (t) => t === apiKey.apiKey));
    const client = clientFor(s, apiKey);
    await client.findBatch(one);
    await client.findBatch(one);
    expect(s.count('/session')).toBe(0);
    expect(client.loginCount).toBe(0);
    expect(s.requests.every((r) => r.headers.authorization === `Bearer ${apiKey.apiKey}`)).toBe(true);
  });

  it('treats a 401 as final: no login, no resend', async () => {
    const s = await serve(loginAndFind((_req, res) => goodLogin(res), () => false));
    const err = await clientFor(s, apiKey).findBatch(one).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).message).toMatch(/API key/);
    expect((err as UnauthorizedError).message).not.toContain(apiKey.apiKey);
    expect(s.requests).toHaveLength(1);
  });

  it('tests the connection with one minimal find call', async () => {
    const s = await serve(loginAndFind((_req, res) => goodLogin(res), (t) => t === apiKey.apiKey));
    await clientFor(s, apiKey).testConnection();
    expect(s.requests.map((r) => r.path)).toEqual([FIND_PATH]);
    expect(JSON.parse(s.requests[0].body).matches).toHaveLength(1);
  });
});

describe('expiry and refresh', () => {
  // Each reply states its expiry its own way; the client must refresh 25 s before it, whatever the form.
  const start = Date.UTC(2026, 0, 1, 9, 0, 0);
  const lifetime = 10 * 60_000;
  const forms: [string, (now: number) => Record<string, unknown>, number][] = [
    ['expiresAt with microseconds (spec)', (now) => ({ accessToken: 't', expiresAt: specTimestamp(now + lifetime) }), lifetime],
    ['expiresAt without fraction', (now) => ({ accessToken: 't', expiresAt: new Date(now + lifetime).toISOString().slice(0, 19) }), lifetime],
    ['expiresAt with three digits and Z', (now) => ({ accessToken: 't', expiresAt: new Date(now + lifetime).toISOString() }), lifetime],
    ['expiresAt with an offset', (now) => ({ accessToken: 't', expiresAt: new Date(now + lifetime + 2 * 3_600_000).toISOString().slice(0, 23) + '+02:00' }), lifetime],
    ['expires_at', (now) => ({ access_token: 't', expires_at: new Date(now + lifetime).toISOString() }), lifetime],
    ['expires_in', () => ({ access_token: 't', expires_in: lifetime / 1000 }), lifetime],
    ['no expiry at all (15 minutes assumed)', () => ({ access_token: 't' }), 15 * 60_000],
  ];

  it.each(forms)('refreshes 25 s before expiry with %s', async (_label, body, expectedLifetime) => {
    const clock = new ManualClock(start);
    let issued = 0;
    const s = await serve(loginAndFind((_req, res) => reply(res, 200, { ...body(clock.now()), accessToken: `t${++issued}`, access_token: `t${issued}` })));
    const client = clientFor(s, serviceAccount, { clock });
    await client.findBatch(one);
    expect(client.loginCount).toBe(1);
    clock.advance(expectedLifetime - 25_000 - 1);
    await client.findBatch(one);
    expect(client.loginCount).toBe(1);
    clock.advance(2);
    await client.findBatch(one);
    expect(client.loginCount).toBe(2);
    expect(bearer(s.requests.at(-1)!)).toBe('t2');
  });

  it('assumes 15 minutes when a fresh token claims to have expired already (a zone or clock mismatch)', async () => {
    const clock = new ManualClock(start);
    const s = await serve(loginAndFind((_req, res) => reply(res, 200, { accessToken: 'x', expiresAt: specTimestamp(clock.now() - 5 * 3_600_000) })));
    const client = clientFor(s, serviceAccount, { clock });
    await client.findBatch(one);
    clock.advance(15 * 60_000 - 25_001);
    await client.findBatch(one);
    expect(client.loginCount).toBe(1);
    clock.advance(2);
    await client.findBatch(one);
    expect(client.loginCount).toBe(2);
  });

  it('honours a custom refresh margin', async () => {
    const clock = new ManualClock(start);
    const s = await serve(loginAndFind((_req, res) => reply(res, 200, { accessToken: 'x', expiresAt: specTimestamp(clock.now() + 60_000) })));
    const client = clientFor(s, serviceAccount, { clock, refreshMarginMs: 50_000 });
    await client.findBatch(one);
    clock.advance(10_001);
    await client.findBatch(one);
    expect(client.loginCount).toBe(2);
  });
});

describe('one login at a time', () => {
  it('logs in exactly once for many concurrent batches', async () => {
    const s = await serve(
      loginAndFind(async (_req, res) => {
        await new Promise((r) => setTimeout(r, 40));
        goodLogin(res, 'shared');
      }, (t) => t === 'shared'),
    );
    const client = clientFor(s, serviceAccount, { concurrency: 16 });
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => client.findBatch(queries(3, i * 3))));
    expect(results).toHaveLength(24);
    expect(client.loginCount).toBe(1);
    expect(s.count('/session')).toBe(1);
    expect(s.count('/find')).toBe(24);
  });

  it('rejects every waiter when the login fails, then recovers on the next call', async () => {
    let logins = 0;
    const s = await serve(
      loginAndFind(async (_req, res) => {
        logins++;
        await new Promise((r) => setTimeout(r, 30));
        if (logins === 1) return reply(res, 401, { error: 'invalid_client' });
        goodLogin(res, 'second');
      }),
    );
    const client = clientFor(s, serviceAccount, { concurrency: 8 });
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => client.findBatch(one)));
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof LoginFailedError)).toBe(true);
    expect(s.count('/session')).toBe(1);
    expect(s.count('/find')).toBe(0);
    await expect(client.findBatch(one)).resolves.toHaveLength(1);
    expect(s.count('/session')).toBe(2);
  });

  it('lets one waiter give up on a slow login without failing the others', async () => {
    const s = await serve(
      loginAndFind(async (_req, res) => {
        await new Promise((r) => setTimeout(r, 60));
        goodLogin(res);
      }),
    );
    const client = clientFor(s, serviceAccount);
    const controller = new AbortController();
    const leaving = client.findBatch(one, { signal: controller.signal });
    const staying = client.findBatch(one);
    setTimeout(() => controller.abort(), 10);
    await expect(leaving).rejects.toBeInstanceOf(CancelledError);
    await expect(staying).resolves.toHaveLength(1);
    expect(client.loginCount).toBe(1);
  });
});

describe('failed logins', () => {
  it('reports a non-200 session reply with its status and body, never the secret', async () => {
    const s = await serve(loginAndFind((req, res) => reply(res, 401, { message: `bad credentials for request ${req.body}` })));
    const err = (await clientFor(s, serviceAccount).findBatch(one).catch((e: unknown) => e)) as LoginFailedError;
    expect(err).toBeInstanceOf(LoginFailedError);
    expect(err.kind).toBe('login_failed');
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/Login failed \(HTTP 401\): bad credentials/);
    expect(err.message).toMatch(/client id and client secret/);
    expect(err.body).toContain('svc-123');
    expect(`${err.message} ${err.body}`).not.toContain('shh-client-secret-value');
    expect(err.message).toContain('[redacted]');
    expect(s.count('/session')).toBe(1);
  });

  it('never leaks the password of a form login, even URL-encoded in an echoed body', async () => {
    const s = await serve(loginAndFind((req, res) => reply(res, 403, `rejected: ${req.body}`)));
    const err = (await clientFor(s, password).testConnection().catch((e: unknown) => e)) as LoginFailedError;
    expect(err).toBeInstanceOf(LoginFailedError);
    expect(err.body).toContain('[redacted]');
    for (const form of ['correct horse&battery=staple', 'correct+horse%26battery%3Dstaple', encodeURIComponent('correct horse&battery=staple')]) {
      expect(err.body).not.toContain(form);
      expect(err.message).not.toContain(form);
    }
    expect(err.message).toMatch(/username and password/);
  });

  it('retries a login that meets a 503 and counts each session call', async () => {
    const s = await serve(loginAndFind((_req, res, { sameRoute }) => (sameRoute === 1 ? reply(res, 503, 'busy') : goodLogin(res))));
    const client = clientFor(s, serviceAccount);
    await client.findBatch(one);
    expect(client.loginCount).toBe(2);
  });

  it('refuses a 200 session reply without a token', async () => {
    const s = await serve(loginAndFind((_req, res) => reply(res, 200, { expiresAt: specTimestamp(Date.now() + 60_000) })));
    await expect(clientFor(s, serviceAccount).testConnection()).rejects.toThrow(MalformedReplyError);
    expect(s.count('/session')).toBe(1);
  });

  it('tests the connection by logging in, even when a token is held, and the organization by a count-only search', async () => {
    const s = await serve(loginAndFind((_req, res) => goodLogin(res)));
    const client = clientFor(s, serviceAccount);
    await client.testConnection();
    await client.testConnection();
    expect(s.requests.map((r) => r.path)).toEqual([SESSION_PATH, SEARCH_PATH, SESSION_PATH, SEARCH_PATH]);
    expect(JSON.parse(s.requests[1].body)).toMatchObject({ size: 0 });
  });

  it.each([
    [403, /no access to organization "o_test" \(HTTP 403\)/],
    [404, /nothing at \/api\/people\/v1\/o_test\/search \(HTTP 404\)/],
  ])('fails the test of a login whose organization answers %i', async (status, said) => {
    const s = await serve((req, res) => (req.path === SESSION_PATH ? goodLogin(res) : reply(res, status, { message: 'not for you' })));
    await expect(clientFor(s, serviceAccount).testConnection()).rejects.toThrow(said);
  });

  it.each([402, 503])('passes the test of a login whose organization check answers %i, asking it once', async (status) => {
    const s = await serve((req, res) => (req.path === SESSION_PATH ? goodLogin(res) : reply(res, status, { message: 'not now' })));
    await expect(clientFor(s, serviceAccount).testConnection()).resolves.toBeUndefined();
    expect(s.requests.map((r) => r.path)).toEqual([SESSION_PATH, SEARCH_PATH]);
  });
});
