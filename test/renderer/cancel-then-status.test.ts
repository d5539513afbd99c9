import { describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/engine/engine';
import type { MatchdeskBridge } from '../../shared/contract';
import { EngineOnSim } from '../engine/jobs/engine-on-sim';
import { ok } from '../engine/core/helpers';

// The run screen, the refresh dialog and the search screen cancel through one piece: job.cancel, then the status
// call, which by then says how the work ended. Here its bridge is a real engine's, as the preload's would carry it.

const MAPPING = { fullName: 0, company: 1 };
const fixture = new EngineOnSim();
let current: Engine | null = null;

/** The renderer's piece, its api over the engine that is open at the time of each call. */
async function rendererPiece() {
  const bridge: MatchdeskBridge = {
    call: (name, input) => current!.call(name, input),
    on: (event, listener) => current!.on(event, listener),
    pathForFile: () => Promise.reject(new Error('no files here')),
  };
  (globalThis as { window?: unknown }).window = { matchdesk: bridge };
  return (await import('../../renderer/src/jobs/cancel-then-status')).cancelThenStatus;
}

describe('cancel, then read the status (renderer/src/jobs/cancel-then-status.ts)', () => {
  it("answers a run's and a refresh's status as cancelled, one paused this session and one in an earlier session", async () => {
    const cancelThenStatus = await rendererPiece();
    current = await fixture.start({ latencyMs: 20 });
    const ran = (await ok(current, 'projects.import', { file: fixture.sheet(300) })).summary.id;
    const refreshed = (await ok(current, 'projects.import', { file: fixture.sheet(150) })).summary.id;
    for (const projectId of [ran, refreshed]) await ok(current, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(current, 'run.start', { projectId: refreshed, offline: false });
    await current.runSettled(refreshed);
    await ok(current, 'refresh.start', { projectId: refreshed });
    await ok(current, 'refresh.pause', { projectId: refreshed });
    await ok(current, 'run.start', { projectId: ran, offline: false });
    await ok(current, 'run.pause', { projectId: ran });
    expect(await cancelThenStatus({ projectId: ran, kind: 'run' }, 'run.status', { projectId: ran })).toMatchObject({ status: 'cancelled' });

    await fixture.close();
    current = await fixture.open();
    expect(await ok(current, 'refresh.status', { projectId: refreshed })).toMatchObject({ status: 'paused' });
    const refresh = await cancelThenStatus({ projectId: refreshed, kind: 'refresh' }, 'refresh.status', { projectId: refreshed });
    expect(refresh).toMatchObject({ status: 'cancelled', message: 'Cancelled. Everything that had arrived is kept.' });
  });

  it("throws the engine's own words when the cancel is refused (no such project)", async () => {
    const cancelThenStatus = await rendererPiece();
    current = await fixture.start();
    await expect(cancelThenStatus({ projectId: 999, kind: 'run' }, 'run.status', { projectId: 999 })).rejects.toMatchObject({ error: { kind: 'not_found' } });
  });
});
