// A refresh of a watched project started by hand counts as the watch's once done: the projects list's "last" is its
// result, and the next refresh is due a period after it (asking the same people again days later would spend credits
// on nothing).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../electron/engine/clock';
import type { Engine } from '../../../electron/engine/engine';
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

describe('a refresh started by hand on a watched project', () => {
  it('is the watch’s refresh once done: its result is the last one, and the next is due a period after it', async () => {
    tmp = tempDir('matchdesk-watch-hand-');
    sim = await startSim({ people: 3000, seed: 5 });
    engine = await openEngine(join(tmp.dir, 'data'), { clock });
    await connect(engine, sim);
    const sheet = truthSheet(sim.dataset.people, { still: 40, moved: 10, left: 5, again: 0, near_name: 0, nobody: 0 });
    const detail = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'p.csv'), HEADERS, sheet.map((r) => r.cells)) });
    const projectId = detail.summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    await ok(engine, 'watch.set', { projectId, everyDays: 7, creditCeiling: null });
    offset += 3 * DAY;

    await ok(engine, 'refresh.start', { projectId });
    expect((await engine.refreshSettled(projectId))!.status).toBe('done');
    const watch = (await ok(engine, 'watch.list'))[0]!;
    expect(watch.lastResult).toMatch(/^\d+ people asked: \d+ moved, \d+ left, \d+ changed title\.$/);
    const sinceDone = Date.parse(watch.nextRefreshAt) - clock.now();
    expect(sinceDone).toBeGreaterThan(7 * DAY - 60_000);
    expect(sinceDone).toBeLessThanOrEqual(7 * DAY);
  });
});
