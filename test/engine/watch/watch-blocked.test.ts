// A due watch that cannot refresh is not run: a profile with no secret, a refresh over its credit ceiling, or a
// service out of credits leaves it blocked with the reason, still due, and the next due run tries again.
import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../../electron/engine/engine';
import { ok } from '../core/helpers';
import { DAY, WatchedProject, until } from './watched-project';

const project = new WatchedProject('matchdesk-watch-blocked-');

/** A matched project on a simulator with `credits` (null: no cap), watched every 7 days and due now. */
async function watched(credits: number | null, creditCeiling: number | null, engine: Partial<EngineOptions> = {}) {
  const watching = await project.start({ credits, creditCeiling, engine });
  project.later(8 * DAY);
  return watching;
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
    await project.startService(await project.stopService(), { creditBudget: 0 });
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

describe('in the app', () => {
  it('a due watch runs by itself in the background; one blocked says why and stays due, nothing sent', async () => {
    const { engine, projectId, profile, secrets, sim } = await watched(null, null, { host: 'web', watchSweepMs: 50 });
    await until(async () => (await ok(engine, 'watch.list'))[0]!.due === false);
    expect((await engine.refreshSettled(projectId))!.status).toBe('done');
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ blocked: null, lastResult: expect.stringMatching(/people asked: \d+ moved/) });

    await secrets.delete(profile.id);
    project.later(8 * DAY);
    sim.resetCounters();
    await until(async () => (await ok(engine, 'watch.list'))[0]!.blocked !== null);
    expect((await ok(engine, 'watch.list'))[0]).toMatchObject({ due: true, blocked: expect.stringMatching(/No secret is stored/) });
    expect(sim.counters().calls).toBe(0);
  });
});
