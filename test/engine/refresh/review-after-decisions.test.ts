// The review keeps its counts and filtered lists between pages and brings them through each decision instead of
// counting again (review-page.ts withReviewMoves): at a million rows a recount took 0.5-2 s after every key a reviewer
// pressed. Here every kind of decision is made on a refreshed project, and after each one every filter's page, total
// and figures must equal what a connection that kept nothing works out from the file.
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewPage } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { reviewPage, type ReviewPageRequest } from '../../../electron/engine/review/review-page';
import { openDatabase } from '../../../electron/engine/store';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, truthSheet } from './refresh-fixture';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let fresh: Database;
let projectId: number;
let filters: ReviewPageRequest[];

beforeAll(async () => {
  tmp = tempDir('matchdesk-review-moves-');
  sim = await startSim({ people: 6000, seed: 5 });
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  const sheet = truthSheet(sim.dataset.people, { still: 200, moved: 200, left: 100, again: 40, near_name: 60, nobody: 20 });
  const file = writeCsv(join(tmp.dir, 'people.csv'), HEADERS, sheet.map((r) => r.cells));
  const detail = await ok(engine, 'projects.import', { file });
  projectId = detail.summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  sim.moveOn({ share: 0.4, seed: 9 });
  await ok(engine, 'refresh.start', { projectId });
  expect((await engine.refreshSettled(projectId))?.status).toBe('done');
  fresh = openDatabase(engine.dbPath, { readonly: true });
  // A word of a company many rows name: a text filter the index answers, alone and with a state.
  const company = sheet.find((r) => r.company && r.company.name.split(/\s+/)[0]!.length >= 4)!.company!.name.split(/\s+/)[0]!;
  filters = [
    {},
    { states: ['to_review'] },
    { states: ['auto', 'accepted'] },
    { states: ['rejected', 'skipped'] },
    { jobChanges: ['moved'] },
    { jobChanges: ['left', 'no_change'] },
    { changedAtLastRefresh: true },
    { changedAtLastRefresh: true, states: ['accepted'] },
    { text: company },
    { text: company, states: ['auto'] },
    { text: 'co', states: ['auto', 'to_review'] },
  ].flatMap((f) => [
    { ...f, offset: 0, limit: 50 },
    { ...f, offset: 210, limit: 50 },
  ]);
}, 120_000);

afterAll(async () => {
  fresh?.close();
  await engine?.close();
  await sim?.close();
  tmp?.remove();
});

/** Every filter's page from the engine (what it kept, brought through the decisions) and worked out afresh. */
async function expectPagesAsOnFile(after: string): Promise<void> {
  for (const req of filters) {
    const kept = await ok(engine, 'review.page', { projectId, ...req });
    const onFile = await reviewPage(fresh, projectId, req);
    expect(summary(kept), `${after}: ${JSON.stringify(req)}`).toEqual(summary(onFile));
  }
}

function summary(page: ReviewPage) {
  return { rows: page.rows.map((r) => `${r.rowIndex} ${r.state}`), total: page.total, counts: page.counts, jobChanges: page.jobChanges, changed: page.changedAtLastRefresh };
}

async function rowsOf(req: Partial<ReviewPageRequest>, limit = 20): Promise<number[]> {
  return (await ok(engine, 'review.page', { projectId, offset: 0, limit, ...req })).rows.map((r) => r.rowIndex);
}

describe('the review after decisions', () => {
  it('keeps every count, total and page as the file has them through each kind of decision and its undo', async () => {
    const first = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
    expect(first.changedAtLastRefresh, 'the refresh changed some matched rows').toBeGreaterThan(20);
    expect(first.counts.to_review).toBeGreaterThan(5);
    // Every list walked and kept before the first decision.
    await expectPagesAsOnFile('before any decision');

    const changed = await rowsOf({ changedAtLastRefresh: true });
    const moved = await rowsOf({ jobChanges: ['moved'] });
    const toReview = await rowsOf({ states: ['to_review'] });

    await ok(engine, 'decisions.reject', { projectId, rowIndex: changed[0]! });
    await expectPagesAsOnFile('a changed row rejected');
    const other = (await ok(engine, 'review.row', { projectId, rowIndex: changed[1]! })).candidates.find((c) => c.rank !== undefined && c.rank !== 1);
    if (other) {
      await ok(engine, 'decisions.choose', { projectId, rowIndex: changed[1]!, rank: other.rank });
      await expectPagesAsOnFile('another person chosen for a changed row');
    }
    await ok(engine, 'decisions.clear', { projectId, rowIndex: moved[2]! });
    await expectPagesAsOnFile('a moved row cleared');
    await ok(engine, 'decisions.skip', { projectId, rowIndex: toReview[0]! });
    await expectPagesAsOnFile('a row to review skipped');
    await ok(engine, 'decisions.choose', { projectId, rowIndex: toReview[1]!, rank: 1, applyToIdentical: true });
    await expectPagesAsOnFile('a row to review accepted with its identical rows');
    await ok(engine, 'decisions.reject', { projectId, rowIndex: changed[3]!, applyToIdentical: true });
    await expectPagesAsOnFile('a changed row rejected with its identical rows');
    // The changed row chosen again: it counts as changed again.
    await ok(engine, 'decisions.undo', { projectId });
    await expectPagesAsOnFile('the last reject undone');
    await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 });
    await expectPagesAsOnFile('every confident row accepted');
    await ok(engine, 'decisions.undo', { projectId });
    await ok(engine, 'decisions.undo', { projectId });
    await expectPagesAsOnFile('two actions undone');
  });
});
