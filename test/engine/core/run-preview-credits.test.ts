// The cost preview against the service's credits: what it last said remain (X-LDT-Credits-Remaining), and the most
// this run's first lookups can cost; nothing about credits from a service that never sends them.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { loginWithClientCredentials, postJson } from '../../simulator/http';
import { connect, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine | null = null;
let sim: Simulator | null = null;

beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  await sim?.close();
  sim = null;
  tmp.remove();
});

/** What the simulator says remain, asked with a query that finds nobody (so it costs nothing). */
async function remainingOnService(s: Simulator): Promise<number> {
  const token = await loginWithClientCredentials(s);
  const reply = await postJson(`${s.baseUrl}/api/people/v1/${s.orgId}/find`, { matches: [{ fields: [{ field_name: 'email_address', search_term: 'nobody@nowhere.example' }] }] }, token);
  return Number(reply.headers.get('x-ldt-credits-remaining'));
}

async function sheetOf(engine: Engine, s: Simulator, name: string, from: number, count: number): Promise<number> {
  const people = findablePeople(s).slice(from, from + count);
  const file = writeCsv(join(tmp.dir, name), ['Name', 'Email'], people.map((p) => [p.name, p.email_address]));
  return (await ok(engine, 'projects.import', { file })).summary.id;
}

describe('credits in the cost preview', () => {
  it('shows what the service last said remain, and up to 5 credits a lookup to fetch; a new session remembers them', async () => {
    sim = await startSim({ creditBudget: 5_000 });
    const dataDir = join(tmp.dir, 'data');
    engine = await openEngine(dataDir);
    await connect(engine, sim);
    const first = await sheetOf(engine, sim, 'first.csv', 0, 120);
    // No reply from the service yet: it has not said.
    expect(await ok(engine, 'run.preview', { projectId: first })).toMatchObject({ toFetch: 120, creditsRemaining: null, creditsUpTo: 600 });
    await runToEnd(engine, first);

    const second = await sheetOf(engine, sim, 'second.csv', 120, 30);
    const remaining = await remainingOnService(sim);
    expect(remaining).toBeLessThan(5_000);
    expect(remaining).toBeGreaterThan(4_000);
    expect(await ok(engine, 'run.preview', { projectId: second })).toMatchObject({ toFetch: 30, creditsRemaining: remaining, creditsUpTo: 150 });
    // Offline nothing is fetched, so nothing is billed.
    expect(await ok(engine, 'run.preview', { projectId: second, offline: true })).toMatchObject({ creditsRemaining: remaining, creditsUpTo: 0 });

    await engine.close();
    engine = await openEngine(dataDir);
    expect(await ok(engine, 'run.preview', { projectId: second })).toMatchObject({ creditsRemaining: remaining, creditsUpTo: 150 });
    // Another service (another address) has its own credits: none said.
    const other = await startSim({ port: 0 });
    try {
      await connect(engine, other, 'Other');
      expect((await ok(engine, 'run.preview', { projectId: second })).creditsRemaining).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('has no credits from a service without a cap, after a run as before it', async () => {
    sim = await startSim();
    engine = await openEngine(join(tmp.dir, 'data'));
    await connect(engine, sim);
    const first = await sheetOf(engine, sim, 'first.csv', 0, 40);
    await runToEnd(engine, first);
    const second = await sheetOf(engine, sim, 'second.csv', 40, 10);
    expect(await ok(engine, 'run.preview', { projectId: second })).toMatchObject({ toFetch: 10, creditsRemaining: null, creditsUpTo: 50 });
  });
});
