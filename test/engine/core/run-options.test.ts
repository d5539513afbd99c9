import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../shared/contract';
import type { Clock } from '../../../electron/engine/clock';
import type { Engine } from '../../../electron/engine/engine';
import { buildEvaluationSet } from '../../../electron/simulator/evaluation-set';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, startSim, tempDir, writeCsv } from './helpers';

// A run stopped part-way (paused, Ctrl-C, a crash) and resumed must end exactly as the same run left alone: it goes on
// under the options it started with, whatever the settings say by the time it is resumed.

const noWaitClock: Clock = { now: () => Date.now(), sleep: async () => undefined };
const MAPPING = { fullName: 0, email: 1, profile: 2, company: 3 };

let tmp: ReturnType<typeof tempDir> | null = null;
let sim: Simulator | null = null;
const engines: Engine[] = [];

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await sim?.close();
  sim = null;
  tmp?.remove();
  tmp = null;
});

async function engineOn(folder: string): Promise<Engine> {
  const engine = await openEngine(join(tmp!.dir, folder), { clock: noWaitClock });
  engines.push(engine);
  await connect(engine, sim!);
  await ok(engine, 'settings.update', { concurrency: 1 });
  return engine;
}

/** A sheet of every kind of row (clear, doubtful, nobody), so the rule decides differently at different thresholds. */
function mixedSheet(): string {
  const set = buildEvaluationSet(sim!.dataset, { seed: 7, rowsPerCategory: 60 });
  return writeCsv(join(tmp!.dir, 'mixed.csv'), set.headers, set.rows);
}

async function importMixed(engine: Engine, file: string): Promise<number> {
  const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['email', 'social', 'name+company'] });
  return projectId;
}

function until(engine: Engine, projectId: number, test: (p: RunProgress) => boolean): Promise<RunProgress> {
  return new Promise((resolve) => {
    const off = engine.on('run.progress', (p) => {
      if (p.projectId === projectId && test(p)) {
        off();
        resolve(p);
      }
    });
  });
}

/** Every row's state and chosen rank, in file order. */
function outcomes(engine: Engine, folder: string, projectId: number): string[] {
  void engine;
  const db = new Database(join(tmp!.dir, folder, 'matchdesk.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT row_index, state, chosen_rank FROM row_status WHERE project_id = ? ORDER BY row_index').raw().all(projectId) as unknown[][]).map(
      (r) => r.join(':'),
    );
  } finally {
    db.close();
  }
}

const START = { autoAccept: true, minConfidence: 0.99 } as const;

describe('a resumed run goes on under the options it started with', () => {
  it('paused, the settings changed, then resumed: it ends as the same run left alone', async () => {
    tmp = tempDir();
    sim = await startSim({ latencyMs: 40 });
    const file = mixedSheet();

    const alone = await engineOn('alone');
    const aloneProject = await importMixed(alone, file);
    await ok(alone, 'run.start', { projectId: aloneProject, ...START });
    expect((await alone.runSettled(aloneProject))!.status).toBe('done');
    const expected = outcomes(alone, 'alone', aloneProject);
    // The threshold matters on this sheet: under the setting's rule the rows would end otherwise.
    const states = new Set(expected.map((o) => o.split(':')[1]));
    expect(states.has('auto') && states.has('to_review')).toBe(true);

    const stopped = await engineOn('stopped');
    const projectId = await importMixed(stopped, file);
    const started = await ok(stopped, 'run.start', { projectId, ...START });
    expect(started.autoAccept).toMatchObject({ enabled: true, minConfidence: 0.99 });
    await until(stopped, projectId, (p) => p.calls >= 2);
    const paused = await ok(stopped, 'run.pause', { projectId });
    expect(paused!.status).toBe('paused');
    expect(paused!.rowsResolved).toBeLessThan(expected.length);
    await ok(stopped, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.6, minLead: 0.1 } });

    const resumed = await ok(stopped, 'run.resume', { projectId });
    expect(resumed!.autoAccept).toMatchObject({ enabled: true, minConfidence: 0.99 });
    expect((await stopped.runSettled(projectId))!.status).toBe('done');
    expect(outcomes(stopped, 'stopped', projectId)).toEqual(expected);
  });

  it('cut off by a crash and resumed after a restart: it ends as the same run left alone, rows left for review stay so', async () => {
    tmp = tempDir();
    sim = await startSim({ latencyMs: 40 });
    const file = mixedSheet();

    const alone = await engineOn('alone');
    const aloneProject = await importMixed(alone, file);
    await ok(alone, 'run.start', { projectId: aloneProject, autoAccept: false });
    await alone.runSettled(aloneProject);
    const expected = outcomes(alone, 'alone', aloneProject);
    expect(expected.some((o) => o.includes(':auto:'))).toBe(false);

    const first = await engineOn('crashed');
    const projectId = await importMixed(first, file);
    await ok(first, 'run.start', { projectId, autoAccept: false });
    await until(first, projectId, (p) => p.calls >= 2);
    await first.close();
    engines.splice(engines.indexOf(first), 1);
    // As if the process had been killed: the run is still marked running in the file.
    const db = new Database(join(tmp.dir, 'crashed', 'matchdesk.sqlite'));
    db.prepare("UPDATE runs SET status = 'running'").run();
    db.close();

    const again = await engineOn('crashed');
    const status = await ok(again, 'run.status', { projectId });
    expect(status).toMatchObject({ status: 'paused', autoAccept: { enabled: false } });
    await ok(again, 'run.resume', { projectId });
    expect((await again.runSettled(projectId))!.status).toBe('done');
    expect(outcomes(again, 'crashed', projectId)).toEqual(expected);
  });

  it('a run stored before runs kept their options resumes under the settings, as it always did', async () => {
    tmp = tempDir();
    sim = await startSim({ latencyMs: 40 });
    const engine = await engineOn('old');
    const projectId = await importMixed(engine, mixedSheet());
    await ok(engine, 'run.start', { projectId, autoAccept: false });
    await until(engine, projectId, (p) => p.calls >= 1);
    await ok(engine, 'run.pause', { projectId });
    const db = new Database(join(tmp.dir, 'old', 'matchdesk.sqlite'));
    // It had no job: a run's options are kept with its job (migrations 024 and 026 made one for each run that had them).
    db.prepare("DELETE FROM jobs WHERE kind = 'run'").run();
    db.close();
    const status = await ok(engine, 'run.status', { projectId });
    expect(status!.autoAccept).toBeNull();
    const resumed = await ok(engine, 'run.resume', { projectId });
    expect(resumed!.autoAccept).toMatchObject({ enabled: true, minConfidence: 0.95 });
    expect((await engine.runSettled(projectId))!.status).toBe('done');
  });
});
