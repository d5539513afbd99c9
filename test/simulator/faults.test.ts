import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProfileError, startSimulator, type Person, type Simulator } from '../../electron/simulator';
import { find, loginWithClientCredentials, message, postJson, search, type Term } from './http';

let sim: Simulator;
let people: Person[];

beforeAll(async () => {
  sim = await startSimulator({ people: 1000, seed: 9 });
  people = sim.dataset.people;
});
afterAll(() => sim.close());

const byEmail = (p: Person): Term[] => [{ field_name: 'email_address', search_term: p.email_address }];

/** Runs `body` with a fault profile, counters fresh, and puts 'none' back afterwards. */
async function withFaults(profile: Parameters<Simulator['setFaults']>[0], body: () => Promise<void>): Promise<void> {
  sim.setFaults(profile);
  sim.resetCounters();
  try {
    await body();
  } finally {
    sim.setFaults('none');
  }
}

/** Status of a find call, or 'reset' when the connection was dropped. */
async function status(target: Simulator, bearer: string, query: Term[][]): Promise<number | 'reset'> {
  try {
    return (await find(target, bearer, query)).status;
  } catch {
    return 'reset';
  }
}

describe('faults', () => {
  it('429 carries Retry-After in seconds and is counted', async () => {
    await withFaults({ rate429: 1, retryAfterS: 2 }, async () => {
      const reply = await find(sim, sim.demo.apiKey, [byEmail(people[0])]);
      expect(reply.status).toBe(429);
      expect(reply.headers.get('retry-after')).toBe('2');
      expect(sim.counters().faults['429']).toBe(1);
      expect(sim.counters().queries).toBe(0);
    });
  });

  it('5xx answers 500, 502 or 503, and 502 is an HTML page', async () => {
    await withFaults('outage', async () => {
      const statuses = new Set<number>();
      for (let i = 0; i < 30; i++) {
        const reply = await find(sim, sim.demo.apiKey, [byEmail(people[0])]);
        statuses.add(reply.status);
        if (reply.status === 502) expect(reply.headers.get('content-type')).toMatch(/text\/html/);
      }
      expect([...statuses].sort()).toEqual([500, 502, 503]);
      expect(sim.counters().faults['5xx']).toBe(30);
    });
  });

  it('a reset drops the connection without a reply', async () => {
    await withFaults({ rateReset: 1 }, async () => {
      await expect(find(sim, sim.demo.apiKey, [byEmail(people[0])])).rejects.toThrow();
      expect(sim.counters().faults.reset).toBe(1);
    });
  });

  it('malformed replies are 200 with truncated JSON, and their queries are not counted as answered', async () => {
    await withFaults({ rateMalformed: 1 }, async () => {
      const reply = await find(sim, sim.demo.apiKey, [byEmail(people[0]), byEmail(people[1])]);
      expect(reply.status).toBe(200);
      expect(reply.json).toBeUndefined();
      expect(reply.text.length).toBeGreaterThan(0);
      expect(sim.counters().faults.malformed).toBe(1);
      expect(sim.counters().queries).toBe(0);
    });
  });

  it('revokes session tokens every N people calls; API keys survive', async () => {
    await withFaults({ revokeEveryCalls: 3 }, async () => {
      const token = await loginWithClientCredentials(sim);
      expect(await status(sim, token, [byEmail(people[0])])).toBe(200);
      expect(await status(sim, token, [byEmail(people[0])])).toBe(200);
      const third = await find(sim, token, [byEmail(people[0])]);
      expect(third.status).toBe(401);
      expect(message(third)).toMatch(/revoked/);
      expect(await status(sim, token, [byEmail(people[0])])).toBe(401);
      const fresh = await loginWithClientCredentials(sim);
      expect(await status(sim, fresh, [byEmail(people[0])])).toBe(200);
      expect(await status(sim, sim.demo.apiKey, [byEmail(people[0])])).toBe(200);
      expect(sim.counters().faults.revoked).toBe(1);
    });
  });

  it('leaves the session endpoint alone unless the profile includes it', async () => {
    await withFaults('outage', async () => {
      expect(await loginWithClientCredentials(sim)).toEqual(expect.any(String));
    });
    await withFaults({ rate5xx: 1, includeSession: true }, async () => {
      await expect(loginWithClientCredentials(sim)).rejects.toThrow(/login failed: 50/);
    });
  });

  it('flaky mixes every kind of fault at roughly its rate, and counts each', async () => {
    await withFaults('flaky', async () => {
      const seen: Record<string, number> = {};
      for (let i = 0; i < 300; i++) {
        const s = await status(sim, sim.demo.apiKey, [byEmail(people[i])]);
        seen[s] = (seen[s] ?? 0) + 1;
      }
      const c = sim.counters();
      expect(c.findCalls).toBe(300);
      expect(c.faults['429']).toBe(seen['429']);
      expect(c.faults['429']).toBeGreaterThan(10);
      expect(c.faults['429']).toBeLessThan(60);
      expect(c.faults['5xx']).toBe((seen['500'] ?? 0) + (seen['502'] ?? 0) + (seen['503'] ?? 0));
      expect(c.faults.reset).toBe(seen.reset ?? 0);
      expect(c.faults['5xx'] + c.faults.reset + c.faults.malformed).toBeGreaterThan(5);
      expect(c.queries).toBe(300 - c.faults['429'] - c.faults['5xx'] - c.faults.reset - c.faults.malformed);
    });
  });

  it('rolls the same faults for the same seed and call sequence', async () => {
    const run = async () => {
      const s = await startSimulator({ people: 200, seed: 21, faults: 'chaos' });
      try {
        const statuses: (number | 'reset')[] = [];
        for (let i = 0; i < 40; i++) statuses.push(await status(s, s.demo.apiKey, [byEmail(s.dataset.people[i])]));
        return statuses;
      } finally {
        await s.close();
      }
    };
    const first = await run();
    expect(new Set(first).size).toBeGreaterThan(2);
    expect(await run()).toEqual(first);
  });

  it('refuses unknown profiles and impossible rates', async () => {
    expect(() => sim.setFaults('sometimes')).toThrow(FaultProfileError);
    expect(() => sim.setFaults({ rate429: 1.5 })).toThrow(/rate429/);
    expect(() => sim.setFaults({ rate429: 0.6, rate5xx: 0.6 })).toThrow(/add up/);
    await expect(startSimulator({ people: 10, faults: 'nope' })).rejects.toThrow(/Unknown fault profile "nope"/);
    sim.setFaults('rate429=0.5,retryAfterS=3');
    sim.setFaults('none');
  });
});

