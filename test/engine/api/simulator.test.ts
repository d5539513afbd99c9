// The client against the whole local People Data Service (electron/simulator) over real HTTP on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FindQuery } from '../../../shared/model';
import { ManualClock } from '../../../electron/engine/clock';
import { FAULT_PROFILES, FIND_SHAPES, startSimulator, type Simulator } from '../../../electron/simulator';
import {
  BadRequestError,
  CancelledError,
  ForbiddenError,
  LoginFailedError,
  MalformedReplyError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ServerError,
  ServiceClient,
  UnauthorizedError,
  type CreditsReport,
  type Credentials,
  type SearchPage,
  type ServiceClientOptions,
} from '../../../electron/engine/api';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, people: 2_000, seed: 7 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(() => {
  sim.setFaults('none');
  sim.setFindShape('array');
  sim.setLatency(0);
  sim.resetCounters();
});

const serviceAccount = (): Credentials => ({ kind: 'service_account', clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret });
const password = (): Credentials => ({ kind: 'password', username: sim.demo.username, password: sim.demo.password });
const apiKey = (): Credentials => ({ kind: 'api_key', apiKey: sim.demo.apiKey });

function clientFor(extra: Partial<ServiceClientOptions> = {}, target: Simulator = sim): ServiceClient {
  return new ServiceClient({ baseUrl: target.baseUrl, orgId: target.orgId, credentials: serviceAccount(), random: () => 0, ...extra });
}

/** Query i asks for dataset person `from + i` by e-mail, so alignment is checkable by id. */
function emailQueries(n: number, from = 0): FindQuery[] {
  return sim.dataset.people.slice(from, from + n).map((p) => ({ fields: [{ field_name: 'email_address', search_term: p.email_address }] }));
}

function expectAligned(results: { person: Record<string, unknown> }[][], from = 0): void {
  results.forEach((candidates, i) => expect(candidates[0]?.person.id, `query ${i}`).toBe(sim.dataset.people[from + i].id));
}

describe('logging in to the simulator', () => {
  it.each([
    ['client credentials', serviceAccount, 1],
    ['username and password', password, 1],
    ['an API key', apiKey, 0],
  ] as const)('finds people with %s', async (_label, credentials, logins) => {
    const client = clientFor({ credentials: credentials() });
    const results = await client.findBatch(emailQueries(5));
    expectAligned(results);
    // The simulator sends no scores unless asked, as the real service: the client reports none.
    expect(results[0][0]).toMatchObject({ rank: 1, score: null });
    expect(client.loginCount).toBe(logins);
    expect(sim.counters().sessionCalls).toBe(logins);
  });

  it('reports a wrong client secret as LoginFailed with the service text', async () => {
    const err = await clientFor({ credentials: { kind: 'service_account', clientId: sim.demo.clientId, clientSecret: 'wrong-secret-123' } })
      .testConnection()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoginFailedError);
    expect((err as LoginFailedError).status).toBe(401);
    expect((err as LoginFailedError).message).toMatch(/Invalid client id or client secret/);
    expect((err as LoginFailedError).message).not.toContain('wrong-secret-123');
  });

  it('reports a wrong API key as Unauthorized without logging in', async () => {
    const client = clientFor({ credentials: { kind: 'api_key', apiKey: 'mdk_not_the_key' } });
    await expect(client.testConnection()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(sim.counters()).toMatchObject({ sessionCalls: 0, findCalls: 1 });
  });

  it('tests the connection of each credential kind', async () => {
    for (const credentials of [serviceAccount(), password(), apiKey()]) await clientFor({ credentials }).testConnection();
    // A login does not name the organization: each is followed by a count-only search that does.
    expect(sim.counters()).toMatchObject({ sessionCalls: 2, searchCalls: 2, findCalls: 1 });
  });

  it('tests the organization too, at no credit: a wrong one fails the test as the service would answer it', async () => {
    const metered = await startSimulator({ port: 0, people: 200, seed: 7, creditBudget: 5 });
    try {
      const reports: CreditsReport[] = [];
      await clientFor({ onCredits: (c) => reports.push(c) }, metered).testConnection();
      expect(reports).toEqual([{ used: 0, remaining: 5 }]);
      const other = new ServiceClient({ baseUrl: metered.baseUrl, orgId: metered.otherOrgId, credentials: serviceAccount(), random: () => 0 });
      await expect(other.testConnection()).rejects.toBeInstanceOf(ForbiddenError);
      const unknown = new ServiceClient({ baseUrl: metered.baseUrl, orgId: 'o_nowhere', credentials: serviceAccount(), random: () => 0 });
      await expect(unknown.testConnection()).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await metered.close();
    }
  });

  it('logs in once for many concurrent batches', async () => {
    sim.setLatency(5);
    const client = clientFor({ concurrency: 8 });
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => client.findBatch(emailQueries(10, i * 10))));
    results.forEach((r, i) => expectAligned(r, i * 10));
    expect(client.loginCount).toBe(1);
    expect(sim.counters().sessionCalls).toBe(1);
  });
});

