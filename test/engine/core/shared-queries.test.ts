import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Person, Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;
let people: Person[];
let reader: Database.Database;

const MAPPING = { fullName: 0, email: 1, company: 2 };
const STRATEGIES = ['email', 'name+company'] as const;

/**
 * Rows 0-9: someone by e-mail, name and company; rows 10 and 11: row 0 again (the same query at both steps); rows 12-14:
 * an e-mail nobody has, with row 5's name and company (they move on to the query row 15 asks first); row 15: row 5's
 * name and company without an e-mail; rows 16-19: someone new each.
 */
function sheetRows(): string[][] {
  const row = (p: Person, email = p.email_address) => [p.name, email, currentCompany(p)];
  const rows = people.slice(0, 10).map((p) => row(p));
  rows.push(row(people[0]!), row(people[0]!));
  for (let i = 0; i < 3; i++) rows.push(row(people[5]!, 'nobody.at.all@nowhere.example'));
  rows.push(row(people[5]!, ''));
  for (let i = 16; i < 20; i++) rows.push(row(people[i]!));
  return rows;
}

/** What an index by query answered: the rows of the project asking each query now, walked. */
function askingNow(queryId: number): number[] {
  return reader.prepare('SELECT row_index FROM row_status WHERE project_id = ? AND query_id = ? ORDER BY row_index').pluck().all(projectId, queryId) as number[];
}

/** The project's shared queries as kept, by query id. */
function kept(): Map<number, number[]> {
  const byQuery = new Map<number, number[]>();
  for (const [q, r] of reader.prepare('SELECT query_id, row_index FROM shared_queries WHERE project_id = ? ORDER BY query_id, row_index').raw().all(projectId) as [number, number][]) {
    byQuery.set(q, [...(byQuery.get(q) ?? []), r]);
  }
  return byQuery;
}

/** Each query more than one row plans, at any step, with those rows: from the plan itself. */
function planned(): Map<number, number[]> {
  const byQuery = new Map<number, number[]>();
  for (const [q, r] of reader.prepare('SELECT query_id, row_index FROM row_queries WHERE project_id = ? ORDER BY query_id, row_index').raw().all(projectId) as [number, number][]) {
    byQuery.set(q, [...(byQuery.get(q) ?? []), r]);
  }
  for (const [q, rows] of byQuery) if (rows.length < 2) byQuery.delete(q);
  return byQuery;
}

const queryOf = (rowIndex: number) => reader.prepare('SELECT query_id FROM row_status WHERE project_id = ? AND row_index = ?').pluck().get(projectId, rowIndex) as number;

beforeAll(async () => {
  tmp = tempDir();
  sim = await startSim();
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  people = findablePeople(sim);
  const file = writeCsv(join(tmp.dir, 'shared.csv'), ['Name', 'Email', 'Company'], sheetRows());
  projectId = (await ok(engine, 'projects.import', { file })).summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: [...STRATEGIES] });
  reader = new Database(engine.dbPath, { readonly: true });
});
afterAll(async () => {
  reader.close();
  await engine.close();
  await sim.close();
  tmp.remove();
});

describe('rows sharing a query', () => {
  it('are kept by the plan, sorted, while row_status has no index by query; the preview counts each query once', async () => {
    const indexed = (reader.prepare("SELECT name FROM pragma_index_list('row_status')").pluck().all() as string[]).filter((index) =>
      (reader.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(index) as string[]).includes('query_id'),
    );
    expect(indexed).toEqual([]);

    const shared = kept();
    expect(shared).toEqual(planned());
    // Row 0's e-mail and its name and company, each asked by rows 0, 10 and 11; rows 12-14's e-mail; row 5's name and
    // company, which rows 5 and 12-15 plan.
    expect([...shared.values()].sort()).toEqual([[0, 10, 11], [0, 10, 11], [12, 13, 14], [5, 12, 13, 14, 15]].sort());

    const preview = await ok(engine, 'run.preview', { projectId });
    const distinct = new Set(reader.prepare("SELECT query_id FROM row_status WHERE project_id = ? AND state = 'pending'").pluck().all(projectId)).size;
    // 20 rows: 10 + 2 repeats, 3 asking one e-mail, row 15's own, 4 more.
    expect(distinct).toBe(10 + 1 + 1 + 4);
    expect(preview).toMatchObject({ rows: 20, distinctQueries: distinct, cachedFresh: 0, toFetch: distinct });
  });

  it('count and decide as the rows asking the query now, after the run moved some on', async () => {
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    // Rows 12-14 found nobody by their e-mail and now ask what row 15 asks first.
    expect(askingNow(queryOf(15))).toEqual([12, 13, 14, 15]);
    for (let rowIndex = 0; rowIndex < 20; rowIndex++) {
      const row = await ok(engine, 'review.row', { projectId, rowIndex });
      // The others asking its query.
      expect(row.identicalRows, `row ${rowIndex}`).toBe(askingNow(queryOf(rowIndex)).length - 1);
    }
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 13 })).identicalRows).toBe(3);
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 10 })).identicalRows).toBe(2);
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 3 })).identicalRows).toBe(0);

    const rejected = await ok(engine, 'decisions.reject', { projectId, rowIndex: 13, applyToIdentical: true });
    expect(rejected.changed).toBe(4);
    const states = reader.prepare('SELECT row_index, state FROM row_status WHERE project_id = ? AND row_index BETWEEN 12 AND 16 ORDER BY row_index').raw().all(projectId);
    expect(states).toEqual([[12, 'rejected'], [13, 'rejected'], [14, 'rejected'], [15, 'rejected'], [16, expect.not.stringMatching('rejected')]]);
    await ok(engine, 'decisions.undo', { projectId });
    expect(reader.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'rejected'").pluck().get(projectId)).toBe(0);
  });

  it('are counted from the rows while a plan is cut off, and kept again when it is redone', async () => {
    // What a plan cut off leaves: no plan_scope, and kept rows that no longer say what the plan does.
    const writer = new Database(engine.dbPath);
    try {
      writer.prepare('UPDATE projects SET plan_scope = NULL WHERE id = ?').run(projectId);
      writer.prepare('DELETE FROM shared_queries WHERE project_id = ?').run(projectId);
    } finally {
      writer.close();
    }
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 13 })).identicalRows).toBe(3);
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 11 })).identicalRows).toBe(2);

    // The same mapping again: no step changes, but the plan is made whole, so its shared queries are kept again.
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: [...STRATEGIES] });
    expect(kept()).toEqual(planned());
    expect(kept().size).toBe(4);
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 13 })).identicalRows).toBe(3);

    // A mapping that asks by e-mail alone: rows 12-15 no longer share a query, rows 0, 10 and 11 still do.
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['email'] });
    expect(kept()).toEqual(planned());
    expect([...kept().values()].sort()).toEqual([[0, 10, 11], [12, 13, 14]]);
  });
});
