// "Try with demo data" shows rows to review with several candidates, and a world that has moved on when the first
// refresh runs.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewRow } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { startSimulator, type EpochReport } from '../../../electron/simulator';
import { ok, openEngine, runToEnd, tempDir } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;
let projectId: number;
let rows: ReviewRow[];

/** Who the demo world moves on its one epoch: a simulator started as the demo's is, stepped once. */
async function demoEpoch(): Promise<EpochReport> {
  const sim = await startSimulator({ port: 0, people: 20_000, seed: 1, epochs: { share: 0.15, seed: 1 } });
  try {
    return sim.advance();
  } finally {
    await sim.close();
  }
}

beforeAll(async () => {
  tmp = tempDir();
  engine = await openEngine(join(tmp.dir, 'data'));
  projectId = (await ok(engine, 'demo.start')).project.id;
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  rows = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 500 })).rows;
});

afterAll(async () => {
  await engine?.close();
  tmp?.remove();
});

describe('the demo world', () => {
  it('has rows to review with 2 to 5 candidates, namesakes and near names at one employer', async () => {
    const toReview = rows.filter((r) => r.state === 'to_review');
    const counts = new Set(toReview.map((r) => r.candidateCount));
    for (const n of [2, 3, 4, 5]) expect(counts.has(n), `a row to review with ${n} candidates`).toBe(true);
    expect(toReview.filter((r) => r.candidateCount >= 2).length).toBeGreaterThanOrEqual(10);
    // Candidates the keys 2-5 choose between: each row's candidates are there to review.
    const several = toReview.find((r) => r.candidateCount === 5)!;
    expect((await ok(engine, 'review.row', { projectId, rowIndex: several.rowIndex })).candidates).toHaveLength(5);
  });

  it('has moved on when the first refresh runs: some people moved, some left, the rest are still there', async () => {
    const matched = rows.filter((r) => r.state === 'auto' || r.state === 'accepted').length;
    await ok(engine, 'refresh.start', { projectId });
    const end = (await engine.refreshSettled(projectId))!;
    expect(end).toMatchObject({ status: 'done', failed: 0 });
    expect(end.rowsChanged).toBeGreaterThanOrEqual(10);
    expect(end.rowsChanged).toBeLessThan(matched / 2);

    const changed = (await ok(engine, 'review.page', { projectId, changedAtLastRefresh: true, offset: 0, limit: 500 })).rows;
    expect(changed).toHaveLength(end.rowsChanged);
    const byChange = (status: string) => changed.filter((r) => r.jobChange?.status === status).length;
    expect(byChange('moved')).toBeGreaterThan(0);
    expect(byChange('left')).toBeGreaterThan(0);
    // Exactly the people the demo world's epoch moved: the demo is the same on every start.
    const epoch = await demoEpoch();
    const movedOrLeft = new Set([...epoch.moved, ...epoch.left]);
    expect(changed.every((r) => movedOrLeft.has(r.top!.id!))).toBe(true);

    // A second refresh sees the same world: nothing changed since the first.
    await ok(engine, 'refresh.start', { projectId });
    expect((await engine.refreshSettled(projectId))!.rowsChanged).toBe(0);
  }, 120_000);
});