describe('token lifetime against the simulator', () => {
  it.each([
    ['client credentials (expiresAt)', serviceAccount],
    ['username and password (expires_in)', password],
  ] as const)('refreshes %s before the simulator would refuse it', async (_label, credentials) => {
    const clock = new ManualClock(Date.now());
    const timed = await startSimulator({ port: 0, people: 50, seed: 3, tokenTtlS: 600, clock });
    try {
      const client = clientFor({ clock, credentials: credentials() }, timed);
      const ask = [{ fields: [{ field_name: 'email_address', search_term: timed.dataset.people[0].email_address }] }];
      await client.findBatch(ask);
      clock.advance(600_000 - 25_000 - 1);
      await client.findBatch(ask);
      expect(client.loginCount).toBe(1);
      clock.advance(2);
      await client.findBatch(ask);
      expect(client.loginCount).toBe(2);
      // Past the first token's expiry: only the refreshed token can still work.
      clock.advance(30_000);
      await client.findBatch(ask);
      expect(timed.counters()).toMatchObject({ sessionCalls: 2, findCalls: 4 });
    } finally {
      await timed.close();
    }
  });

  it('recovers from revoked tokens with one login shared by the calls that saw them', async () => {
    const client = clientFor({ concurrency: 6 });
    await client.findBatch(emailQueries(1));
    sim.revokeAllTokens();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => client.findBatch(emailQueries(3, i * 3))));
    results.forEach((r, i) => expectAligned(r, i * 3));
    expect(client.loginCount).toBe(2);
  });
});