describe('latency', () => {
  it('delays people calls without blocking other calls', async () => {
    sim.setLatency(200);
    try {
      const started = performance.now();
      const replies = await Promise.all(Array.from({ length: 5 }, (_, i) => find(sim, sim.demo.apiKey, [byEmail(people[i])])));
      const elapsed = performance.now() - started;
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(800);
    } finally {
      sim.setLatency(0);
    }
  });
});

describe('credits', () => {
  it('sends credit headers, never charges a person twice, and answers 402 once spent', async () => {
    const metered = await startSimulator({ people: 500, seed: 9, creditBudget: 4 });
    try {
      const p = metered.dataset.people;
      const key = metered.demo.apiKey;
      const credits = (reply: Awaited<ReturnType<typeof find>>) => [reply.headers.get('x-ldt-credits-used'), reply.headers.get('x-ldt-credits-remaining')];

      let reply = await find(metered, key, [byEmail(p[0])]);
      expect(reply.status).toBe(200);
      expect(credits(reply)).toEqual(['1', '3']);
      reply = await find(metered, key, [byEmail(p[0]), byEmail(p[0])]);
      expect(credits(reply)).toEqual(['1', '3']);
      reply = await find(metered, key, [byEmail(p[1]), byEmail(p[2])]);
      expect(credits(reply)).toEqual(['3', '1']);

      // Two new people do not fit in the one credit left: nothing is sent, nothing charged.
      reply = await find(metered, key, [byEmail(p[3]), byEmail(p[4])]);
      expect(reply.status).toBe(402);
      expect(message(reply)).toMatch(/credits/);
      expect(credits(reply)).toEqual(['3', '1']);

      const last = await search(metered, key, { filters: [{ field: 'id', type: 'must', match_type: 'exact', string_values: [p[5].id] }] });
      expect(last.status).toBe(200);
      expect(credits(last)).toEqual(['4', '0']);

      reply = await find(metered, key, [byEmail(p[0])]);
      expect(reply.status).toBe(402);
      expect(metered.counters().faults['402']).toBe(2);
    } finally {
      await metered.close();
    }
  });

  it('sends no credit headers when there is no budget', async () => {
    const reply = await postJson(`${sim.baseUrl}/api/people/v1/${sim.orgId}/find`, { matches: [{ fields: byEmail(people[0]) }] }, sim.demo.apiKey);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ldt-credits-remaining')).toBeNull();
  });
});
