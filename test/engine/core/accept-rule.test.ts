// The auto-accept rule is written once (matching/auto-accept.ts); "accept all at or above" and its counts select
// rows with SQL generated from it. Here rows are given verdicts on the rule's edges, and the engine's preview and
// bulk accept must take exactly the rows the TypeScript rule takes.
import Sqlite from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { clearsLimits, type AcceptLimits, type Verdict } from '../../../electron/engine/matching';
import type { Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

const LIMITS: AcceptLimits = { minConfidence: 0.9, minLead: 0.5 };
/** Twice the rule's epsilon: far enough below a limit to be under it, however the float rounds. */
const BELOW = 2e-9;

/** A verdict per row, on and around the limits, and whether the rule takes it. */
const CASES: { name: string; verdict: Verdict; takes: boolean }[] = [
  { name: 'exactly at both limits', verdict: { confidence: 0.9, runnerUp: 0.4, guard: null }, takes: true },
  { name: 'a hair under the threshold (a sum of shares)', verdict: { confidence: 0.9 - 1e-10, runnerUp: 0, guard: null }, takes: true },
  { name: 'below the threshold', verdict: { confidence: 0.9 - BELOW, runnerUp: 0, guard: null }, takes: false },
  { name: 'a lead a hair under minLead', verdict: { confidence: 0.95, runnerUp: 0.45 + 1e-10, guard: null }, takes: true },
  { name: 'a lead below minLead', verdict: { confidence: 0.95, runnerUp: 0.45 + BELOW, guard: null }, takes: false },
  { name: 'certain, no runner-up', verdict: { confidence: 1, runnerUp: 0, guard: null }, takes: true },
  { name: 'certain but guarded', verdict: { confidence: 1, runnerUp: 0, guard: 'two candidates have this name at one company' }, takes: false },
  { name: 'far below', verdict: { confidence: 0.6, runnerUp: 0.1, guard: null }, takes: false },
];

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;
/** The row decided by hand before the accept: confident enough, but no longer waiting for review. */
let decidedRow: number;
const dataDir = () => join(tmp.dir, 'data');

beforeAll(async () => {
  tmp = tempDir('matchdesk-accept-rule-');
  sim = await startSim({ people: 500 });
  engine = await openEngine(dataDir());
  await connect(engine, sim);
  // Nothing accepted by the run, so every found row waits for review.
  await ok(engine, 'settings.update', { autoAccept: { enabled: false, ...LIMITS } });
  const rows = findablePeople(sim)
    .slice(0, 3 * CASES.length)
    .map((p) => [p.name, currentCompany(p)]);
  projectId = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Company'], rows) })).summary.id;
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  await engine.close();

  // Each row waiting for review gets a case's verdict, in turn, written while the engine is closed.
  const db = new Sqlite(join(dataDir(), 'matchdesk.sqlite'));
  const waiting = db.prepare("SELECT row_index FROM row_status WHERE project_id = ? AND state = 'to_review' ORDER BY row_index").pluck().all(projectId) as number[];
  expect(waiting.length).toBeGreaterThan(CASES.length);
  const put = db.prepare('UPDATE row_status SET confidence = ?, runner_up = ?, guard = ? WHERE project_id = ? AND row_index = ?');
  waiting.forEach((rowIndex, i) => {
    const { verdict } = CASES[i % CASES.length]!;
    put.run(verdict.confidence, verdict.runnerUp, verdict.guard, projectId, rowIndex);
  });
  db.close();

  engine = await openEngine(dataDir());
  decidedRow = waiting[0]!;
  await ok(engine, 'decisions.skip', { projectId, rowIndex: decidedRow });
});

afterAll(async () => {
  await engine?.close();
  await sim?.close();
  tmp?.remove();
});

/** The rows waiting for review, with the verdicts stored on them. */
function waitingVerdicts(): { rowIndex: number; verdict: Verdict }[] {
  const db = new Sqlite(join(dataDir(), 'matchdesk.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare("SELECT row_index AS rowIndex, confidence, runner_up AS runnerUp, guard FROM row_status WHERE project_id = ? AND state = 'to_review' ORDER BY row_index")
      .all(projectId) as { rowIndex: number; confidence: number; runnerUp: number; guard: string | null }[];
    return rows.map(({ rowIndex, ...verdict }) => ({ rowIndex, verdict }));
  } finally {
    db.close();
  }
}

describe('the accept rule, in TypeScript and in SQL', () => {
  it('takes each edge case as written', () => {
    for (const c of CASES) expect(clearsLimits(c.verdict, LIMITS), c.name).toBe(c.takes);
  });

  it('"accept all at or above" counts and accepts exactly the waiting rows the rule takes, never a decided one', async () => {
    const waiting = waitingVerdicts();
    expect(waiting.map((r) => r.rowIndex)).not.toContain(decidedRow);
    // Every case is still on the rows as written, so both sides of every edge are there to be told apart.
    for (const c of CASES) expect(waiting.some((r) => JSON.stringify(r.verdict) === JSON.stringify(c.verdict)), c.name).toBe(true);
    const taken = waiting.filter((r) => clearsLimits(r.verdict, LIMITS)).map((r) => r.rowIndex);

    const preview = await ok(engine, 'decisions.acceptPreview', { projectId });
    expect(preview.minLead).toBe(LIMITS.minLead);
    expect(preview.thresholds.find((t) => t.minConfidence === LIMITS.minConfidence)?.rows).toBe(taken.length);
    expect(preview.guarded).toBe(waiting.filter((r) => r.verdict.guard !== null).length);

    const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: LIMITS.minConfidence });
    expect(accepted.changed).toBe(taken.length);
    const stillWaiting = new Set(waitingVerdicts().map((r) => r.rowIndex));
    expect(waiting.filter((r) => !stillWaiting.has(r.rowIndex)).map((r) => r.rowIndex)).toEqual(taken);
    const auto = await ok(engine, 'review.page', { projectId, states: ['auto'], offset: 0, limit: 500 });
    expect(auto.rows.map((r) => r.rowIndex).sort((a, b) => a - b)).toEqual(taken);
    const skipped = await ok(engine, 'review.page', { projectId, states: ['skipped'], offset: 0, limit: 10 });
    expect(skipped.rows.map((r) => r.rowIndex)).toEqual([decidedRow]);
  });
});
