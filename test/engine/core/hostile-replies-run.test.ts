// A matching run against a service that sends replies no service should: the rows of each such call end in error
// with the reason in words, nothing of the reply is cached as an answer, and the next run asks again.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { HostileReplies, Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let sim: Simulator;
let tmp: ReturnType<typeof tempDir>;
let engine: Engine;

beforeAll(async () => {
  sim = await startSim({ people: 500 });
});
afterAll(() => sim.close());
beforeEach(async () => {
  tmp = tempDir();
  sim.setHostile({});
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
});
afterEach(async () => {
  await engine.close();
  tmp.remove();
});

const ROWS = 150;

describe('a run against hostile replies', () => {
  it.each<[string, HostileReplies, RegExp]>([
    ['a 200 MB reply', { hugeBytes: 200_000_000 }, /the find reply is larger than 32\.8 MB/],
    ['six people a query', { candidates: 6 }, /find result 1 holds 6 people, more than the 5 a query is answered with/],
    // One job over the limit: the simulator would take long to build 150 people of 10,000 jobs (api/hostile-replies.test.ts).
    ['201 jobs a person', { jobs: 201 }, /person 1 of find result 1 lists 201 jobs, more than the 200/],
    ['bytes that are not UTF-8', { badUtf8: true }, /the find reply is not valid UTF-8 text/],
  ])('%s: each row ends in error with the reason, nothing is cached, and the next run asks again', async (_what, hostile, reason) => {
    const rows = sim.dataset.people.slice(0, ROWS).map((p) => [p.name, p.email_address]);
    const project = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email'], rows) })).summary;
    sim.setHostile(hostile);
    const failed = await runToEnd(engine, project.id);
    expect(failed).toMatchObject({ status: 'done', errors: ROWS, rowsResolved: ROWS });
    const row = await ok(engine, 'review.row', { projectId: project.id, rowIndex: 0 });
    expect(row.state).toBe('error');
    expect(row.error).toMatch(/^The service sent a reply Matchdesk cannot read: /);
    expect(row.error).toMatch(reason);
    expect(row.candidates).toEqual([]);
    expect((await ok(engine, 'cache.stats')).errors).toBe(ROWS);
    expect(await ok(engine, 'run.preview', { projectId: project.id })).toMatchObject({ cachedFresh: 0, toFetch: ROWS });

    sim.setHostile({});
    const retried = await runToEnd(engine, project.id);
    expect(retried).toMatchObject({ status: 'done', errors: 0 });
    const answered = await ok(engine, 'review.row', { projectId: project.id, rowIndex: 0 });
    expect(answered.error).toBeNull();
    expect(answered.candidates[0]!.summary.name).toBe(sim.dataset.people[0]!.name);
  });
});
