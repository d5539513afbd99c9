import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../electron/engine/clock';
import {
  BadRequestError,
  CancelledError,
  ForbiddenError,
  MalformedReplyError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ServerError,
  ServiceClient,
  UnauthorizedError,
  UnexpectedStatusError,
  isRetryable,
  parseFindReply,
  replyJson,
  toErrorInfo,
  type CreditsReport,
  type Credentials,
  type ServiceClientOptions,
} from '../../../electron/engine/api';
import type { ReplyBody } from '../../../electron/engine/api/transport';
import { FIND_PATH, ORG, SESSION_PATH, bearer, echoFind, queries, reply, specTimestamp, startScriptServer, waitFor, type Script, type ScriptServer } from './script-server';

const credentials: Credentials = { kind: 'service_account', clientId: 'svc', clientSecret: 'top-secret-value' };
const one = queries(1);

let server: ScriptServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Logs in (valid an hour by `clock`), then answers finds with `find`. */
async function serve(find: Script, clock: { now(): number } = Date): Promise<ScriptServer> {
  let issued = 0;
  server = await startScriptServer((req, res, seen) => {
    if (req.path === SESSION_PATH) return reply(res, 200, { accessToken: `token-${++issued}`, expiresAt: specTimestamp(clock.now() + 3_600_000) });
    if (req.path === FIND_PATH) return find(req, res, seen);
    reply(res, 404, 'no such route');
  });
  return server;
}

function clientFor(s: ScriptServer, extra: Partial<ServiceClientOptions> = {}) {
  return new ServiceClient({ baseUrl: s.baseUrl, orgId: ORG, credentials, random: () => 0, maxAttempts: 4, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call should have failed'),
    (err: unknown) => err,
  );
}

/** Fails the first `times` finds with `fail`, then answers properly. */
function failing(times: number, fail: Script): Script {
  return (req, res, seen) => (seen.sameRoute <= times ? fail(req, res, seen) : reply(res, 200, echoFind(req)));
}

describe('429: rate limited', () => {
  it('waits exactly the Retry-After seconds, twice, then succeeds', async () => {
    const clock = new ManualClock();
    const s = await serve(failing(2, (_req, res) => reply(res, 429, { message: 'slow down' }, { 'retry-after': '7' })), clock);
    const call = clientFor(s, { clock }).findBatch(one);
    await waitFor(() => clock.pending === 1, 'the first wait');
    clock.advance(6_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.count('/find')).toBe(1);
    clock.advance(1);
    await waitFor(() => s.count('/find') === 2 && clock.pending === 1, 'the second wait');
    clock.advance(7_000);
    await expect(call).resolves.toHaveLength(1);
    expect(s.count('/find')).toBe(3);
  });

  it('does not wait a Retry-After that would end past the call budget: fails then, saying why', async () => {
    const clock = new ManualClock();
    const s = await serve((_req, res) => reply(res, 429, { message: 'slow down' }, { 'retry-after': '70' }), clock);
    const call = failure(clientFor(s, { clock, maxAttempts: 5 }).findBatch(one));
    await waitFor(() => clock.pending === 1, 'the first wait');
    clock.advance(70_000);
    const err = await call;
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as Error).message).toMatch(
      /after 2 attempts.* Matchdesk stopped after 2 attempts: the service asked to wait 70 s before the next, and a call is not sent again once 2 min have passed since it was first sent\.$/,
    );
    expect(s.count('/find')).toBe(2);
  });

  it('says how long the service asked to wait when that is past the call budget at once (a year, for ever)', async () => {
    for (const [header, said] of [
      ['31536000', '365 days'],
      ['7200', '2 h'],
      ['300', '5 min'],
      ['9'.repeat(400), 'for ever'],
    ]) {
      const clock = new ManualClock();
      const s = await serve((_req, res) => reply(res, 429, { message: 'slow down' }, { 'retry-after': header! }), clock);
      const err = await failure(clientFor(s, { clock, maxAttempts: 5 }).findBatch(one));
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as Error).message).toMatch(new RegExp(`Matchdesk stopped after 1 attempt: the service asked to wait ${said} before the next, and a call is not sent again once 2 min`));
      expect(s.count('/find')).toBe(1);
      await s.close();
      server = null;
    }
  });

  it('honours a Retry-After given as an HTTP-date', async () => {
    const clock = new ManualClock();
    const s = await serve(failing(1, (_req, res) => reply(res, 429, 'later', { 'retry-after': new Date(clock.now() + 3_000).toUTCString() })), clock);
    const call = clientFor(s, { clock }).findBatch(one);
    await waitFor(() => clock.pending === 1, 'the wait');
    clock.advance(2_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.count('/find')).toBe(1);
    clock.advance(1);
    await expect(call).resolves.toHaveLength(1);
  });

  it('backs off exponentially with jitter when no Retry-After is sent', async () => {
    const clock = new ManualClock();
    const s = await serve(failing(2, (_req, res) => reply(res, 429, 'slow')), clock);
    const call = clientFor(s, { clock, random: () => 1 }).findBatch(one);
    await waitFor(() => clock.pending === 1, 'the first backoff');
    clock.advance(499);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.count('/find')).toBe(1);
    clock.advance(1);
    await waitFor(() => s.count('/find') === 2 && clock.pending === 1, 'the second backoff');
    clock.advance(999);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.count('/find')).toBe(2);
    clock.advance(1);
    await expect(call).resolves.toHaveLength(1);
  });

  it('gives up after maxAttempts sends with RateLimited', async () => {
    const s = await serve((_req, res) => reply(res, 429, { error: 'quota per minute exceeded' }));
    const err = (await failure(clientFor(s).findBatch(one))) as RateLimitedError;
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.status).toBe(429);
    expect(err.message).toMatch(/after 4 attempts: quota per minute exceeded/);
    expect(isRetryable(err)).toBe(true);
    expect(s.count('/find')).toBe(4);
  });
});

