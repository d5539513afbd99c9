import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { DecisionsProgress, ReviewRow } from '../../../shared/contract';
import type { RowState } from '../../../shared/model';
import { detailOf, jobEnded } from '../../../shared/job-detail';
import type { Simulator } from '../../../electron/simulator';
import { onJobDetail } from '../../support/job-events';
import { connect, currentCompany, fails, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;
const dataDir = () => join(tmp.dir, 'data');

/**
 * "Accept all at or above" and its undo work through the rows a few hundred at a time (review/decisions.ts): this
 * sheet leaves more than two such pages of rows to review (name + company under a threshold nothing reaches), so
 * the pages' seams, the counts kept through them and the undo's paging are all crossed.
 */
beforeAll(async () => {
  tmp = tempDir();
  sim = await startSim({ scores: true });
  engine = await openEngine(dataDir());
  await connect(engine, sim);
  await ok(engine, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0 } });
  const rows = findablePeople(sim)
    .slice(0, 1300)
    .map((p) => [p.name, currentCompany(p)]);
  const file = writeCsv(join(tmp.dir, 'many.csv'), ['Name', 'Company'], rows);
  projectId = (await ok(engine, 'projects.import', { file })).summary.id;
  expect((await runToEnd(engine, projectId)).status).toBe('done');
});
afterAll(async () => {
  await engine.close();
  await sim.close();
  tmp.remove();
});

/** Every row of the review list (in its pages of at most 500), optionally in the given states only. */
async function reviewRows(states?: RowState[]): Promise<ReviewRow[]> {
  const rows: ReviewRow[] = [];
  for (;;) {
    const page = await ok(engine, 'review.page', { projectId, states, offset: rows.length, limit: 500 });
    rows.push(...page.rows);
    if (page.rows.length === 0 || rows.length >= page.total) return rows;
  }
}

async function stateOfEveryRow(): Promise<string[]> {
  return (await reviewRows()).map((r) => `${r.rowIndex} ${r.state} ${r.chosenRank ?? '-'} ${r.top?.id ?? '-'}`);
}

/** What a screen opened meanwhile finds of the decision over many rows going on (job.list): its job's detail, or null. */
async function bulkUnderWay(): Promise<DecisionsProgress | null> {
  const jobs = await ok(engine, 'job.list', { projectId });
  return jobs.map((job) => detailOf(job, ['accept', 'undo', 'learn'])).find((detail) => detail !== null) ?? null;
}

