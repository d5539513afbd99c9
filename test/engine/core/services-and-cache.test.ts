import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { ALL_MIGRATIONS, migrate } from '../../../electron/engine/store';
import type { Simulator } from '../../../electron/simulator';
import { connect, currentCompany, fails, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sims: Simulator[] = [];
let engine: Engine | null = null;

beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  for (const s of sims) await s.close();
  sims = [];
  tmp.remove();
});

async function sheet(e: Engine, s: Simulator) {
  const people = findablePeople(s).slice(0, 30);
  const rows = people.map((p, i) => (i % 2 === 0 ? [p.name, p.email_address, currentCompany(p)] : [p.name, '', currentCompany(p)]));
  const file = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company'], rows);
  return (await ok(e, 'projects.import', { file })).summary.id;
}

describe('switching services', () => {
  it('asks the newly selected service, keeping decisions made on answers from the old one', async () => {
    const a = await startSim();
    const b = await startSim();
    sims = [a, b];
    engine = await openEngine(join(tmp.dir, 'data'));
    const profileA = await connect(engine, a, 'A');
    const projectId = await sheet(engine, a);

    // Offline on A: nothing is cached, so nothing is answered.
    expect((await runToEnd(engine, projectId, true)).cacheHits).toBe(0);
    await connect(engine, b, 'B');
    expect(await ok(engine, 'run.preview', { projectId })).toMatchObject({ distinctQueries: 30, toFetch: 30 });
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    expect(a.counters().findCalls).toBe(0);
    expect(b.counters().queries).toBe(30);

    const chosen = await ok(engine, 'decisions.choose', { projectId, rowIndex: 1, rank: 1 });
    expect(chosen.row!.state).toBe('accepted');
    await ok(engine, 'profiles.select', { id: profileA.id });
    // Back on A: settled rows stay settled (their answers are on file), nothing is asked again.
    expect(await ok(engine, 'run.preview', { projectId })).toMatchObject({ distinctQueries: 0, toFetch: 0 });
    const row = await ok(engine, 'review.row', { projectId, rowIndex: 1 });
    expect(row).toMatchObject({ state: 'accepted', chosenRank: 1 });
    expect(row.candidates.length).toBeGreaterThan(0);
  });
});

describe('clearing the cache', () => {
  it('sends settled rows back to be asked again, keeping decisions and the chosen person', async () => {
    const s = await startSim();
    sims = [s];
    engine = await openEngine(join(tmp.dir, 'data'), { exportDir: join(tmp.dir, 'out') });
    await connect(engine, s);
    // Above what a name and an employer alone can reach: the e-mail rows are accepted, the name rows wait for review.
    await ok(engine, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0.5 } });
    const projectId = await sheet(engine, s);
    await runToEnd(engine, projectId);
    await ok(engine, 'decisions.choose', { projectId, rowIndex: 1, rank: 1 });
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    expect(before).toMatchObject({ auto: 15, accepted: 1, to_review: 14 });
    const matched = async () => {
      const exported = await ok(engine!, 'export.run', { projectId, format: 'csv', scope: 'matched' });
      const [headers, ...rows] = Papa.parse<string[]>(readFileSync(exported.path!, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
      const at = headers!.indexOf('match_status');
      // What the rows say of their person: who, where and since when, from the person's id to the job change's date.
      return rows.map((r) => [r[0], ...r.slice(at + 2, at + 10)]);
    };
    const exportedBefore = await matched();
    // A decision taken back before the cache is cleared: its undo, after, brings back the person the log names.
    await ok(engine, 'decisions.reject', { projectId, rowIndex: 0, applyToIdentical: false });

    expect((await ok(engine, 'cache.stats')).entries).toBe(30);
    expect(await ok(engine, 'cache.clear')).toEqual({ removed: 30 });
    expect((await ok(engine, 'cache.stats')).entries).toBe(0);
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(1);
    const after = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    expect(after).toMatchObject({ auto: 15, accepted: 1, to_review: 0, pending: 14 });
    expect(await ok(engine, 'run.preview', { projectId })).toMatchObject({ toFetch: 14 });

    const exportedAfter = await matched();
    expect(exportedAfter).toHaveLength(16);
    expect(exportedAfter.every((r) => r[1] !== '' && r[2] !== '')).toBe(true);
    expect(exportedAfter).toEqual(exportedBefore);
    // Each decision keeps its person as a `people` id, and clearing kept the people decisions name and no other.
    const db = new Database(engine.dbPath, { readonly: true });
    const stored = db.prepare("SELECT chosen, chosen_person FROM row_status WHERE project_id = ? AND state IN ('auto', 'accepted')").all(projectId) as { chosen: string | null; chosen_person: number | null }[];
    const people = db.prepare('SELECT id FROM people ORDER BY id').pluck().all();
    db.close();
    expect(stored.every((r) => r.chosen === null && r.chosen_person !== null)).toBe(true);
    expect(people).toEqual([...new Set(stored.map((r) => r.chosen_person))].sort((a, b) => a! - b!));
  });
});

