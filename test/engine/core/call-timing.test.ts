// The cost preview's time: assumed (1.5 s a find call) until calls to the service have been timed, then from what
// they took, in this session and the next ones (every CLI command is a session of its own), for that service only.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { ASSUMED_SECONDS_PER_CALL } from '../../../electron/engine/rows/call-timing';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine | null = null;
const sims: Simulator[] = [];
const dataDir = () => join(tmp.dir, 'data');

beforeEach(() => {
  tmp = tempDir('matchdesk-timing-');
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  for (const sim of sims.splice(0)) await sim.close();
  tmp.remove();
});

/** A project of `count` rows, each asking a different e-mail (so `count` queries, `count / 100` calls). */
async function project(e: Engine, name: string, count: number): Promise<number> {
  const rows = Array.from({ length: count }, (_, i) => [`Person ${i}`, `${name}-${i}@example.com`]);
  const id = (await ok(e, 'projects.import', { file: writeCsv(join(tmp.dir, `${name}.csv`), ['Name', 'Email'], rows) })).summary.id;
  await ok(e, 'mapping.save', { projectId: id, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
  return id;
}

async function estimate(e: Engine, projectId: number): Promise<{ calls: number; seconds: number }> {
  const preview = await ok(e, 'run.preview', { projectId, offline: false });
  return { calls: preview.calls, seconds: preview.estimatedSeconds };
}

describe("the cost preview's time", () => {
  it('is assumed at first, then follows what calls to the service took, in the next session too, for that service only', async () => {
    const sim = await startSim();
    sims.push(sim);
    engine = await openEngine(dataDir());
    await connect(engine, sim);
    await ok(engine, 'settings.update', { concurrency: 4 });
    const assumed = (calls: number) => Math.ceil(Math.ceil(calls / 4) * ASSUMED_SECONDS_PER_CALL);

    const first = await project(engine, 'first', 2_000);
    const before = await estimate(engine, first);
    expect(before.calls).toBe(20);
    expect(before.seconds).toBe(assumed(20));
    expect((await runToEnd(engine, first)).status).toBe('done');

    // The simulator answers in milliseconds, not the assumed 1.5 s: the estimate now says so.
    const second = await project(engine, 'second', 2_000);
    const measured = await estimate(engine, second);
    expect(measured.calls).toBe(20);
    expect(measured.seconds).toBeLessThanOrEqual(assumed(20) / 2);

    // A new session (as each CLI command is) starts from what the last one measured.
    await engine.close();
    engine = await openEngine(dataDir());
    expect((await estimate(engine, second)).seconds).toBe(measured.seconds);
    const db = new Database(join(dataDir(), 'matchdesk.sqlite'), { readonly: true });
    const kept = db.prepare('SELECT scope, seconds_per_call FROM call_timings').all() as { scope: string; seconds_per_call: number }[];
    db.close();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.scope).toContain(sim.orgId);
    expect(kept[0]!.seconds_per_call).toBeLessThan(ASSUMED_SECONDS_PER_CALL / 2);

    // Another service has not been timed: assumed again.
    const other = await startSim({ seed: 2 });
    sims.push(other);
    await connect(engine, other, 'Other');
    const third = await project(engine, 'third', 2_000);
    expect(await estimate(engine, third)).toEqual({ calls: 20, seconds: assumed(20) });
  });
});