describe('5xx: server errors', () => {
  it.each([500, 502, 503, 504])('retries %i and then succeeds', async (status) => {
    const s = await serve(failing(2, (_req, res) => reply(res, status, '<html><body>Bad gateway</body></html>')));
    await expect(clientFor(s).findBatch(one)).resolves.toHaveLength(1);
    expect(s.count('/find')).toBe(3);
  });

  it('gives up after maxAttempts with ServerError carrying the status and text', async () => {
    const s = await serve((_req, res) => reply(res, 503, 'Service Unavailable: maintenance'));
    const err = (await failure(clientFor(s, { maxAttempts: 3 }).findBatch(one))) as ServerError;
    expect(err).toBeInstanceOf(ServerError);
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/HTTP 503 3 times in a row: Service Unavailable: maintenance/);
    expect(s.count('/find')).toBe(3);
  });

  it('does not retry a 5xx that says the request itself is unsupported (501)', async () => {
    const s = await serve((_req, res) => reply(res, 501, 'not implemented'));
    expect(await failure(clientFor(s).findBatch(one))).toBeInstanceOf(ServerError);
    expect(s.count('/find')).toBe(1);
  });
});

describe('network faults', () => {
  it('retries a reset connection', async () => {
    const s = await serve(failing(2, (_req, res) => void res.socket?.destroy()));
    await expect(clientFor(s).findBatch(one)).resolves.toHaveLength(1);
    expect(s.count('/find')).toBe(3);
  });

  it('gives up on resets with a NetworkError that says what happened', async () => {
    const s = await serve((_req, res) => void res.socket?.destroy());
    const err = (await failure(clientFor(s, { maxAttempts: 2 }).findBatch(one))) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/127\.0\.0\.1:\d+/);
    expect(err.message).toMatch(/(2 attempts)/);
    expect(isRetryable(err)).toBe(true);
    expect(s.count('/find')).toBe(2);
  });

  it('retries a body cut off before its announced length', async () => {
    const s = await serve(
      failing(1, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('[[{"id":"p0"');
        setTimeout(() => res.socket?.destroy(), 5);
      }),
    );
    await expect(clientFor(s).findBatch(one)).resolves.toEqual([[{ rank: 1, score: null, person: { id: 'p0' } }]]);
    expect(s.count('/find')).toBe(2);
  });

  it('times out a request that never answers, then retries it', async () => {
    const s = await serve(failing(1, () => undefined));
    await expect(clientFor(s, { timeoutMs: 150 }).findBatch(one)).resolves.toHaveLength(1);
    expect(s.count('/find')).toBe(2);
  });

  it('reports a timeout after the last attempt as a NetworkError', async () => {
    const s = await serve(() => undefined);
    const err = await failure(clientFor(s, { timeoutMs: 100, maxAttempts: 2 }).findBatch(one));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toMatch(/no answer within 0\.1 s/);
  });

  it('reports a refused connection', async () => {
    const s = await serve(() => undefined);
    const baseUrl = s.baseUrl;
    await s.close();
    server = null;
    const err = await failure(new ServiceClient({ baseUrl, orgId: ORG, credentials, random: () => 0, maxAttempts: 2 }).findBatch(one));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toMatch(/refused/);
  });
});

