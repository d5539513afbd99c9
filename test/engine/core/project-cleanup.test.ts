// Deleting a project: it is gone at once, and what it leaves behind (rows, plan, statuses, decisions, runs,
// refreshes, text index) is removed a slice at a time while the engine is idle, so a large one never holds the engine
// for seconds; a removal cut off by a quit goes on at the next start, and other projects are never touched. Then
// the pages that freed go back to the disk, so deleting a large project (or clearing the cache) shrinks the data file.
import Database from 'better-sqlite3';
import { cpSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { ProjectCleanup, removeProject } from '../../../electron/engine/projects/project-cleanup';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { openDatabase } from '../../../electron/engine/store';
import { connect, eventually, fails, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';
import { HEADERS, truthSheet } from '../refresh/refresh-fixture';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator | null = null;
let engine: Engine | null = null;
const dataDir = () => join(tmp.dir, 'data');

beforeEach(() => {
  tmp = tempDir('matchdesk-cleanup-');
});
afterEach(async () => {
  await engine?.close();
  await sim?.close();
  engine = null;
  sim = null;
  tmp.remove();
});

/** Everything a project may own, by table: what is left of project `id`. */
function leftOf(dbPath: string, id: number): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const count = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;
    const left: Record<string, number> = {};
    for (const table of ['rows', 'row_queries', 'shared_queries', 'row_status', 'row_refreshes', 'decision_log', 'runs', 'refreshes', 'row_text_state']) {
      left[table] = count(`SELECT count(*) FROM ${table} WHERE project_id = ?`, id);
    }
    // A refresh's people and rows belong to it, so to the project through it; any whose refresh is gone count too.
    const ofRefreshes = 'refresh_id IN (SELECT id FROM refreshes WHERE project_id = ?) OR refresh_id NOT IN (SELECT id FROM refreshes)';
    left.refresh_people = count(`SELECT count(*) FROM refresh_people WHERE ${ofRefreshes}`, id);
    left.refresh_rows = count(`SELECT count(*) FROM refresh_rows WHERE ${ofRefreshes}`, id);
    left.row_text = count('SELECT count(*) FROM row_text WHERE rowid BETWEEN (? << 32) AND (? << 32) + 4294967295', id, id);
    left.project_cleanup = count('SELECT count(*) FROM project_cleanup WHERE project_id = ?', id);
    return left;
  } finally {
    db.close();
  }
}

const total = (left: Record<string, number>) => Object.values(left).reduce((a, b) => a + b, 0);

