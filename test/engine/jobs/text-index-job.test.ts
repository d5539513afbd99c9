import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { JobProgress, TextIndexProgress } from '../../../shared/contract';
import { onJobDetail } from '../../support/job-events';
import { ManualClock } from '../../../electron/engine/clock';
import type { Engine } from '../../../electron/engine/engine';
import { stopRowTextIndexFill } from '../../../electron/engine/review/row-text-index';
import { fails, ok, writeCsv } from '../core/helpers';
import { EngineOnSim, jobEvents } from './engine-on-sim';

// The text index's fill is a job that job.cancel stops: where it got to is kept, and the next fill goes on from there.

const fixture = new EngineOnSim();

/** Imports 5,000 rows, one of them (row 4,321) at Needle Corp, the rest at Filler Inc; returns the project's id. */
async function importNeedleSheet(engine: Engine): Promise<number> {
  const rows = Array.from({ length: 5_000 }, (_, i) => [`Person${i}`, `p${i}@example.com`, i === 4_321 ? 'Needle Corp' : 'Filler Inc']);
  const file = writeCsv(join(fixture.dir, 'people.csv'), ['Name', 'Email', 'Company'], rows);
  return (await ok(engine, 'projects.import', { file })).summary.id;
}

describe('the text index fill as a job', () => {
  it('stops on job.cancel, keeping where it got to, and the next text filter goes on from there', async () => {
    const engine = await fixture.start();
    const projectId = await importNeedleSheet(engine);
    const events = jobEvents(engine);
    const jobs = (): JobProgress[] => events.filter((p) => p.kind === 'textIndex');
    const fills: TextIndexProgress[] = [];
    onJobDetail(engine, 'textIndex', (p) => fills.push(p), projectId);

    // Cancelled at its first word, in that turn.
    const cancelled = new Promise<boolean>((resolve) => {
      const off = engine.on('job.progress', (p) => {
        if (p.kind !== 'textIndex') return;
        off();
        void ok(engine, 'job.cancel', { projectId, kind: 'textIndex' }).then((r) => resolve(r.cancelled));
      });
    });
    expect(await fails(engine, 'review.page', { projectId, offset: 0, limit: 10, text: 'needle' })).toMatchObject({
      kind: 'cancelled',
      message: 'The text index stopped filling: where it got to is kept. Filter again to go on from there.',
    });
    expect(await cancelled).toBe(true);
    expect(jobs().at(-1)).toMatchObject({ state: 'cancelled', projectId, message: expect.stringContaining('Where the text index got to is kept') });
    const db = (engine as unknown as { db: Database.Database }).db;
    const state = () => db.prepare('SELECT next_row AS nextRow, done FROM row_text_state WHERE project_id = ?').get(projectId) as { nextRow: number; done: number };
    const stoppedAt = state();
    expect(stoppedAt.done).toBe(0);
    expect(stoppedAt.nextRow).toBeGreaterThan(0);
    expect(stoppedAt.nextRow).toBeLessThan(5_000);
    expect(await ok(engine, 'job.list', { projectId })).toEqual([]);

    // The next filter goes on from where the fill stopped, and finds the row.
    const before = fills.length;
    const page = await ok(engine, 'review.page', { projectId, offset: 0, limit: 10, text: 'needle' });
    expect(page.rows.map((r) => r.rowIndex)).toEqual([4_321]);
    expect(fills[before]).toMatchObject({ phase: 'filling' });
    expect(fills[before]!.rowsIndexed).toBeGreaterThan(stoppedAt.nextRow);
    expect(state()).toEqual({ nextRow: 5_000, done: 1 });
    const second = jobs().filter((j) => j.jobId !== jobs()[0]!.jobId);
    expect(second.at(-1)).toMatchObject({ state: 'done', done: 5_000, total: 5_000 });
  });

  it("a user's cancel is not undone by the review's next pages: the background fill waits a minute", async () => {
    const clock = new ManualClock();
    const engine = await fixture.start({}, { clock });
    const projectId = await importNeedleSheet(engine);
    const db = (engine as unknown as { db: Database.Database }).db;
    const events = jobEvents(engine);
    const ended = (state: string) =>
      new Promise<JobProgress>((resolve) => {
        const off = engine.on('job.progress', (p) => p.kind === 'textIndex' && p.state === state && (off(), resolve(p)));
      });

    // The review's page starts the background fill once the engine is idle; the user cancels it at its first word.
    const cancelled = ended('cancelled');
    const firstWord = new Promise<void>((resolve) => {
      const off = engine.on('job.progress', (p) => p.kind === 'textIndex' && (off(), resolve()));
    });
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 10 });
    await firstWord;
    expect(await ok(engine, 'job.cancel', { projectId, kind: 'textIndex' })).toEqual({ cancelled: true });
    expect((await cancelled).message).toBe('Stopped. Where the text index got to is kept; it goes on filling at the next text filter, or in the background a minute from now.');
    const toldSoFar = () => events.filter((p) => p.kind === 'textIndex').length;
    const afterCancel = toldSoFar();

    // The pages the same screen asks for right after start no fill (none is under way to stop), nor 59 seconds later.
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 10 });
    await ok(engine, 'review.page', { projectId, offset: 10, limit: 10, order: 'confidence_desc' });
    expect(stopRowTextIndexFill(db, projectId)).toBeNull();
    clock.advance(59_000);
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 10 });
    expect(stopRowTextIndexFill(db, projectId)).toBeNull();
    expect(toldSoFar()).toBe(afterCancel);

    // A minute after the cancel, the review's page starts it again, and it goes on to the end from where it stopped.
    clock.advance(1_000);
    const done = ended('done');
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 10 });
    expect(await done).toMatchObject({ done: 5_000, total: 5_000 });
    expect(db.prepare('SELECT next_row AS nextRow, done FROM row_text_state WHERE project_id = ?').get(projectId)).toEqual({ nextRow: 5_000, done: 1 });
  });

  it('a text filter right after a cancel fills the index at once and finds its row', async () => {
    const clock = new ManualClock();
    const engine = await fixture.start({}, { clock });
    const projectId = await importNeedleSheet(engine);
    const cancelled = new Promise<void>((resolve) => {
      const off = engine.on('job.progress', (p) => {
        if (p.kind !== 'textIndex') return;
        off();
        void ok(engine, 'job.cancel', { projectId, kind: 'textIndex' }).then(() => resolve());
      });
    });
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 10 });
    await cancelled;
    const page = await ok(engine, 'review.page', { projectId, offset: 0, limit: 10, text: 'needle' });
    expect(page.rows.map((r) => r.rowIndex)).toEqual([4_321]);
  });
});
