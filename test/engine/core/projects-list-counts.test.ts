// The projects list gives each project's counts per state and per job change. Each project's are kept until the data
// changes, and a decision brings them through: listed again after a review, nothing is counted. In a large project one
// count over every project at each list took seconds from a cold disk, on the engine's thread.
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
const projects: number[] = [];

beforeAll(async () => {
  tmp = tempDir();
  sim = await startSim();
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  for (const [name, from] of [['first', 0], ['second', 30]] as const) {
    const people = sim.dataset.people.slice(from, from + 30);
    const file = writeCsv(join(tmp.dir, `${name}.csv`), ['Name', 'Email'], people.map((p) => [p.name, p.email_address]));
    const id = (await ok(engine, 'projects.import', { file })).summary.id;
    expect((await runToEnd(engine, id)).status).toBe('done');
    projects.push(id);
  }
});

afterAll(async () => {
  await engine.close();
  await sim.close();
  tmp.remove();
});

/** The statements that count a project's rows per state or per job change, as the engine's thread prepares them. */
const prepare = vi.spyOn(Sqlite.prototype, 'prepare');
const COUNTING = /count\(\*\) AS n FROM row_status .*GROUP BY (project_id, )?(state|job_change)$/;

async function listed() {
  const from = prepare.mock.calls.length;
  const list = await ok(engine, 'projects.list');
  const counted = prepare.mock.calls.slice(from).filter(([sql]) => COUNTING.test(String(sql))).length;
  return { byId: new Map(list.map((p) => [p.id, { counts: p.counts, jobChanges: p.jobChanges }])), counted };
}

/** What a connection that keeps nothing counts for the project. */
function countedAfresh(projectId: number) {
  const db = new Sqlite(engine.dbPath, { readonly: true });
  try {
    const states = Object.fromEntries(db.prepare('SELECT state, count(*) FROM row_status WHERE project_id = ? GROUP BY state').raw().all(projectId) as [string, number][]);
    const changes = Object.fromEntries(db.prepare('SELECT job_change, count(*) FROM row_status WHERE project_id = ? AND job_change IS NOT NULL GROUP BY job_change').raw().all(projectId) as [string, number][]);
    return { states, changes };
  } finally {
    db.close();
  }
}

describe('the projects list', () => {
  it("counts each project once until the data changes, and a decision brings every project's counts through", async () => {
    const first = await listed();
    expect(first.counted).toBeGreaterThan(0);
    const again = await listed();
    expect(again.counted).toBe(0);
    expect(again.byId).toEqual(first.byId);

    const [decided, other] = projects as [number, number];
    await ok(engine, 'decisions.reject', { projectId: decided, rowIndex: 0 });
    const after = await listed();
    expect(after.counted).toBe(0);
    for (const id of projects) {
      const { states, changes } = countedAfresh(id);
      expect(after.byId.get(id)!.counts).toMatchObject(states);
      expect(after.byId.get(id)!.jobChanges).toMatchObject(changes);
    }
    expect(after.byId.get(decided)!.counts.rejected).toBe(first.byId.get(decided)!.counts.rejected + 1);
    expect(after.byId.get(other)).toEqual(first.byId.get(other));
  });
});
