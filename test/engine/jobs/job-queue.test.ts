import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { JobKind, JobProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { fails, ok } from '../core/helpers';
import { EngineOnSim, jobEvents } from './engine-on-sim';

// Work the overlap table has wait (an undo behind an accept) is a job from the start: queued, listed, cancellable,
// then running once it may go. An undo stops part-way when cancelled, keeping what it took back.

const MAPPING = { fullName: 0, company: 1 };
const ROWS = 1200;
const fixture = new EngineOnSim();

/** A project of ROWS rows, run, every row waiting for review; the job events from then on. */
async function runProject(): Promise<{ engine: Engine; projectId: number; events: JobProgress[] }> {
  const engine = await fixture.start();
  const projectId = (await ok(engine, 'projects.import', { file: fixture.sheet(ROWS) })).summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
  await ok(engine, 'run.start', { projectId, offline: false, autoAccept: false });
  expect((await engine.runSettled(projectId))!.status).toBe('done');
  return { engine, projectId, events: jobEvents(engine) };
}

function stateCount(engine: Engine, projectId: number, state: string): number {
  const db = (engine as unknown as { db: Database.Database }).db;
  return db.prepare('SELECT count(*) FROM row_status WHERE project_id = ? AND state = ?').pluck().get(projectId, state) as number;
}

/** Resolves with the first job event of `kind` that `when` holds for. */
function firstEvent(engine: Engine, kind: JobKind, when: (p: JobProgress) => boolean): Promise<JobProgress> {
  return new Promise((resolve) => {
    const off = engine.on('job.progress', (p) => {
      if (p.kind !== kind || !when(p)) return;
      off();
      resolve(p);
    });
  });
}

/** Cancels the first job of `kind` that `when` holds for through job.cancel, in the turn it says so (by id, or by project and kind). */
function cancelOn(engine: Engine, kind: JobKind, when: (p: JobProgress) => boolean, by: 'id' | 'kind'): Promise<{ at: JobProgress; cancelled: boolean }> {
  return new Promise((resolve) => {
    const off = engine.on('job.progress', (p) => {
      if (p.kind !== kind || !when(p)) return;
      off();
      void ok(engine, 'job.cancel', by === 'id' ? { jobId: p.jobId } : { projectId: p.projectId, kind }).then((r) => resolve({ at: p, cancelled: r.cancelled }));
    });
  });
}

describe('queued jobs', () => {
  it('an undo asked while an accept goes is queued (listed as such), then runs once the accept has ended', async () => {
    const { engine, projectId, events } = await runProject();
    const toReview = stateCount(engine, projectId, 'to_review');
    const accepting = firstEvent(engine, 'accept', (p) => p.state === 'running');
    const accept = ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 });
    await accepting;
    const queued = firstEvent(engine, 'undo', () => true);
    const undo = ok(engine, 'decisions.undo', { projectId });
    expect(await queued).toMatchObject({ state: 'queued', projectId });
    const listed = await ok(engine, 'job.list', { projectId });
    expect(listed.map((j) => `${j.kind}:${j.state}`)).toEqual(['accept:running', 'undo:queued']);

    expect((await accept).changed).toBeGreaterThan(500);
    expect((await undo).changed).toBeGreaterThan(500);
    const undoStates = events.filter((e) => e.kind === 'undo').map((e) => e.state);
    expect(undoStates[0]).toBe('queued');
    expect(undoStates.at(-1)).toBe('done');
    expect(undoStates.indexOf('running')).toBeGreaterThan(0);
    // It ran after the accept: the accept's last word comes before the undo's first running one.
    const acceptDone = events.findIndex((e) => e.kind === 'accept' && e.state === 'done');
    expect(acceptDone).toBeGreaterThan(-1);
    expect(events.findIndex((e) => e.kind === 'undo' && e.state === 'running')).toBeGreaterThan(acceptDone);
    expect(stateCount(engine, projectId, 'to_review')).toBe(toReview);
  });

  it('cancels a queued undo through job.cancel: it never starts, and the accept it waited for goes on untouched', async () => {
    const { engine, projectId, events } = await runProject();
    const accepting = firstEvent(engine, 'accept', (p) => p.state === 'running');
    const accept = ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 });
    await accepting;
    const cancel = cancelOn(engine, 'undo', (p) => p.state === 'queued', 'id');
    const undo = fails(engine, 'decisions.undo', { projectId });
    expect(await cancel).toMatchObject({ at: { state: 'queued' }, cancelled: true });

    expect(await undo).toMatchObject({ kind: 'cancelled', message: 'Cancelled while it waited its turn: nothing was changed.' });
    const accepted = (await accept).changed;
    expect(events.filter((e) => e.kind === 'undo').map((e) => e.state)).toEqual(['queued', 'cancelled']);
    expect(events.filter((e) => e.kind === 'accept').at(-1)!.state).toBe('done');
    expect(stateCount(engine, projectId, 'auto')).toBe(accepted);
  });

  it('cancels an undo part-way through job.cancel: the rows taken back stay so, it says how many, and undo again finishes it', async () => {
    const { engine, projectId, events } = await runProject();
    const toReview = stateCount(engine, projectId, 'to_review');
    const accepted = (await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 })).changed;
    expect(accepted).toBeGreaterThan(500);

    // After its first slice (500 rows), the undo is cancelled by project and kind.
    const cancel = cancelOn(engine, 'undo', (p) => p.state === 'running' && p.done > 0 && p.done < p.total, 'kind');
    const undo = fails(engine, 'decisions.undo', { projectId });
    expect(await cancel).toMatchObject({ at: { done: 500 }, cancelled: true });
    expect(await undo).toMatchObject({
      kind: 'cancelled',
      message: `Undo stopped after 500 of ${accepted.toLocaleString('en-US')} rows: those are back as they were, the rest as the action left them. Undo again to take back the rest.`,
    });
    expect(events.filter((e) => e.kind === 'undo').at(-1)!.state).toBe('cancelled');
    expect(stateCount(engine, projectId, 'auto')).toBe(accepted - 500);

    // The action is not marked undone: the next undo takes back the rest, and only the rest.
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(accepted - 500);
    expect(stateCount(engine, projectId, 'auto')).toBe(0);
    expect(stateCount(engine, projectId, 'to_review')).toBe(toReview);
  });

  it('cancels an undo the moment it may go: it never starts, and no row is changed', async () => {
    const { engine, projectId } = await runProject();
    const accepted = (await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 })).changed;
    const cancel = cancelOn(engine, 'undo', (p) => p.state === 'running', 'id');
    const undo = fails(engine, 'decisions.undo', { projectId });
    expect(await cancel).toMatchObject({ cancelled: true });
    expect(await undo).toMatchObject({ kind: 'cancelled', message: 'Cancelled before it started: nothing was changed.' });
    expect(stateCount(engine, projectId, 'auto')).toBe(accepted);
  });
});