describe('malformed replies', () => {
  it('retries a reply that is not JSON (a truncated body on the real network)', async () => {
    const s = await serve(failing(1, (_req, res) => reply(res, 200, '[[{"id": "p0"}, ')));
    await expect(clientFor(s).findBatch(one)).resolves.toHaveLength(1);
    expect(s.count('/find')).toBe(2);
  });

  it('gives up on bad JSON after maxAttempts with a transient MalformedReply', async () => {
    const s = await serve((_req, res) => reply(res, 200, 'not json at all'));
    const err = (await failure(clientFor(s).findBatch(one))) as MalformedReplyError;
    expect(err).toBeInstanceOf(MalformedReplyError);
    expect(err.transient).toBe(true);
    expect(s.count('/find')).toBe(4);
  });

  it('hands a reply\'s body to the reader it is given, and sends the call again when that reader finds it cut off', async () => {
    const s = await serve(failing(1, (_req, res) => reply(res, 200, '[[{"id": "p0"}, ')));
    const texts: string[] = [];
    // The matching run reads replies on its verdict worker: a reader that reads elsewhere, asynchronously, from the bytes.
    const read = async (body: ReplyBody) => {
      const text = new TextDecoder().decode(body.bytes);
      expect(body.text).toBe(text);
      texts.push(text);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return parseFindReply(replyJson(text), 1).map((candidates) => candidates.length);
    };
    await expect(clientFor(s).findBatchReading(one, read)).resolves.toEqual([1]);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toBe('[[{"id": "p0"}, ');
    expect(s.count('/find')).toBe(2);

    // Any other failure of the reader fails the call at once, as it is.
    const refused = new MalformedReplyError('a shape the reader refuses');
    const err = await failure(clientFor(s).findBatchReading(one, () => Promise.reject(refused)));
    expect(err).toBe(refused);
    expect(s.count('/find')).toBe(3);
  });

  it('fails a call whose reply has fewer items than queries, without retrying or shifting', async () => {
    const s = await serve((req, res) => reply(res, 200, echoFind(req).slice(1)));
    const err = (await failure(clientFor(s).findBatch(queries(3)))) as MalformedReplyError;
    expect(err).toBeInstanceOf(MalformedReplyError);
    expect(err.message).toMatch(/2 items for 3 queries/);
    expect(err.transient).toBe(false);
    expect(s.count('/find')).toBe(1);
  });
});

describe('answers that are never retried', () => {
  it.each([
    [400, { message: 'unknown field_name "mail"' }, BadRequestError, /invalid \(HTTP 400\): unknown field_name "mail"/],
    [402, { error: 'credit limit reached' }, PaymentRequiredError, /out of credits \(HTTP 402\): credit limit reached.*add credits/],
    [403, { message: 'missing role people:read' }, ForbiddenError, /organization "o_test" \(HTTP 403\): missing role people:read/],
    [404, 'Not Found', NotFoundError, /nothing at \/api\/people\/v1\/o_test\/find \(HTTP 404\): Not Found/],
    [409, 'conflict', UnexpectedStatusError, /HTTP 409: conflict/],
  ] as const)('%i comes back typed with the body text after one send', async (status, body, type, message) => {
    const s = await serve((_req, res) => reply(res, status, body));
    const err = (await failure(clientFor(s).findBatch(one))) as InstanceType<typeof type>;
    expect(err).toBeInstanceOf(type);
    expect(err.status).toBe(status);
    expect(err.message).toMatch(message);
    expect(err.body).toBe(typeof body === 'string' ? body : JSON.stringify(body));
    expect(isRetryable(err)).toBe(false);
    expect(toErrorInfo(err)).toMatchObject({ status });
    expect(s.count('/find')).toBe(1);
  });

  it('scrubs the access token from a body that echoes the request headers', async () => {
    const s = await serve((req, res) => reply(res, 400, { message: `bad request with Authorization: Bearer ${bearer(req)}` }));
    const err = (await failure(clientFor(s).findBatch(one))) as BadRequestError;
    expect(err.body).not.toContain('token-1');
    expect(err.message).not.toContain('token-1');
    expect(err.message).toContain('Bearer [redacted]');
  });
});