describe('find against the simulator', () => {
  it.each(FIND_SHAPES)('reads the %s reply shape with the same candidates', async (shape) => {
    const queries: FindQuery[] = [
      ...emailQueries(2),
      { fields: [{ field_name: 'email_address', search_term: 'nobody@nowhere.invalid' }] },
      { fields: [{ field_name: 'social', search_term: sim.dataset.people[3].linkedin }] },
      { fields: [{ field_name: 'name', search_term: sim.dataset.people[4].name }] },
    ];
    const baseline = await clientFor().findBatch(queries);
    sim.setFindShape(shape);
    const results = await clientFor().findBatch(queries);
    expect(results).toEqual(baseline);
    expect(results[0][0].person.id).toBe(sim.dataset.people[0].id);
    expect(results[2]).toEqual([]);
    expect(results[3][0].person.id).toBe(sim.dataset.people[3].id);
    expect(results[4].length).toBeGreaterThan(0);
    expect(results[4].length).toBeLessThanOrEqual(5);
    expect(results[4].map((c) => c.rank)).toEqual(results[4].map((_, i) => i + 1));
  });

  it('splits 250 queries into calls of at most 100 and keeps each result with its query', async () => {
    const results = await clientFor().find(emailQueries(250, 100));
    expect(results).toHaveLength(250);
    expectAligned(results, 100);
    expect(sim.counters()).toMatchObject({ findCalls: 3, queries: 250 });
  });

  it('refuses an org the account has no role on (403) without retrying, naming the org', async () => {
    const err = await clientFor({ orgId: sim.otherOrgId }).findBatch(emailQueries(1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).message).toContain(sim.otherOrgId);
    expect(sim.counters().findCalls).toBe(1);
  });

  it('reports an unknown org as NotFound', async () => {
    await expect(clientFor({ orgId: 'o_missing' }).findBatch(emailQueries(1))).rejects.toBeInstanceOf(NotFoundError);
    expect(sim.counters().findCalls).toBe(1);
  });

  it('reports a bad query as BadRequest with the service text, without retrying', async () => {
    const err = await clientFor().findBatch([{ fields: [{ field_name: 'shoe_size', search_term: '42' }] }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/shoe_size/);
    expect(sim.counters().findCalls).toBe(1);
  });

  it('reports credits and stops with PaymentRequired once they are spent', async () => {
    const metered = await startSimulator({ port: 0, people: 200, seed: 5, creditBudget: 12 });
    try {
      const seen: CreditsReport[] = [];
      const client = clientFor({ onCredits: (c) => seen.push(c) }, metered);
      const ask = (from: number, n: number) =>
        metered.dataset.people.slice(from, from + n).map((p) => ({ fields: [{ field_name: 'email_address', search_term: p.email_address }] }));
      await client.findBatch(ask(0, 10));
      expect(seen.at(-1)).toEqual({ used: 10, remaining: 2 });
      const err = await client.findBatch(ask(10, 10)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PaymentRequiredError);
      expect((err as PaymentRequiredError).message).toMatch(/credits/);
      expect(metered.counters().findCalls).toBe(2);
    } finally {
      await metered.close();
    }
  });
});

describe('faults from the simulator', () => {
  it('gives up on an outage after maxAttempts with ServerError', async () => {
    sim.setFaults('outage');
    const err = await clientFor({ maxAttempts: 3 }).findBatch(emailQueries(1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(sim.counters().findCalls).toBe(3);
  });

  it('gives up on constant 429s with RateLimited', async () => {
    sim.setFaults({ rate429: 1, retryAfterS: 0 });
    await expect(clientFor({ maxAttempts: 3 }).findBatch(emailQueries(1))).rejects.toBeInstanceOf(RateLimitedError);
    expect(sim.counters().findCalls).toBe(3);
  });

  it('gives up on constantly cut-off replies with MalformedReply', async () => {
    sim.setFaults({ rateMalformed: 1 });
    const err = await clientFor({ maxAttempts: 3 }).findBatch(emailQueries(2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedReplyError);
    expect((err as MalformedReplyError).transient).toBe(true);
    expect(sim.counters().findCalls).toBe(3);
  });

  it('completes a chaotic run (429, 5xx, resets, cut-off JSON, revoked tokens, a flaky login) with every result in place', async () => {
    // Revoking every 5th call: the 12 calls (and their retries) are sure to meet revoked tokens.
    sim.setFaults({ ...FAULT_PROFILES.chaos, retryAfterS: 0, revokeEveryCalls: 5 });
    const client = clientFor({ maxAttempts: 15, concurrency: 4 });
    const results = await client.find(emailQueries(1_200));
    expectAligned(results);
    const { faults } = sim.counters();
    expect(faults['429'] + faults['5xx'] + faults.reset + faults.malformed).toBeGreaterThan(5);
    expect(faults.revoked).toBeGreaterThan(0);
  });

  it('stops a call waiting on a slow reply when cancelled', async () => {
    sim.setLatency(2_000);
    const controller = new AbortController();
    const call = clientFor({ credentials: apiKey() }).findBatch(emailQueries(1), { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(call).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('search against the simulator', () => {
  const filters = [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Engineering'] }];

  it('pages through every result exactly once', async () => {
    const pages: SearchPage[] = [];
    for await (const page of clientFor().search({ filters }, { pageSize: 40 })) pages.push(page);
    const ids = pages.flatMap((p) => p.people.map((x) => x.id));
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(pages[0].count);
    expect(pages.at(-1)!.token).toBeNull();
    expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
  });

  it('survives faults while paging', async () => {
    sim.setFaults({ rate429: 0.2, rate5xx: 0.2, rateMalformed: 0.1, retryAfterS: 0 });
    let total = 0;
    let count: number | null = null;
    for await (const page of clientFor({ maxAttempts: 15 }).search({ filters }, { pageSize: 25 })) {
      total += page.people.length;
      count = page.count;
    }
    expect(total).toBe(count);
  });
});
