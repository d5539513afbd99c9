// Replies no service should send, from the real simulator on 127.0.0.1: each is refused with its reason in words, in
// bounded memory and time. Boundedness is shown on the wire: the simulator counts how much it managed to send.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, MalformedReplyError, NetworkError, ServiceClient, type ServiceClientOptions } from '../../../electron/engine/api';
import { MAX_JOBS_PER_PERSON, MAX_LOGIN_REPLY_BYTES, MAX_PEOPLE_REPLY_BYTES } from '../../../electron/engine/api/reply-limits';
import { DEMO_ACCOUNTS, startSimulator, type Simulator } from '../../../electron/simulator';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, people: 300, seed: 7 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.setHostile({});
  sim.setLatency(0);
  sim.resetCounters();
});

function client(extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sim.baseUrl,
    orgId: sim.orgId,
    credentials: { kind: 'service_account', clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret },
    random: () => 0,
    ...extra,
  });
}

/** E-mail queries of the first `n` people: each finds one person. */
function emails(n: number) {
  return sim.dataset.people.slice(0, n).map((p) => ({ fields: [{ field_name: 'email_address', search_term: p.email_address }] }));
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call should have failed'),
    (err: unknown) => err,
  );
}

describe('a reply over the size limit', () => {
  it('stops reading a 200 MB find reply at the limit, closes the connection and does not send the call again', async () => {
    sim.setHostile({ hugeBytes: 200_000_000 });
    const err = await failure(client().findBatch(emails(3)));
    expect(err).toBeInstanceOf(MalformedReplyError);
    expect((err as Error).message).toBe(
      'The service sent a reply Matchdesk cannot read: the find reply is larger than 32.8 MB, more than any answer to the call can take, so it was not read further.',
    );
    await expect.poll(() => sim.counters().hostile.cutShort).toBe(1);
    const { hostile, findCalls } = sim.counters();
    expect(findCalls).toBe(1);
    // What the simulator got onto the wire before the client hung up: the limit, and what the socket buffers hold.
    expect(hostile.bytesSent).toBeGreaterThan(MAX_PEOPLE_REPLY_BYTES);
    expect(hostile.bytesSent).toBeLessThan(MAX_PEOPLE_REPLY_BYTES + 16 * 1024 * 1024);
  });

  it('takes a reply just under the limit it is given', async () => {
    sim.setHostile({ hugeBytes: 90_000 });
    await expect(client({ maxReplyBytes: 100_000 }).findBatch(emails(3))).resolves.toHaveLength(3);
  });

  it('refuses a search page over the limit the same way', async () => {
    sim.setHostile({ hugeBytes: 5_000_000 });
    const pages = client({ maxReplyBytes: 1_000_000 }).search({ filters: [{ type: 'must', field: 'jobs.function', match_type: 'exact', string_values: ['Legal'] }] });
    const err = await failure(pages.next());
    expect((err as Error).message).toMatch(/the search reply is larger than 1 MB/);
    expect(sim.counters().hostile.bytesSent).toBeLessThan(5_000_000);
  });

  it.each([
    ['client credentials', {}],
    ['a username and password', { credentials: { kind: 'password', username: DEMO_ACCOUNTS.username, password: DEMO_ACCOUNTS.password } }],
  ] as const)('refuses a login reply over 64 KiB (%s): the login fails with the reason, and nothing is asked', async (_kind, extra) => {
    sim.setHostile({ hugeLoginBytes: 50_000_000 });
    const err = await failure(client(extra).findBatch(emails(1)));
    expect(err).toBeInstanceOf(MalformedReplyError);
    expect((err as Error).message).toMatch(/the login reply is larger than 65\.5 KB/);
    const counters = sim.counters();
    expect(counters.findCalls).toBe(0);
    expect(counters.sessionCalls).toBe(1);
    expect(counters.hostile.bytesSent).toBeLessThan(MAX_LOGIN_REPLY_BYTES + 16 * 1024 * 1024);
  });
});