describe('401: a token refused before its time', () => {
  it('logs in once for all concurrent calls that saw the same revoked token, and resends each once', async () => {
    const valid = new Set<string>();
    let issued = 0;
    let refused = 0;
    server = await startScriptServer(async (req, res) => {
      if (req.path === SESSION_PATH) {
        await new Promise((r) => setTimeout(r, 20));
        const token = `token-${++issued}`;
        valid.add(token);
        return reply(res, 200, { accessToken: token, expiresAt: specTimestamp(Date.now() + 3_600_000) });
      }
      if (!valid.has(bearer(req) ?? '')) {
        // Later refusals land after the new login is done: they must reuse its token, not log in again.
        if (++refused > 1) await new Promise((r) => setTimeout(r, 60));
        return reply(res, 401, { message: 'token revoked' });
      }
      reply(res, 200, echoFind(req));
    });
    const client = clientFor(server, { concurrency: 8 });
    await client.findBatch(one);
    valid.clear();
    const results = await Promise.all(Array.from({ length: 8 }, () => client.findBatch(one)));
    expect(results.every((r) => r.length === 1)).toBe(true);
    expect(client.loginCount).toBe(2);
    expect(server.count('/find')).toBe(1 + 8 + 8);
  });

  it('logs in again on each attempt whose token was revoked, when a server error came between', async () => {
    // 401 (token revoked) -> log in, resend -> 503 -> back off -> 401 (revoked again) -> log in, resend -> 200.
    const script: Script[] = [
      (_req, res) => reply(res, 401, { message: 'token revoked' }),
      (_req, res) => reply(res, 503, 'busy'),
      (_req, res) => reply(res, 401, { message: 'token revoked' }),
    ];
    const s = await serve((req, res, seen) => (script[seen.sameRoute - 1] ?? ((r, w) => reply(w, 200, echoFind(r))))(req, res, seen));
    const client = clientFor(s);
    const answers = await client.findBatch(one);
    expect(answers).toHaveLength(1);
    expect(client.loginCount).toBe(3);
    expect(s.count('/find')).toBe(4);
  });

  it('gives up with Unauthorized when the fresh token is refused too', async () => {
    const s = await serve((_req, res) => reply(res, 401, { message: 'nope' }));
    const client = clientFor(s);
    const err = (await failure(client.findBatch(one))) as UnauthorizedError;
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/after logging in/);
    expect(client.loginCount).toBe(2);
    expect(s.count('/find')).toBe(2);
  });
});

describe('cancellation', () => {
  it('stops a call waiting out a backoff', async () => {
    const clock = new ManualClock();
    const s = await serve((_req, res) => reply(res, 503, 'down'), clock);
    const controller = new AbortController();
    const call = clientFor(s, { clock, random: () => 1 }).findBatch(one, { signal: controller.signal });
    await waitFor(() => clock.pending === 1, 'the backoff');
    controller.abort();
    expect(await failure(call)).toBeInstanceOf(CancelledError);
    expect(s.count('/find')).toBe(1);
  });

  it('stops a call whose request is in flight', async () => {
    const s = await serve(() => undefined);
    const controller = new AbortController();
    const call = clientFor(s).findBatch(one, { signal: controller.signal });
    await waitFor(() => s.count('/find') === 1, 'the request');
    controller.abort();
    const err = await failure(call);
    expect(err).toBeInstanceOf(CancelledError);
    expect(toErrorInfo(err).kind).toBe('cancelled');
  });
});

describe('credits', () => {
  it('reports the X-LDT-Credits headers of each reply, including a 402', async () => {
    const s = await serve((req, res, { sameRoute }) =>
      sameRoute === 1
        ? reply(res, 200, echoFind(req), { 'x-ldt-credits-used': '12', 'x-ldt-credits-remaining': '88' })
        : sameRoute === 2
          ? reply(res, 200, echoFind(req))
          : reply(res, 402, 'no credits', { 'X-LDT-Credits-Remaining': '0' }),
    );
    const seen: CreditsReport[] = [];
    const client = clientFor(s, { onCredits: (c) => seen.push(c) });
    await client.findBatch(one);
    await client.findBatch(one);
    await expect(client.findBatch(one)).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(seen).toEqual([{ used: 12, remaining: 88 }, { used: null, remaining: 0 }]);
  });
});