/** Waits until `condition` holds, looking at every turn of the event loop (so between any two slices of background work). */
async function everyTurnUntil(condition: () => boolean): Promise<void> {
  for (let turns = 0; !condition(); turns++) {
    if (turns > 100_000) throw new Error('still not so after 100,000 turns');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A data folder (with the sheet beside it) holding a project with something in every table a project owns: planned,
 * run, decided, refreshed, text-filtered. Made once, with its engine closed; `fullProject` opens a copy of it (the
 * tests delete it and ask the service nothing, so no simulator answers the copy).
 */
async function fullProjectTemplate(dir: string, rows: number): Promise<{ projectId: number }> {
  const service = await startSim({ people: 6000, seed: 5 });
  const maker = await openEngine(join(dir, 'data'), { host: 'web' });
  try {
    await connect(maker, service);
    const sheet = truthSheet(service.dataset.people, { still: 400, moved: 0, left: 0, again: 0, near_name: 0, nobody: 0 });
    // The matched rows, then as many more rows (unmatched: an e-mail nobody has) as asked for, the last two asking
    // what the first of them asks (rows sharing a query).
    const fillers = rows - sheet.length;
    const cells = [...sheet.map((r) => r.cells), ...Array.from({ length: fillers }, (_, i) => [`Filler ${i}`, `filler${i < fillers - 2 ? i : 0}@nowhere.example`, 'Nowhere'])];
    const file = writeCsv(join(dir, 'people.csv'), HEADERS, cells);
    const projectId = (await ok(maker, 'projects.import', { file })).summary.id;
    await ok(maker, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: ['email'] });
    expect((await runToEnd(maker, projectId)).status).toBe('done');
    await ok(maker, 'decisions.reject', { projectId, rowIndex: 0 });
    await ok(maker, 'refresh.start', { projectId });
    await maker.refreshSettled(projectId);
    await ok(maker, 'review.page', { projectId, text: 'filler', offset: 0, limit: 10 });
    return { projectId };
  } finally {
    await maker.close();
    await service.close();
  }
}

describe('deleting a project', () => {
  // Two slices of rows and more (project-cleanup.ts removes 5,000 row indexes a slice).
  const FULL_ROWS = 6_000;
  let template: ReturnType<typeof tempDir>;
  let fullId: number;
  beforeAll(async () => {
    template = tempDir('matchdesk-cleanup-template-');
    fullId = (await fullProjectTemplate(template.dir, FULL_ROWS)).projectId;
  });
  afterAll(() => template.remove());

  /** The full project's data folder and sheet copied into this test's folder, opened by an engine of `host`. */
  async function fullProject(host: 'web' | 'cli'): Promise<{ engine: Engine; projectId: number; file: string }> {
    cpSync(template.dir, tmp.dir, { recursive: true });
    engine = await openEngine(dataDir(), { host });
    return { engine, projectId: fullId, file: join(tmp.dir, 'people.csv') };
  }

  it('is gone at once, and everything it owned is removed while the engine is idle; other projects stay whole', async () => {
    const { engine, projectId, file } = await fullProject('web');
    const other = (await ok(engine, 'projects.import', { file })).summary.id;
    const before = leftOf(engine.dbPath, projectId);
    // (A finished refresh keeps its people but has let go of its rows: refresh_rows only counts if something is left.)
    for (const table of ['rows', 'row_queries', 'shared_queries', 'row_status', 'row_refreshes', 'decision_log', 'runs', 'refreshes', 'refresh_people', 'row_text', 'row_text_state']) {
      expect(before[table], `the project has ${table} to remove`).toBeGreaterThan(0);
    }
    const otherBefore = leftOf(engine.dbPath, other);

    await ok(engine, 'projects.delete', { projectId });
    expect((await ok(engine, 'projects.list')).map((p) => p.id)).toEqual([other]);
    expect((await fails(engine, 'projects.get', { projectId })).kind).toBe('not_found');
    await eventually(() => total(leftOf(engine.dbPath, projectId)) === 0);
    expect(leftOf(engine.dbPath, other)).toEqual(otherBefore);
    expect((await ok(engine, 'projects.get', { projectId: other })).summary.rowCount).toBe(FULL_ROWS);
    const db = new Database(engine.dbPath, { readonly: true });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it('answers calls while a large project is removed: the removal goes in slices between them', async () => {
    // Three slices of rows. A slice is removed per turn of the event loop at most, and this test looks once a turn.
    const ROWS = 12_000;
    engine = await openEngine(dataDir(), { host: 'web' });
    const file = writeCsv(
      join(tmp.dir, 'big.csv'),
      ['Name', 'Email'],
      Array.from({ length: ROWS }, (_, i) => [`Person ${i}`, `p${i}@example.com`]),
    );
    const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
    const rowsLeft = () => leftOf(engine!.dbPath, projectId).rows;
    expect(rowsLeft()).toBe(ROWS);

    await ok(engine, 'projects.delete', { projectId });
    // Once the removal is under way, a call is answered before it is done.
    await everyTurnUntil(() => rowsLeft() < ROWS);
    await ok(engine, 'projects.list');
    expect(rowsLeft()).toBeGreaterThan(0);
    await eventually(() => total(leftOf(engine!.dbPath, projectId)) === 0);
  });

  it('in the CLI, which may exit right after, is done when the call returns', async () => {
    const { engine, projectId } = await fullProject('cli');
    expect(total(leftOf(engine.dbPath, projectId))).toBeGreaterThan(FULL_ROWS);
    await ok(engine, 'projects.delete', { projectId });
    expect(leftOf(engine.dbPath, projectId)).toEqual(Object.fromEntries(Object.keys(leftOf(engine.dbPath, projectId)).map((k) => [k, 0])));
  });

  it('goes on at the next start when it was cut off', async () => {
    engine = await openEngine(dataDir());
    const file = writeCsv(join(tmp.dir, 'a.csv'), ['Name', 'Email'], Array.from({ length: 8_000 }, (_, i) => [`P ${i}`, `p${i}@example.com`]));
    const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
    const dbPath = engine.dbPath;
    await engine.close();
    engine = null;
    // The project removed as a delete does, then the app quits before any slice of its rows is removed.
    const db = openDatabase(dbPath);
    expect(removeProject(db, projectId)).toBe(true);
    expect(removeProject(db, projectId)).toBe(false);
    db.close();
    expect(leftOf(dbPath, projectId).rows).toBe(8_000);

    engine = await openEngine(dataDir());
    expect(await ok(engine, 'projects.list')).toEqual([]);
    await eventually(() => total(leftOf(dbPath, projectId)) === 0);
  });

  it("removes the queries only it named, keeping those another project's plan or an answer names, or one planned meanwhile", async () => {
    engine = await openEngine(dataDir());
    const rows = Array.from({ length: 12_000 }, (_, i) => [`Person ${i}`, `p${i}@example.com`, `Company ${i % 50}`]);
    const headers = ['Name', 'Email', 'Company'];
    const planned = async (file: string) => {
      const id = (await ok(engine!, 'projects.import', { file })).summary.id;
      await ok(engine!, 'mapping.save', { projectId: id, mapping: { fullName: 0, email: 1, company: 2 }, strategies: ['email', 'name+company'] });
      return id;
    };
    const deleted = await planned(writeCsv(join(tmp.dir, 'all.csv'), headers, rows));
    // Another project asks the last rows' queries, both steps (the second only in its plan: its rows wait at the first).
    const other = await planned(writeCsv(join(tmp.dir, 'tail.csv'), headers, rows.slice(-100)));
    const db = openDatabase(engine.dbPath);
    try {
      const queriesOf = (projectId: number) => db.prepare('SELECT DISTINCT query_id FROM row_queries WHERE project_id = ? ORDER BY query_id').pluck().all(projectId) as number[];
      const [mine, kept] = [queriesOf(deleted), queriesOf(other)];
      expect(kept.every((id) => mine.includes(id))).toBe(true);
      // An answer on file keeps its query, whoever asked it.
      const answered = mine[0]!;
      db.prepare("INSERT INTO lookups (query_id, fetched_at, status, candidate_count, people, ranks) VALUES (?, 1, 'ok', 0, '[]', '[]')").run(answered);
      const before = db.prepare('SELECT count(*) FROM queries').pluck().get() as number;

      await ok(engine, 'projects.delete', { projectId: deleted });
      // The first rows planned again while the removal goes on: their queries stay too.
      const again = await planned(writeCsv(join(tmp.dir, 'head.csv'), headers, rows.slice(0, 10)));
      await eventually(() => total(leftOf(engine!.dbPath, deleted)) === 0 && (db.prepare('SELECT count(*) FROM query_cleanup').pluck().get() as number) === 0);
      const left = db.prepare('SELECT id FROM queries ORDER BY id').pluck().all() as number[];
      expect(left).toEqual([...new Set([answered, ...kept, ...queriesOf(again)])].sort((a, b) => a - b));
      expect(left.length).toBeLessThan(before / 10);
      // What the other projects plan still reads: their rows wait on queries whose text is there.
      const counts = await ok(engine, 'review.counts', { projectId: other });
      expect(counts.counts.pending).toBe(100);
      expect((await ok(engine, 'run.preview', { projectId: again, offline: true })).distinctQueries).toBe(10);
    } finally {
      db.close();
    }
  });

  it('removes at the end of its walk only the queries listed when it began: one listed meanwhile may be named where it passed', async () => {
    mkdirSync(dataDir(), { recursive: true });
    const db = openDatabase(join(dataDir(), 'matchdesk.sqlite'));
    try {
      const now = '2026-01-01T00:00:00.000Z';
      const project = (name: string) => Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES (?, 'ready', ?, ?)").run(name, now, now).lastInsertRowid);
      const query = (email: string) => storedQueryId(db, BigInt(email.length * 1000 + email.charCodeAt(0)), { fields: [{ field_name: 'email_address', search_term: email }] });
      const [kept, gone] = [query('kept@example.com'), query('gone@example.com')];
      const step = db.prepare("INSERT INTO row_queries (project_id, row_index, step, strategy, query_id) VALUES (?, ?, 0, 'email', ?)");
      const status = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, query_id) VALUES (?, ?, 'pending', 'pending', ?)");
      // A live project asks `kept`; the deleted one asked `gone` alone.
      const live = project('live');
      step.run(live, 0, kept);
      status.run(live, 0, kept);
      const deleted = project('deleted');
      step.run(deleted, 0, gone);
      status.run(deleted, 0, gone);
      expect(removeProject(db, deleted)).toBe(true);

      // Once the walk has passed the live project, another process's cleanup lists `kept` (a project it removes named it).
      let listedMeanwhile = false;
      const cleanup = new ProjectCleanup(db, () => {
        const walking = db.prepare('SELECT count(*) FROM query_cleanup WHERE walked = 1').pluck().get() as number;
        if (walking > 0 && !listedMeanwhile) {
          db.prepare('INSERT INTO query_cleanup (id) VALUES (?)').run(kept);
          listedMeanwhile = true;
        }
        return true;
      });
      await cleanup.wake();
      expect(listedMeanwhile).toBe(true);
      expect(db.prepare('SELECT id FROM queries ORDER BY id').pluck().all()).toEqual([kept]);
      // Left listed for the next walk, which finds the live project naming it.
      expect(db.prepare('SELECT id, walked FROM query_cleanup').raw().all()).toEqual([[kept, 0]]);
    } finally {
      db.close();
    }
  });

  it('removes an import a crash left half-made, at the next start', async () => {
    engine = await openEngine(dataDir());
    const dbPath = engine.dbPath;
    await engine.close();
    engine = null;
    const db = openDatabase(dbPath);
    const id = Number(
      db
        .prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('cut off', 'importing', ?, ?)")
        .run('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z').lastInsertRowid,
    );
    const insert = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
    db.transaction(() => Array.from({ length: 7_500 }, (_, i) => insert.run(id, i, JSON.stringify([`P ${i}`]))))();
    db.close();

    engine = await openEngine(dataDir());
    expect(await ok(engine, 'projects.list')).toEqual([]);
    await eventually(() => total(leftOf(dbPath, id)) === 0);
  });
});

/** The data file's pages, free and in all, and its size on disk once the WAL is copied into it. */
function fileSpace(dbPath: string): { free: number; pages: number; bytes: number; autoVacuum: number } {
  const db = new Database(dbPath);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pragma = (name: string) => Number(db.pragma(name, { simple: true }));
    return { free: pragma('freelist_count'), pages: pragma('page_count'), bytes: statSync(dbPath).size, autoVacuum: pragma('auto_vacuum') };
  } finally {
    db.close();
  }
}

/** A 40,000-row sheet with long notes: ~30 MB of rows, plan and statuses once planned. Written once, read by each test. */
let bigSheetFile: string | null = null;
let bigSheetDir: ReturnType<typeof tempDir> | null = null;
afterAll(() => bigSheetDir?.remove());
function bigSheet(): string {
  if (bigSheetFile) return bigSheetFile;
  bigSheetDir = tempDir('matchdesk-cleanup-sheet-');
  const note = 'x'.repeat(400);
  bigSheetFile = writeCsv(join(bigSheetDir.dir, 'big.csv'), ['Name', 'Email', 'Notes'], Array.from({ length: 40_000 }, (_, i) => [`Person ${i}`, `p${i}@example.com`, `${note} ${i}`]));
  return bigSheetFile;
}

describe('giving the space back', () => {
  it('a deleted project leaves the data file as small as before it was imported (a new data file)', async () => {
    engine = await openEngine(dataDir(), { host: 'web' });
    const keep = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'small.csv'), ['Name'], [['Ada Lovelace']]) })).summary.id;
    const before = fileSpace(engine.dbPath);
    expect(before.autoVacuum, 'a new file is made with incremental auto-vacuum').toBe(2);

    const projectId = (await ok(engine, 'projects.import', { file: bigSheet() })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
    const full = fileSpace(engine.dbPath);
    expect(full.bytes).toBeGreaterThan(before.bytes + 20e6);

    await ok(engine, 'projects.delete', { projectId });
    await eventually(() => total(leftOf(engine!.dbPath, projectId)) === 0 && fileSpace(engine!.dbPath).free === 0);
    const after = fileSpace(engine.dbPath);
    // Within a few pages of where it was: SQLite keeps what its own tables grew by (the cleanup's queue, the WAL).
    expect(after.bytes).toBeLessThan(before.bytes + 2e6);
    expect((await ok(engine, 'projects.get', { projectId: keep })).summary.rowCount).toBe(1);
    const db = new Database(engine.dbPath, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('in the CLI, the space is back when the delete returns; so is a cleared cache\'s', async () => {
    sim = await startSim({ people: 24_000, seed: 5 });
    engine = await openEngine(dataDir(), { host: 'cli' });
    await connect(engine, sim);
    const emails = sim.dataset.people.map((p) => [p.email_address]);
    const matched = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'people.csv'), ['Email'], emails) })).summary.id;
    await ok(engine, 'mapping.save', { projectId: matched, mapping: { email: 0 }, strategies: ['email'] });
    // Left for review, its rows name no person, so a clear takes the answers' people too (a decision's stay).
    await ok(engine, 'run.start', { projectId: matched, offline: false, autoAccept: false });
    expect((await engine.runSettled(matched))?.status).toBe('done');
    const projectId = (await ok(engine, 'projects.import', { file: bigSheet() })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
    const full = fileSpace(engine.dbPath);

    await ok(engine, 'projects.delete', { projectId });
    const deleted = fileSpace(engine.dbPath);
    expect(deleted.free).toBe(0);
    expect(deleted.bytes).toBeLessThan(full.bytes - 20e6);

    // 24,000 answers with their people (records compressed in blocks): over the 10 MB of free pages the file keeps for
    // SQLite to reuse.
    expect((await ok(engine, 'cache.clear', {})).removed).toBe(24_000);
    const cleared = fileSpace(engine.dbPath);
    expect(cleared.free).toBe(0);
    expect(cleared.bytes).toBeLessThan(deleted.bytes - 8e6);
    expect((await ok(engine, 'projects.get', { projectId: matched })).summary.rowCount).toBe(24_000);
  });

  it('a data file made before keeps its free pages for SQLite to reuse, and deleting works as before', async () => {
    // A file whose first table came before incremental auto-vacuum was asked for cannot take it without a VACUUM.
    mkdirSync(dataDir(), { recursive: true });
    const made = new Database(join(dataDir(), 'matchdesk.sqlite'));
    made.exec('CREATE TABLE t (x); DROP TABLE t');
    made.close();
    engine = await openEngine(dataDir(), { host: 'cli' });
    expect(fileSpace(engine.dbPath).autoVacuum).toBe(0);

    const projectId = (await ok(engine, 'projects.import', { file: bigSheet() })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
    const full = fileSpace(engine.dbPath);
    await ok(engine, 'projects.delete', { projectId });
    expect(total(leftOf(engine.dbPath, projectId))).toBe(0);
    const deleted = fileSpace(engine.dbPath);
    expect(deleted.free).toBeGreaterThan(5000);
    expect(deleted.bytes).toBe(full.bytes);

    // The next import of the same sheet fills the free pages instead of growing the file.
    const again = (await ok(engine, 'projects.import', { file: bigSheet() })).summary.id;
    await ok(engine, 'mapping.save', { projectId: again, mapping: { fullName: 0, email: 1 }, strategies: ['email'] });
    expect(fileSpace(engine.dbPath).bytes).toBeLessThan(full.bytes * 1.1);
  });
});
