import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../electron/engine/engine';
import { ALL_MIGRATIONS } from '../../../../electron/engine/store';
import type { Simulator } from '../../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../../core/helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  await sim?.close();
  engine = null;
  sim = null;
  tmp.remove();
});

/** The rows of each query more than one row of the project plans, from the plan itself, as `[query, rows]` sorted. */
function plannedShared(db: Database.Database, projectId: number): [number, number[]][] {
  const byQuery = new Map<number, number[]>();
  for (const [q, r] of db.prepare('SELECT query_id, row_index FROM row_queries WHERE project_id = ? ORDER BY query_id, row_index').raw().all(projectId) as [number, number][]) {
    byQuery.set(q, [...(byQuery.get(q) ?? []), r]);
  }
  return [...byQuery].map(([q, rows]): [number, number[]] => [q, [...new Set(rows)]]).filter(([, rows]) => rows.length > 1);
}

function keptShared(db: Database.Database, projectId: number): [number, number[]][] {
  const byQuery = new Map<number, number[]>();
  for (const [q, r] of db.prepare('SELECT query_id, row_index FROM shared_queries WHERE project_id = ? ORDER BY query_id, row_index').raw().all(projectId) as [number, number][]) {
    byQuery.set(q, [...(byQuery.get(q) ?? []), r]);
  }
  return [...byQuery];
}

describe("migration 32: rows sharing a query kept by the plan, row_status's query index dropped", () => {
  it('moves a folder made by version 31, planned and run, keeping its review counts and decisions for identical rows', async () => {
    tmp = tempDir('matchdesk-m32-');
    sim = await startSim();
    const dataDir = join(tmp.dir, 'data');
    engine = await openEngine(dataDir);
    await connect(engine, sim);
    const people = findablePeople(sim);
    // Rows 0-5: someone each; rows 6 and 7 ask what row 0 asks; rows 8 and 9 what row 3 asks.
    const rows = people.slice(0, 6).map((p) => [p.name, p.email_address, currentCompany(p)]);
    rows.push(rows[0]!, rows[0]!, rows[3]!, rows[3]!);
    const projectId = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'a.csv'), ['Name', 'Email', 'Company'], rows) })).summary.id;
    const other = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'b.csv'), ['Name', 'Email', 'Company'], [rows[1]!, rows[1]!, rows[2]!]) })).summary.id;
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    // Planned, not run.
    await ok(engine, 'mapping.save', { projectId: other, mapping: { fullName: 0, email: 1, company: 2 }, strategies: ['email', 'name+company'] });
    const dbPath = engine.dbPath;
    await engine.close();
    engine = null;

    // The folder as version 31 left it: the index by query, no shared queries.
    const old = new Database(dbPath);
    try {
      old.exec(`
        DROP TABLE shared_queries;
        CREATE INDEX row_status_by_query ON row_status (project_id, query_id);
        PRAGMA user_version = 31;
      `);
      // A row planning one query at two steps, as folders planned before migration 28 may: row 1 asks its own query.
      old.prepare(
        `INSERT INTO row_queries (project_id, row_index, step, strategy, query_id)
         SELECT project_id, row_index, step + 10, strategy, query_id FROM row_queries WHERE project_id = ? AND row_index = 1`,
      ).run(projectId);
    } finally {
      old.close();
    }

    engine = await openEngine(dataDir);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(ALL_MIGRATIONS.length);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'row_status_by_query'").all()).toEqual([]);
      for (const id of [projectId, other]) expect(keptShared(db, id)).toEqual(plannedShared(db, id));
      // Each of a row's steps (by e-mail, by name and company, ...) shared by the same rows.
      const groups = (id: number) => [...new Set(keptShared(db, id).map(([, r]) => r.join(' ')))];
      expect(groups(projectId)).toEqual(['0 6 7', '3 8 9']);
      expect(groups(other)).toEqual(['0 1']);
    } finally {
      db.close();
    }
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 7 })).identicalRows).toBe(2);
    expect((await ok(engine, 'review.row', { projectId, rowIndex: 1 })).identicalRows).toBe(0);
    expect((await ok(engine, 'decisions.reject', { projectId, rowIndex: 8, applyToIdentical: true })).changed).toBe(3);
    expect((await ok(engine, 'run.preview', { projectId: other })).distinctQueries).toBe(2);
  });
});
