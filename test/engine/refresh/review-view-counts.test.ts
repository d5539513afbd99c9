// The review's chips count the view on show (issue 44): each group of chips under the other groups' filters, so a
// chip's figure is the number of rows pressing it would list. Checked against the lists themselves (review.page's
// total for the same filters) on a refreshed project with rows in every state and every job change.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { JOB_CHANGES, ROW_STATES, type JobChangeStatus, type RowState } from '../../../shared/model';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, truthSheet } from './refresh-fixture';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;

beforeAll(async () => {
  tmp = tempDir('matchdesk-view-counts-');
  sim = await startSim({ people: 3000, seed: 5 });
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  const sheet = truthSheet(sim.dataset.people, { still: 40, moved: 40, left: 20, again: 10, near_name: 15, nobody: 10 });
  const file = writeCsv(join(tmp.dir, 'people.csv'), HEADERS, sheet.map((r) => r.cells));
  const detail = await ok(engine, 'projects.import', { file });
  projectId = detail.summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  // Rows in every state: one accepted, one rejected, one skipped by hand, the rest as the run left them.
  const toReview = (await ok(engine, 'review.page', { projectId, states: ['to_review'], offset: 0, limit: 10 })).rows.filter((r) => r.candidateCount > 0);
  expect(toReview.length).toBeGreaterThanOrEqual(3);
  await ok(engine, 'decisions.choose', { projectId, rowIndex: toReview[0]!.rowIndex, rank: toReview[0]!.bestRank ?? 1 });
  await ok(engine, 'decisions.reject', { projectId, rowIndex: toReview[1]!.rowIndex });
  await ok(engine, 'decisions.skip', { projectId, rowIndex: toReview[2]!.rowIndex });
  sim.moveOn({ share: 0.35, seed: 11 });
  await ok(engine, 'refresh.start', { projectId });
  expect((await engine.refreshSettled(projectId))!.status).toBe('done');
});

afterAll(async () => {
  await engine?.close();
  await sim?.close();
  tmp?.remove();
});

interface View {
  states?: RowState[];
  jobChanges?: JobChangeStatus[];
  changedAtLastRefresh?: boolean;
}

const listed = async (view: View) => (await ok(engine, 'review.page', { projectId, ...view, offset: 0, limit: 1 })).total;

describe('review.counts', () => {
  it('counts each chip under the other active filters, as the list that chip would show', async () => {
    const project = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
    expect(Object.values(project.jobChanges).filter((n) => n > 0).length, 'job changes of several kinds').toBeGreaterThanOrEqual(3);
    expect(project.changedAtLastRefresh).toBeGreaterThan(0);
    expect(Object.values(project.counts).filter((n) => n > 0).length, 'rows in several states').toBeGreaterThanOrEqual(4);

    const views: View[] = [
      {},
      { states: ['to_review'] },
      { states: ['auto'] },
      { states: ['accepted', 'auto'] },
      { jobChanges: ['moved'] },
      { jobChanges: ['no_change', 'left'] },
      { changedAtLastRefresh: true },
      { states: ['auto'], jobChanges: ['moved'] },
      { states: ['to_review'], jobChanges: ['moved'] },
      { states: ['auto'], changedAtLastRefresh: true },
      { jobChanges: ['left'], changedAtLastRefresh: true },
    ];
    const wrong: string[] = [];
    for (const view of views) {
      const got = await ok(engine, 'review.counts', { projectId, ...view });
      for (const state of ROW_STATES) {
        const want = await listed({ ...view, states: [state] });
        if (got.counts[state] !== want) wrong.push(`${JSON.stringify(view)}: ${state} ${got.counts[state]}, its list ${want}`);
      }
      for (const jobChange of JOB_CHANGES) {
        const want = await listed({ ...view, jobChanges: [jobChange] });
        if (got.jobChanges[jobChange] !== want) wrong.push(`${JSON.stringify(view)}: ${jobChange} ${got.jobChanges[jobChange]}, its list ${want}`);
      }
      const changed = await listed({ ...view, changedAtLastRefresh: true });
      if (got.changedAtLastRefresh !== changed) wrong.push(`${JSON.stringify(view)}: changed ${got.changedAtLastRefresh}, its list ${changed}`);
    }
    expect(wrong).toEqual([]);
  });

  it("gives the project's own figures without a filter, and follows a decision", async () => {
    const project = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
    expect(await ok(engine, 'review.counts', { projectId })).toEqual({ counts: project.counts, jobChanges: project.jobChanges, changedAtLastRefresh: project.changedAtLastRefresh });

    const moved = (await ok(engine, 'review.page', { projectId, states: ['auto'], jobChanges: ['moved'], offset: 0, limit: 1 })).rows[0]!;
    const before = await ok(engine, 'review.counts', { projectId, jobChanges: ['moved'] });
    await ok(engine, 'decisions.clear', { projectId, rowIndex: moved.rowIndex });
    const after = await ok(engine, 'review.counts', { projectId, jobChanges: ['moved'] });
    // A cleared row is back to review and holds no person: it leaves the "moved" view.
    expect(after.counts.auto).toBe(before.counts.auto - 1);
    expect(after.counts.to_review).toBe(before.counts.to_review);
    await ok(engine, 'decisions.undo', { projectId });
    expect(await ok(engine, 'review.counts', { projectId, jobChanges: ['moved'] })).toEqual(before);
  });
});
