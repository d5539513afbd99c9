import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { ok, runToEnd } from '../core/helpers';
import { EngineOnSim, jobEvents } from './engine-on-sim';

// The copy of verdicts from another project of the same sheet is its run's first step and a job of its own: its own
// progress, its own cancel (which stops the copy, not the run: the run works the rest out as always).

const MAPPING = { fullName: 0, company: 1 };
const ROWS = 4_500;
const fixture = new EngineOnSim();

/** A sheet of more rows than two spans of the copy (2,000 each), run once; then imported again, not run yet. */
async function sheetRunOnce(): Promise<{ engine: Engine; first: number; again: number; events: JobProgress[] }> {
  const engine = await fixture.start({ people: 3000, seed: 7 });
  const file = fixture.sheet(ROWS, true);
  const imported = async () => {
    const id = (await ok(engine, 'projects.import', { file })).summary.id;
    await ok(engine, 'mapping.save', { projectId: id, mapping: MAPPING, strategies: ['name+company'] });
    return id;
  };
  const first = await imported();
  expect((await runToEnd(engine, first)).status).toBe('done');
  const again = await imported();
  return { engine, first, again, events: jobEvents(engine) };
}

/** Each row's outcome as the run left it, in row order (the time an accepted row was decided at aside). */
function outcomes(engine: Engine, projectId: number): unknown[] {
  const db = (engine as unknown as { db: Database.Database }).db;
  return db
    .prepare('SELECT row_index, state, outcome, step, query_id, candidate_count, chosen_rank, chosen, source, confidence, runner_up, best_rank, reason, guard FROM row_status WHERE project_id = ? ORDER BY row_index')
    .all(projectId)
    .map((r) => ({ ...(r as object), row_index: undefined }));
}

describe('the verdict copy as a job', () => {
  it("is its run's first step, with its own job from start to done, beside the run's", async () => {
    const { engine, first, again, events } = await sheetRunOnce();
    const listed = new Promise<JobProgress[]>((resolve) => {
      const off = engine.on('job.progress', (p) => {
        if (p.kind !== 'verdictCopy' || p.done === 0) return;
        off();
        void ok(engine, 'job.list', { projectId: again }).then(resolve);
      });
    });
    expect(await runToEnd(engine, again)).toMatchObject({ status: 'done', calls: 0, rowsResolved: ROWS });
    expect((await listed).map((j) => j.kind).sort()).toEqual(['run', 'verdictCopy']);

    const copy = events.filter((e) => e.kind === 'verdictCopy');
    expect(copy[0]).toMatchObject({ state: 'running', projectId: again, phase: 'copying verdicts' });
    expect(copy.at(-1)).toMatchObject({ state: 'done', done: ROWS, total: ROWS });
    expect(copy.at(-1)!.message).toMatch(/rows' verdicts copied from another project of this sheet\.$/);
    expect(new Set(copy.map((e) => e.jobId)).size).toBe(1);
    // The copy ended before the run did: it is the run's first step.
    const copyEnd = events.indexOf(copy.at(-1)!);
    expect(events.findIndex((e) => e.kind === 'run' && e.state === 'done')).toBeGreaterThan(copyEnd);
    expect(outcomes(engine, again)).toEqual(outcomes(engine, first));
  });

  it('is not started by a run with no row waiting', async () => {
    const { engine, again, events } = await sheetRunOnce();
    expect((await runToEnd(engine, again)).status).toBe('done');
    const copies = () => events.filter((e) => e.kind === 'verdictCopy').length;
    const before = copies();
    expect(before).toBeGreaterThan(0);
    // Run again with every row settled: nothing to copy, and no copy walking the sheet's spans for none.
    expect(await runToEnd(engine, again)).toMatchObject({ status: 'done', calls: 0, rowsResolved: ROWS });
    expect(copies()).toBe(before);
  });

  it('cancelled through job.cancel after its first span, the copy stops and the run works the rest out, ending as the copy would have', async () => {
    const { engine, first, again, events } = await sheetRunOnce();
    const cancelled = new Promise<boolean>((resolve) => {
      const off = engine.on('job.progress', (p) => {
        if (p.kind !== 'verdictCopy' || p.done === 0) return;
        off();
        void ok(engine, 'job.cancel', { projectId: again, kind: 'verdictCopy' }).then((r) => resolve(r.cancelled));
      });
    });
    expect(await runToEnd(engine, again)).toMatchObject({ status: 'done', calls: 0, rowsResolved: ROWS });
    expect(await cancelled).toBe(true);

    const copy = events.filter((e) => e.kind === 'verdictCopy');
    expect(copy.at(-1)).toMatchObject({ state: 'cancelled', message: 'Stopped: the run works out the rest of the rows itself.' });
    expect(copy.at(-1)!.done).toBeLessThan(ROWS);
    expect(events.filter((e) => e.kind === 'run').at(-1)).toMatchObject({ state: 'done', done: ROWS });
    expect(outcomes(engine, again)).toEqual(outcomes(engine, first));
  });
});
