// A due watch while the service cannot be reached waits, quietly: not blocked, still due, nothing half-made; once the
// service answers again, the next try runs it to the end.
import { describe, expect, it } from 'vitest';
import type { Engine, EngineOptions } from '../../../electron/engine/engine';
import type { WatchSummary } from '../../../shared/contract';
import { ok } from '../core/helpers';
import { DAY, WatchedProject, until } from './watched-project';

// What is tested is the watch waiting for the service, not the client's pauses between its attempts.
const project = new WatchedProject('matchdesk-watch-offline-', { retryPauses: false });

/** A matched project watched every 7 days on a simulator; `due()` brings its next refresh round. */
async function watched(extra: Partial<EngineOptions> = {}) {
  const watching = await project.start({ engine: extra });
  return { ...watching, due: () => project.later(8 * DAY) };
}

/** The same, with the service gone (its port refuses connections), then the watch due. */
async function watchedThenOffline(extra: Partial<EngineOptions> = {}) {
  const watching = await watched(extra);
  const port = await project.stopService();
  watching.due();
  /** The service answering again on the same address. */
  const back = () => project.startService(port);
  return { ...watching, back };
}

/** What a watch says while it waits: not blocked, still due on its schedule, the reason in words, no refresh begun. */
async function expectWaiting(engine: Engine, projectId: number, watch: WatchSummary, scheduled: string) {
  expect(watch).toMatchObject({ due: true, blocked: null, nextRefreshAt: scheduled });
  expect(watch.lastResult).toMatch(/^Waiting for the service: Could not get an answer from 127\.0\.0\.1:\d+: the connection was refused.* The next due run tries again\.$/);
  expect(await ok(engine, 'refresh.status', { projectId }), 'no refresh begun that would ask nobody').toBeNull();
}

describe('a due watch while the service is out of reach', () => {
  it('in the app: waits in the background without failing loudly, and runs when the service answers again', async () => {
    const { engine, projectId, scheduled, watch, back } = await watchedThenOffline({ host: 'web', watchSweepMs: 50 });
    await until(async () => (await watch()).lastRunAt !== null);
    await expectWaiting(engine, projectId, await watch(), scheduled);

    // The background tries again a while later; by then the service answers, and the refresh runs to the end.
    await back();
    project.later(31 * 60_000);
    await until(async () => (await watch()).due === false);
    expect((await engine.refreshSettled(projectId))!).toMatchObject({ status: 'done', failed: 0, peopleTotal: 90 });
    expect(await watch()).toMatchObject({ blocked: null, lastResult: expect.stringMatching(/^\d+ people asked: \d+ moved, \d+ left/) });
  });

  it('asked directly, as "refresh --due" asks: answers that it waits, and the next due run refreshes', async () => {
    const { engine, projectId, scheduled, watch, back } = await watchedThenOffline();
    const run = await ok(engine, 'watch.runDue', { projectId });
    expect(run).toMatchObject({ outcome: 'waiting', reason: expect.stringMatching(/^Waiting for the service: /) });
    await expectWaiting(engine, projectId, await watch(), scheduled);

    await back();
    expect((await ok(engine, 'watch.runDue', { projectId })).outcome).toBe('started');
    expect((await engine.refreshSettled(projectId))!).toMatchObject({ status: 'done', failed: 0, peopleTotal: 90 });
    expect(await watch()).toMatchObject({ due: false, blocked: null });
  });

  it('whose refresh reaches nobody (every people call cut as it starts): it fails, is not the period\'s, and the next due run goes on with it', async () => {
    const { engine, sim, projectId, scheduled, watch, due } = await watched();
    sim.setFaults({ rateReset: 1 });
    due();
    expect((await ok(engine, 'watch.runDue', { projectId })).outcome).toBe('started');
    const failed = (await engine.refreshSettled(projectId))!;
    expect(failed).toMatchObject({ status: 'failed', found: 0, notFound: 0, failed: 0, peopleDone: 0 });
    const waiting = await watch();
    expect(waiting).toMatchObject({ due: true, blocked: null, nextRefreshAt: scheduled });
    expect(waiting.lastResult).toMatch(/^Stopped: Every call failed, so nobody was refreshed: .* The next due run goes on with it\.$/);

    sim.setFaults('none');
    expect((await ok(engine, 'watch.runDue', { projectId })).outcome).toBe('started');
    expect((await engine.refreshSettled(projectId))!).toMatchObject({ refreshId: failed.refreshId, status: 'done', failed: 0, found: 90 });
    expect(await watch()).toMatchObject({ due: false, blocked: null });
  });
});