describe('a reply that breaks the spec', () => {
  it('refuses a query answered with more than 5 people, naming it', async () => {
    sim.setHostile({ candidates: 6 });
    const err = await failure(client().findBatch(emails(2)));
    expect((err as Error).message).toBe(
      'The service sent a reply Matchdesk cannot read: find result 1 holds 6 people, more than the 5 a query is answered with.',
    );
    expect(sim.counters().findCalls).toBe(1);
  });

  it('takes 5 people a query', async () => {
    sim.setHostile({ candidates: 5 });
    const answers = await client().findBatch(emails(2));
    expect(answers.map((a) => a.length)).toEqual([5, 5]);
  });

  it('refuses a person with 10,000 jobs without working through them', async () => {
    sim.setHostile({ jobs: 10_000 });
    const err = await failure(client().findBatch(emails(1)));
    expect((err as Error).message).toBe(
      `The service sent a reply Matchdesk cannot read: person 1 of find result 1 lists 10000 jobs, more than the ${MAX_JOBS_PER_PERSON} a person record may hold.`,
    );
  });

  it(`takes ${MAX_JOBS_PER_PERSON} jobs a person`, async () => {
    sim.setHostile({ jobs: MAX_JOBS_PER_PERSON });
    const [answer] = await client().findBatch(emails(1));
    expect(answer![0]!.person.jobs).toHaveLength(MAX_JOBS_PER_PERSON);
  });

  it('refuses a search page with a person of too many jobs', async () => {
    sim.setHostile({ jobs: MAX_JOBS_PER_PERSON + 1 });
    const pages = client().search({ filters: [{ type: 'must', field: 'jobs.function', match_type: 'exact', string_values: ['Legal'] }] });
    const err = await failure(pages.next());
    expect((err as Error).message).toMatch(new RegExp(`person 1 of a search page lists ${MAX_JOBS_PER_PERSON + 1} jobs`));
  });

  it('refuses bytes that are not UTF-8 instead of reading U+FFFD into a name, and does not send again', async () => {
    sim.setHostile({ badUtf8: true });
    const err = await failure(client().findBatch(emails(2)));
    expect(err).toBeInstanceOf(MalformedReplyError);
    expect((err as Error).message).toBe(
      'The service sent a reply Matchdesk cannot read: the find reply is not valid UTF-8 text, so no name in it can be trusted.',
    );
    expect(sim.counters().findCalls).toBe(1);
  });
});

describe('deadlines', () => {
  it('gives up on a reply whose headers do not come within the first-byte deadline', async () => {
    sim.setLatency(3_000);
    const err = await failure(client({ firstByteTimeoutMs: 200, maxAttempts: 1 }).findBatch(emails(1)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/no answer within 0\.2 s/);
  });

  it('cuts off a body that trickles in at the reply deadline, and stops retrying once the call is out of time', async () => {
    sim.setHostile({ trickleBytesPerSecond: 100 });
    const err = await failure(client({ timeoutMs: 500, callBudgetMs: 1_200, maxAttempts: 10 }).findBatch(emails(2)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/the find reply did not arrive in full within 0\.5 s/);
    expect((err as Error).message).toMatch(/Matchdesk stopped after \d attempts: a call is not sent again once 1\.2 s have passed since it was first sent\./);
    // Far fewer than the ten attempts allowed: the budget ended it; every trickle was cut short by the client.
    const { findCalls, hostile } = sim.counters();
    expect(findCalls).toBeLessThan(10);
    await expect.poll(() => sim.counters().hostile.cutShort).toBe(findCalls);
    expect(hostile.bytesSent).toBeLessThan(1_000);
  });

  it('cuts off a login reply that trickles in at the reply deadline', async () => {
    sim.setHostile({ trickleLoginBytesPerSecond: 20 });
    const err = await failure(client({ timeoutMs: 300, callBudgetMs: 500, maxAttempts: 3 }).findBatch(emails(1)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/the login reply did not arrive in full within 0\.3 s/);
    expect(sim.counters().findCalls).toBe(0);
  });

  it('abandons a login that trickles in once the only call waiting on it is cancelled, and logs in afresh next time', async () => {
    sim.setHostile({ trickleLoginBytesPerSecond: 20 });
    const service = client();
    const stop = new AbortController();
    const call = failure(service.findBatch(emails(1), { signal: stop.signal }));
    await expect.poll(() => sim.counters().hostile.bytesSent).toBeGreaterThan(0);
    stop.abort();
    expect(await call).toBeInstanceOf(CancelledError);
    await expect.poll(() => sim.counters().hostile.cutShort).toBe(1);
    sim.setHostile({});
    await expect(service.findBatch(emails(1))).resolves.toHaveLength(1);
    expect(sim.counters().sessionCalls).toBe(2);
  });

  it('abandons a trickling reply at once when the call is cancelled', async () => {
    sim.setHostile({ trickleBytesPerSecond: 100 });
    const stop = new AbortController();
    const call = failure(client().findBatch(emails(2), { signal: stop.signal }));
    await expect.poll(() => sim.counters().hostile.bytesSent).toBeGreaterThan(0);
    stop.abort();
    expect(await call).toBeInstanceOf(CancelledError);
    await expect.poll(() => sim.counters().hostile.cutShort).toBe(1);
  });
});
