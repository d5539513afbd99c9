// A run started beside its project's first plan follows it: it settles the rows planned so far while the rest are
// planned, and ends with what the same run started after the plan would have stored.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { connect, fails, ok, openEngine, startSim, tempDir, writeCsv } from './helpers';

/** Three pages of the plan (runs/plan-queries.ts plans 10,000 rows a page). */
const ROWS = 25_000;

let sim: Simulator;
let tmp: ReturnType<typeof tempDir>;
let sheet: string;

beforeAll(async () => {
  sim = await startSim({ people: 3000 });
  tmp = tempDir('matchdesk-follow-');
  const people = sim.dataset.people;
  const rows: string[][] = [];
  for (let i = 0; i < ROWS; i++) {
    const p = people[(i * 7) % people.length]!;
    const company = p.jobs.find((j) => j.ended_at === null)?.company.name ?? '';
    // Some rows ask by e-mail, some by name and company, some give nothing to ask.
    if (i % 11 === 0) rows.push(['', '', '']);
    else if (i % 3 === 0) rows.push([p.name, `${p.name.split(' ')[0]!.toLowerCase()}.${i}@nowhere.test`, company]);
    else rows.push([p.name, '', company]);
  }
  sheet = writeCsv(join(tmp.dir, 'sheet.csv'), ['Name', 'Email', 'Company'], rows);
}, 60_000);

afterAll(async () => {
  await sim.close();
  tmp.remove();
});

async function importedProject(engine: Engine) {
  await connect(engine, sim);
  return ok(engine, 'projects.import', { file: sheet });
}

/** Saves the mapping and starts the run once the plan's job is under way, without waiting for the plan. */
async function runBesidePlan(engine: Engine, projectId: number, mapping: object, strategies: string[]) {
  /** The find calls the service had answered by each progress the run told while it said the plan was partial. */
  const callsWhilePlanning: number[] = [];
  const offRun = engine.on('job.progress', (job) => {
    if (job.kind !== 'run' || !job.detail) return;
    const { rowsPlanned } = job.detail as RunProgress;
    if (rowsPlanned !== undefined && rowsPlanned < ROWS) callsWhilePlanning.push(sim.counters().findCalls);
  });
  let planGoing = () => undefined as void;
  const going = new Promise<void>((resolve) => (planGoing = resolve));
  const offPlan = engine.on('job.progress', (job) => {
    if (job.kind === 'plan' && job.projectId === projectId && job.state === 'running') planGoing();
  });
  const saving = engine.call('mapping.save', { projectId, mapping, strategies });
  await going;
  offPlan();
  const started = await ok(engine, 'run.start', { projectId, autoAccept: true });
  return { started, saving, callsWhilePlanning, offRun };
}

/** The project's stored results, without times and with people named by their facts (their ids follow landing order). */
function results(engine: Engine, projectId: number): string {
  const db = new Database(engine.dbPath, { readonly: true });
  try {
    const hash = createHash('sha256');
    const facts = db.prepare('SELECT facts FROM people WHERE id = ?').pluck();
    for (const row of db.prepare('SELECT * FROM row_status WHERE project_id = ? ORDER BY row_index').iterate(projectId) as IterableIterator<Record<string, unknown>>) {
      const { fetched_at: _f, decided_at: _d, chosen_person: person, ...rest } = row;
      hash.update(JSON.stringify({ ...rest, person: person === null ? null : facts.get(person) }));
    }
    for (const row of db.prepare('SELECT * FROM row_queries WHERE project_id = ? ORDER BY row_index, step').raw().iterate(projectId)) hash.update(JSON.stringify(row));
    for (const row of db.prepare('SELECT * FROM shared_queries WHERE project_id = ? ORDER BY query_id, row_index').raw().iterate(projectId)) hash.update(JSON.stringify(row));
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

describe('a run started beside its project\'s first plan', () => {
  let planned: string;

  beforeAll(async () => {
    const engine = await openEngine(join(tmp.dir, 'planned-first'));
    try {
      const { summary, mapping, strategies } = await importedProject(engine);
      await ok(engine, 'mapping.save', { projectId: summary.id, mapping, strategies });
      await ok(engine, 'run.start', { projectId: summary.id, autoAccept: true });
      expect((await engine.runSettled(summary.id))?.status).toBe('done');
      planned = results(engine, summary.id);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('starts before the plan is whole, says how far the plan is, and stores what a run after the plan stores', async () => {
    const engine = await openEngine(join(tmp.dir, 'followed'));
    try {
      const { summary, mapping, strategies } = await importedProject(engine);
      const { started, saving, callsWhilePlanning, offRun } = await runBesidePlan(engine, summary.id, mapping, strategies);
      expect(started.status).toBe('running');
      const end = await engine.runSettled(summary.id);
      offRun();
      expect((await saving).ok).toBe(true);
      expect(end?.status).toBe('done');
      // Calls went out while rows were still being planned, and the queries' total was said to be partial then (the
      // service's count: a call is committed once its reply is read, which may be after the plan's end).
      const callsBefore = sim.counters().findCalls - (end?.calls ?? 0);
      expect(Math.max(...callsWhilePlanning)).toBeGreaterThan(callsBefore);
      expect(end?.rowsPlanned).toBeUndefined();
      expect(end?.rowsResolved).toBe(end?.rowsTotal);
      expect(results(engine, summary.id)).toBe(planned);
      // The preview as it stood before the run: every first-step query, none of them cached then.
      const before = await ok(engine, 'run.preview', { projectId: summary.id, beforeFirstRun: true });
      expect(before.cachedFresh).toBe(0);
      expect(before.toFetch).toBe(before.distinctQueries);
      expect(before.toFetch).toBeGreaterThan(0);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('pauses when the plan is cancelled, keeping what landed, and its resume ends as the plan-first run', async () => {
    const engine = await openEngine(join(tmp.dir, 'cancelled'));
    try {
      const { summary, mapping, strategies } = await importedProject(engine);
      const { saving, offRun } = await runBesidePlan(engine, summary.id, mapping, strategies);
      await ok(engine, 'job.cancel', { projectId: summary.id, kind: 'plan' });
      const end = await engine.runSettled(summary.id);
      offRun();
      const saved = await saving;
      expect(saved.ok).toBe(false);
      expect(end?.status).toBe('paused');
      expect(end?.message).toMatch(/plan this run followed stopped/);
      expect(end!.rowsResolved).toBeLessThan(ROWS);
      // Its resume plans the project again first, then settles the rest.
      await ok(engine, 'run.resume', { projectId: summary.id });
      expect((await engine.runSettled(summary.id))?.status).toBe('done');
      expect(results(engine, summary.id)).toBe(planned);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('is refused beside a plan that rewrites rows planned before', async () => {
    const engine = await openEngine(join(tmp.dir, 'replanned'));
    try {
      const { summary, mapping, strategies } = await importedProject(engine);
      await ok(engine, 'mapping.save', { projectId: summary.id, mapping, strategies });
      const saving = engine.call('mapping.save', { projectId: summary.id, mapping, strategies: [...strategies].reverse() });
      await new Promise((resolve) => setImmediate(resolve));
      expect((await fails(engine, 'run.start', { projectId: summary.id })).kind).toBe('busy');
      expect((await saving).ok).toBe(true);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