describe('clearing the cache of a large project', () => {
  it('sends its rows back a slice at a time, answering other calls meanwhile and refusing a run until it is done', async () => {
    const s = await startSim();
    sims = [s];
    engine = await openEngine(join(tmp.dir, 'data'));
    await connect(engine, s);
    await ok(engine, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0.5 } });
    // 30,000 rows of 1,000 people that name and company find: every row waits for review after the run.
    const people = findablePeople(s).slice(0, 1000);
    const rows = Array.from({ length: 30 }, () => people.map((p) => [p.name, currentCompany(p)])).flat();
    const projectId = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'large.csv'), ['Name', 'Company'], rows) })).summary.id;
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    const settled = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    expect(settled.to_review).toBe(30_000);

    const clearing = ok(engine, 'cache.clear');
    // One turn of the event loop: the first slice of rows is back in the queue, the others still wait for review.
    await new Promise((resolve) => setImmediate(resolve));
    const midway = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    expect(midway.pending).toBeGreaterThan(0);
    expect(midway.to_review).toBeGreaterThan(0);
    expect(await fails(engine, 'run.start', { projectId })).toMatchObject({ kind: 'busy', message: 'The cache is being cleared. Try again in a moment.' });
    // A second ask (a double click) waits for the same clearing.
    const again = ok(engine, 'cache.clear');

    expect(await clearing).toEqual({ removed: 1000 });
    expect(await again).toEqual({ removed: 1000 });
    expect((await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts).toMatchObject({ pending: 30_000, to_review: 0 });
    expect(await ok(engine, 'run.preview', { projectId })).toMatchObject({ toFetch: 1000 });
  });
});

describe('migration 2', () => {
  it('creates the project tables, whose rows all go when their project is deleted', () => {
    const db = new Database(join(tmp.dir, 'm.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(db, ALL_MIGRATIONS.filter((m) => m.version <= 2));
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter((t) => !t.startsWith('sqlite_'));
    expect(tables).toEqual(['decision_log', 'lookups', 'profiles', 'projects', 'row_queries', 'row_status', 'rows', 'runs', 'settings']);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'row_status'").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(['row_status_by_state', 'row_status_by_query']));

    const now = '2026-01-01T00:00:00.000Z';
    const id = db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', ?, ?)").run(now, now).lastInsertRowid;
    db.prepare("INSERT INTO rows VALUES (?, 0, '[]')").run(id);
    db.prepare("INSERT INTO row_queries VALUES (?, 0, 0, 'email', 'k', '{}')").run(id);
    db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome) VALUES (?, 0, 'pending', 'pending')").run(id);
    db.prepare("INSERT INTO decision_log (project_id, batch_id, row_index, before, after, at) VALUES (?, 1, 0, '{}', '{}', ?)").run(id, now);
    db.prepare("INSERT INTO runs (project_id, status, started_at, updated_at) VALUES (?, 'done', ?, ?)").run(id, now, now);
    db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidates, error) VALUES ('k', '{}', 1, 'ok', '[]', NULL)").run();
    db.prepare('DELETE FROM projects WHERE id = ?').run(id);
    for (const t of ['rows', 'row_queries', 'row_status', 'decision_log', 'runs']) expect(db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(), t).toBe(0);
    expect(db.prepare('SELECT count(*) FROM lookups').pluck().get()).toBe(1);
    expect(() => db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'half', ?, ?)").run(now, now)).toThrow(/CHECK/);
    db.close();
  });
});
