// The statements that read some states' rows of a project (the run's queries still to ask, the rows a run's start
// reopens, the failed queries) go through the state index while those states hold few rows. Without the hint SQLite walks every row of the project,
// even when none is in that state, which in a large project takes seconds from a cold disk.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { pendingQueryCount } from '../../../electron/engine/runs/query-records';
import { stateRowsHint } from '../../../electron/engine/rows/row-status';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

const ROWS = 240;

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let db: Database.Database;
let projectId: number;

beforeEach(async () => {
  tmp = tempDir();
  sim = await startSim();
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  const people = sim.dataset.people.slice(0, ROWS);
  const file = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email'], people.map((p) => [p.name, p.email_address]));
  projectId = (await ok(engine, 'projects.import', { file })).summary.id;
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  db = new Database(join(tmp.dir, 'data', 'matchdesk.sqlite'));
});

afterEach(async () => {
  db.close();
  await engine.close();
  await sim.close();
  tmp.remove();
});

/** Puts rows back into a state, as a run that failed them or a resume that reopened them leaves them. */
function putInState(state: string, rowIndexes: number[]): void {
  const put = db.prepare('UPDATE row_status SET state = ? WHERE project_id = ? AND row_index = ?');
  db.transaction(() => rowIndexes.forEach((rowIndex) => put.run(state, projectId, rowIndex)))();
}

/** How a statement over one state's rows finds them, as SQLite plans it with the hint. */
function plan(state: 'pending' | 'error'): string {
  const sql = `SELECT query_id FROM row_status ${stateRowsHint(db, projectId, state)} WHERE project_id = ? AND state = '${state}'`;
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(projectId) as { detail: string }[]).map((step) => step.detail).join('; ');
}

const distinctPending = () =>
  db.prepare("SELECT count(DISTINCT query_id) FROM row_status WHERE project_id = ? AND state = 'pending'").pluck().get(projectId) as number;

describe("some states' rows", () => {
  it('are found through the state index while they are under half of the rows, and in row order past that', () => {
    expect(plan('pending')).toMatch(/INDEX row_status_by_state \(project_id=\? AND state=\?\)/);
    putInState('pending', [...Array(ROWS / 2 - 1).keys()]);
    expect(plan('pending')).toMatch(/INDEX row_status_by_state/);
    putInState('pending', [ROWS / 2 - 1]);
    expect(plan('pending')).not.toMatch(/row_status_by_state/);
  });

  it("count the run's queries still to ask the same either way", () => {
    expect(pendingQueryCount(db, projectId)).toBe(0);
    const few = [3, 50, 51, 200];
    putInState('pending', few);
    expect(pendingQueryCount(db, projectId)).toBe(4);
    // Each row asks a query of its own (its e-mail): the queries are the rows.
    const many = new Set([...few, ...[...Array(ROWS).keys()].filter((i) => i % 3 !== 0)]);
    putInState('pending', [...many]);
    expect(pendingQueryCount(db, projectId)).toBe(distinctPending());
    expect(distinctPending()).toBe(many.size);
  });

  it("are reopened at a run's start through the index while few failed or were not fetched, and asked again", async () => {
    /** How SQLite plans the start's UPDATE with the hint as it stands. */
    const reopen = () =>
      (
        db
          .prepare(`EXPLAIN QUERY PLAN UPDATE row_status ${stateRowsHint(db, projectId, 'error', 'offline')} SET state = 'pending' WHERE project_id = ? AND state IN ('error', 'offline')`)
          .all(projectId) as { detail: string }[]
      )
        .map((step) => step.detail)
        .join('; ');
    putInState('error', [5]);
    putInState('offline', [9]);
    expect(reopen()).toMatch(/INDEX row_status_by_state/);
    const prepared = vi.spyOn(Database.prototype, 'prepare');
    const again = await runToEnd(engine, projectId);
    const reopened = prepared.mock.calls.map(([sql]) => String(sql)).filter((sql) => /^UPDATE row_status .*SET state = 'pending'/.test(sql));
    prepared.mockRestore();
    expect(reopened).toEqual([expect.stringContaining('INDEXED BY row_status_by_state')]);
    expect(again).toMatchObject({ status: 'done', rowsResolved: ROWS });
    expect(db.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state IN ('error', 'offline', 'pending')").pluck().get(projectId)).toBe(0);
    putInState('offline', [...Array(ROWS / 2).keys()]);
    expect(reopen()).not.toMatch(/row_status_by_state/);
  });

  it('list the failed queries of a few failed rows, as of many', async () => {
    putInState('error', [7, 120]);
    expect(plan('error')).toMatch(/INDEX row_status_by_state/);
    const few = await ok(engine, 'run.failures', { projectId });
    expect(few.map((f) => f.terms)).toEqual([7, 120].map((i) => `email_address = ${sim.dataset.people[i]!.email_address}`));
    putInState('error', [...Array(ROWS).keys()]);
    expect(plan('error')).not.toMatch(/row_status_by_state/);
    expect(await ok(engine, 'run.failures', { projectId })).toHaveLength(ROWS);
  });
});
