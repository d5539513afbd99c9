// A due watch that cannot refresh is not run: a profile with no secret, a refresh over its credit ceiling, or a
// service out of credits leaves it blocked with the reason, still due, and the next due run tries again.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../electron/engine/clock';
import type { Engine, EngineOptions } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, truthSheet } from '../refresh/refresh-fixture';

const DAY = 86_400_000;
let offset = 0;
const clock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep };
let tmp: ReturnType<typeof tempDir> | undefined;
let sim: Simulator | undefined;
let engine: Engine | undefined;

afterEach(async () => {
  await engine?.close();
  await sim?.close();
  tmp?.remove();
  [engine, sim, tmp] = [undefined, undefined, undefined];
});

/** A matched project on a simulator with `credits` (null: no cap), watched every 7 days and due now. */
async function watched(credits: number | null, creditCeiling: number | null, extra: Partial<EngineOptions> = {}) {
  tmp = tempDir('matchdesk-watch-blocked-');
  sim = await startSim({ people: 3000, seed: 5, creditBudget: credits });
  const secrets = new SessionSecretStore();
  engine = await openEngine(join(tmp.dir, 'data'), { clock, secrets, ...extra });
  const profile = await connect(engine, sim);
  const sheet = truthSheet(sim.dataset.people, { still: 60, moved: 20, left: 10, again: 0, near_name: 0, nobody: 0 });
  const detail = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'p.csv'), HEADERS, sheet.map((r) => r.cells)) });
  const projectId = detail.summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  await ok(engine, 'watch.set', { projectId, everyDays: 7, creditCeiling });
  offset += 8 * DAY;
  return { engine, projectId, profile, secrets, sim };
}

describe('a due watch that cannot refresh', () => {
  it('whose profile has no secret: blocked with the reason, still due, and run once the secret is back', async () => {
    const { engine, projectId, profile, secrets, sim } = await watched(null, null);
    await secrets.delete(profile.id);
    sim.resetCounters();
    const run = await ok(engine, 'watch.runDue', { projectId });
    expect(run).toMatchObject({ outcome: 'blocked', reason: expect.stringMatching(/No secret is stored for the profile "Simulator"/) });
    expect(sim.counters().calls, 'nothing sent').toBe(0);
    expect((await ok(engine, 'projects.list'))[0]!.watch).toMatchObject({ due: true, blocked: expect.stringMatching(/No secret/) });

    await secrets.set(profile.id, sim.demo.clientSecret);
    expect((await ok(engine, 'watch.runDue', { projectId })).outcome).toBe('started');
    expect((await engine.refreshSettled(projectId))!.status).toBe('done');
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ due: false, blocked: null });
  });

  it('over its credit ceiling: blocked, nothing sent', async () => {
    const { engine, projectId, sim } = await watched(null, 3);
    sim.resetCounters();
    const run = await ok(engine, 'watch.runDue', { projectId });
    expect(run).toMatchObject({ outcome: 'blocked', reason: expect.stringMatching(/would ask \d+ people \(up to \d+ credits\), over the watch's ceiling of 3/) });
    expect(sim.counters().findCalls).toBe(0);
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ due: true });
  });

  it('out of credits: blocked with the reason, still due; the next due run goes on with the same refresh', async () => {
    const { engine, projectId } = await watched(null, null);
    // The same service with every credit spent: each people call is turned away (402).
    const port = Number(new URL(sim!.baseUrl).port);
    await sim!.close();
    sim = await startSim({ people: 3000, seed: 5, creditBudget: 0, port });
    const run = await ok(engine, 'watch.runDue', { projectId });
    expect(run.outcome).toBe('started');
    const end = (await engine.refreshSettled(projectId))!;
    expect(end.status).toBe('out_of_credits');
    const watch = (await ok(engine, 'watch.list'))[0]!;
    expect(watch).toMatchObject({ due: true, blocked: expect.stringMatching(/^Out of credits: .*The next due run goes on with it\.$/) });

    const again = await ok(engine, 'watch.runDue', { projectId });
    expect(again).toMatchObject({ outcome: 'started', progress: { refreshId: end.refreshId } });
    expect((await engine.refreshSettled(projectId))!.status).toBe('out_of_credits');
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ due: true, blocked: expect.stringMatching(/^Out of credits/) });
  });
});

/** Waits until `check` holds, asking every 10 ms; throws after 20 s (a hang, not slowness). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 2_000; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('still not so after 20 s');
}

describe('in the app', () => {
  it('a due watch runs by itself in the background; one blocked says why and stays due, nothing sent', async () => {
    const { engine, projectId, profile, secrets, sim } = await watched(null, null, { host: 'web', watchSweepMs: 50 });
    await until(async () => (await ok(engine, 'watch.list'))[0]!.due === false);
    expect((await engine.refreshSettled(projectId))!.status).toBe('done');
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ blocked: null, lastResult: expect.stringMatching(/people asked: \d+ moved/) });

    await secrets.delete(profile.id);
    offset += 8 * DAY;
    sim.resetCounters();
    await until(async () => (await ok(engine, 'watch.list'))[0]!.blocked !== null);
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ due: true, blocked: expect.stringMatching(/No secret is stored/) });
    expect(sim.counters().calls).toBe(0);
  });
});