describe('accepting many rows at once', () => {
  it('accepts exactly what the preview counted, across pages, and one undo puts every row back', async () => {
    const before = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
    const rowsBefore = await stateOfEveryRow();
    const preview = await ok(engine, 'decisions.acceptPreview', { projectId });
    const lowest = preview.thresholds[preview.thresholds.length - 1]!;
    expect(lowest.rows).toBeGreaterThan(1000);

    const told: DecisionsProgress[] = [];
    const off = onJobDetail(engine, 'accept', (p) => told.push(p));
    const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence }).finally(off);
    expect(accepted.changed).toBe(lowest.rows);
    expect(accepted.counts.auto).toBe(before.counts.auto + lowest.rows);
    // It said how far it was: from none to all of the rows it counted, never stepping back.
    expect(told.every((p) => p.projectId === projectId && p.action === 'accept' && p.rowsTotal === lowest.rows)).toBe(true);
    expect(told[0]!.rowsDone).toBe(0);
    expect(told.at(-1)!.rowsDone).toBe(lowest.rows);
    expect(told.map((p) => p.rowsDone)).toEqual([...told.map((p) => p.rowsDone)].sort((a, b) => a - b));
    expect(accepted.counts.to_review).toBe(before.counts.to_review - lowest.rows);
    const autoRows = await reviewRows(['auto']);
    expect(autoRows).toHaveLength(accepted.counts.auto);
    expect(autoRows.every((r) => r.chosenRank !== null && r.chosenRank === r.bestRank && r.top !== null)).toBe(true);

    // Counted afresh by a new engine, the kept counts were right.
    await engine.close();
    engine = await openEngine(dataDir());
    expect((await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts).toEqual(accepted.counts);

    const undone = await ok(engine, 'decisions.undo', { projectId });
    expect(undone.changed).toBe(lowest.rows);
    expect(undone.counts).toEqual(before.counts);
    expect(await stateOfEveryRow()).toEqual(rowsBefore);
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(0);
  });

  it('lets other calls in between its slices, holds decisions on the project until it ends, and stays one undoable action', async () => {
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const lowest = (await ok(engine, 'decisions.acceptPreview', { projectId })).thresholds.at(-1)!;
    // When the accept's job ended (its last progress event, after its last slice), and when the undo's answer came.
    const ended: string[] = [];
    const off = onJobDetail(engine, 'accept', (p, job) => p.rowsDone === p.rowsTotal && jobEnded(job) && ended.push('accept'));
    const accepting = ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence }).finally(off);
    // One turn of the event loop: the first slice is written, the rest wait their turn behind this test's calls.
    await new Promise((resolve) => setImmediate(resolve));
    const midway = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
    expect(midway.counts.auto).toBeGreaterThan(before.auto);
    expect(midway.counts.auto).toBeLessThan(before.auto + lowest.rows);
    // A run would rewrite the rows under it: refused. An undo pressed now waits, then takes back the whole accept.
    expect(await fails(engine, 'run.start', { projectId })).toMatchObject({ kind: 'busy', message: "This project's confident rows are being accepted. Try again in a moment." });
    const undoing = ok(engine, 'decisions.undo', { projectId }).finally(() => ended.push('undo'));

    const accepted = await accepting;
    expect(accepted.changed).toBe(lowest.rows);
    expect(accepted.counts.auto).toBe(before.auto + lowest.rows);
    const undone = await undoing;
    expect(ended).toEqual(['accept', 'undo']);
    // Its slices are one action: the one undo took every row back.
    expect(undone.changed).toBe(lowest.rows);
    expect(undone.counts).toEqual(before);
  });
  it('a decision asked while it goes waits for it, as the overlap table says, and is an action of its own after it', async () => {
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const lowest = (await ok(engine, 'decisions.acceptPreview', { projectId })).thresholds.at(-1)!;
    const row = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1, states: ['to_review'] })).rows[0]!;
    const ended: string[] = [];
    const accepting = ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence }).finally(() => ended.push('accept'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await bulkUnderWay()).toMatchObject({ action: 'accept' });
    // Not refused: it waits for the accept's last slice, then rejects the row the accept took.
    const rejected = await ok(engine, 'decisions.reject', { projectId, rowIndex: row.rowIndex }).finally(() => ended.push('reject'));
    expect(ended).toEqual(['accept', 'reject']);
    expect((await accepting).changed).toBe(lowest.rows);
    expect(rejected.row).toMatchObject({ rowIndex: row.rowIndex, state: 'rejected' });
    // Two actions, in the order they were made: the first undo takes back the rejection alone, the second the accept.
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(1);
    const undone = await ok(engine, 'decisions.undo', { projectId });
    expect(undone.changed).toBe(lowest.rows);
    expect(undone.counts).toEqual(before);
  });

  it('cancelled part-way, takes back the slices it wrote: the counts and every row are as before, and nothing is left to undo of it', async () => {
    const rowsBefore = await stateOfEveryRow();
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const lowest = (await ok(engine, 'decisions.acceptPreview', { projectId })).thresholds.at(-1)!;
    let cancelled: Promise<unknown> | null = null;
    let writtenWhenCancelled = 0;
    // Cancelled once its first slice is written, as a user's Cancel would find it.
    const off = onJobDetail(engine, 'accept', (p) => {
      if (p.rowsDone === 0 || cancelled) return;
      writtenWhenCancelled = p.rowsDone;
      cancelled = ok(engine, 'job.cancel', { projectId, kind: 'accept' });
    });
    const failure = await fails(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence }).finally(off);
    expect(await cancelled).toEqual({ cancelled: true });
    expect(writtenWhenCancelled).toBeGreaterThan(0);
    expect(writtenWhenCancelled).toBeLessThan(lowest.rows);
    expect(failure).toEqual({ kind: 'cancelled', message: 'Accepting the confident rows was cancelled: no row was changed.' });
    expect((await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts).toEqual(before);
    expect(await stateOfEveryRow()).toEqual(rowsBefore);
    // The accept is marked undone in the log: an undo now has nothing of it to take back.
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(0);
    expect(await ok(engine, 'job.cancel', { projectId, kind: 'accept' })).toEqual({ cancelled: false });
  });

  it('stops before its next slice when the engine closes, keeping the slices written as one action that undo takes back', async () => {
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const lowest = (await ok(engine, 'decisions.acceptPreview', { projectId })).thresholds.at(-1)!;
    let closing: Promise<void> | null = null;
    const off = onJobDetail(engine, 'accept', (p) => {
      if (p.rowsDone > 0 && !closing) closing = engine.close();
    });
    const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence }).finally(off);
    await closing;
    // It ended at once with the rows of its written slices, not after every one of them (nor cut off by a closed database).
    expect(accepted.changed).toBeGreaterThan(0);
    expect(accepted.changed).toBeLessThan(lowest.rows);

    engine = await openEngine(dataDir());
    const reopened = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    expect(reopened.auto).toBe(before.auto + accepted.changed);
    const undone = await ok(engine, 'decisions.undo', { projectId });
    expect(undone.changed).toBe(accepted.changed);
    expect(undone.counts).toEqual(before);
  });
  it('undoes a large accept in slices too, saying how far it is, answering other calls between them and refusing a run until it is done', async () => {
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const lowest = (await ok(engine, 'decisions.acceptPreview', { projectId })).thresholds.at(-1)!;
    expect((await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: lowest.minConfidence })).changed).toBe(lowest.rows);
    expect(await bulkUnderWay()).toBeNull();

    const told: DecisionsProgress[] = [];
    const off = onJobDetail(engine, 'undo', (p) => told.push(p));
    const undoing = ok(engine, 'decisions.undo', { projectId }).finally(off);
    // One turn of the event loop: the first slice is back in review, the rest still accepted.
    await new Promise((resolve) => setImmediate(resolve));
    const midway = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    expect(midway.to_review).toBeGreaterThan(before.to_review - lowest.rows);
    expect(midway.to_review).toBeLessThan(before.to_review);
    expect(await fails(engine, 'run.start', { projectId })).toMatchObject({ kind: 'busy', message: "This project's last action is being undone. Try again in a moment." });
    // A screen opened now (another window, or the review after going elsewhere) learns what is going on, and how far.
    const underWay = (await bulkUnderWay())!;
    expect(underWay).toMatchObject({ projectId, action: 'undo', rowsTotal: lowest.rows });
    expect(underWay.rowsDone).toBeGreaterThan(0);
    expect(underWay.rowsDone).toBeLessThan(lowest.rows);

    const undone = await undoing;
    expect(undone.changed).toBe(lowest.rows);
    expect(undone.counts).toEqual(before);
    expect(told.every((p) => p.projectId === projectId && p.action === 'undo' && p.rowsTotal === lowest.rows)).toBe(true);
    expect(told[0]!.rowsDone).toBe(0);
    expect(told.at(-1)!.rowsDone).toBe(lowest.rows);
    expect(await bulkUnderWay()).toBeNull();
    // An undo of one row says nothing: it is over before a line could be read.
    const row = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1, states: ['to_review'] })).rows[0]!;
    await ok(engine, 'decisions.choose', { projectId, rowIndex: row.rowIndex, rank: 1 });
    const quiet: DecisionsProgress[] = [];
    const offQuiet = onJobDetail(engine, 'undo', (p) => quiet.push(p));
    expect((await ok(engine, 'decisions.undo', { projectId }).finally(offQuiet)).changed).toBe(1);
    expect(quiet).toEqual([]);
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(0);
  });
});
