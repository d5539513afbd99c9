// Reads that held the engine's thread for seconds on a large project, made on a worker (runs/reading-thread.ts): the
// figure of rows changed at the last refresh (review/changed-count.ts; in a large project it held the projects
// list, the app's first screen, for seconds after a restart), the review's lists, the cache's figures. Here every such
// read goes to the worker (readHereUpTo: 0) on a real refreshed project: a figure is null while counted, then what a
// connection that kept nothing counts on the file, and a list walked before a write is never kept. And the refresh
// preview's people, kept for any age asked while nothing changes.
import Sqlite, { type Database } from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChangedRowsCounted, RefreshPreview } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { ChangedRowsCounter } from '../../../electron/engine/review/changed-count';
import { changedAtRefresh, reviewPage, type ReviewPageRequest } from '../../../electron/engine/review/review-page';
import { ReadingThread } from '../../../electron/engine/runs/reading-thread';
import { runPreview } from '../../../electron/engine/runs/run-preview';
import { VerdictThread } from '../../../electron/engine/runs/verdict-thread';
import { cacheStats, getSettings, openDatabase } from '../../../electron/engine/store';
import { systemClock } from '../../../electron/engine/clock';
import { requireProject } from '../../../electron/engine/rows/project-record';
import { Decisions } from '../../../electron/engine/review/decisions';
import { lastRefreshOf } from '../../../electron/engine/store/refresh-tables';
import { planRefresh } from '../../../electron/engine/refresh/refresh-plan';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, refreshedProject, truthSheet } from './refresh-fixture';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let fresh: Database;
let projectId: number;
let refreshId: number;
const counted: ChangedRowsCounted[] = [];

beforeAll(async () => {
  tmp = tempDir('matchdesk-changed-count-');
  sim = await startSim({ people: 3000, seed: 7 });
  engine = await openEngine(join(tmp.dir, 'data'), { host: 'web', readHereUpTo: 0 });
  engine.on('project.changedCount', (c) => counted.push(c));
  await connect(engine, sim);
  const sheet = truthSheet(sim.dataset.people, { still: 100, moved: 150, left: 60, again: 20, near_name: 20, nobody: 10 });
  const file = writeCsv(join(tmp.dir, 'people.csv'), HEADERS, [...sheet, ...sheet].map((r) => r.cells));
  projectId = await refreshedProject(engine, sim, file, { share: 0.5, seed: 3 });
  fresh = openDatabase(engine.dbPath, { readonly: true });
  refreshId = lastRefreshOf(fresh, projectId)!.id;
});

afterAll(async () => {
  fresh?.close();
  await engine?.close();
  await sim?.close();
  tmp?.remove();
});

/** The statements that walk the rows changed at a refresh, as the engine's own thread prepares them (the worker's are its own). */
const prepare = vi.spyOn(Sqlite.prototype, 'prepare');
async function walksIn<T>(call: () => Promise<T>): Promise<{ value: T; walks: number }> {
  const from = prepare.mock.calls.length;
  const value = await call();
  return { value, walks: prepare.mock.calls.slice(from).filter(([sql]) => /^SELECT rr\.row_index AS k/.test(String(sql).trim())).length };
}

/** The statements a page prepares on the engine's thread that walk a whole list (a status filter's, one by confidence). */
async function listWalksIn<T>(call: () => Promise<T>): Promise<{ value: T; walks: string[] }> {
  const from = prepare.mock.calls.length;
  const value = await call();
  return { value, walks: prepare.mock.calls.slice(from).map(([sql]) => String(sql).trim()).filter((sql) => /^SELECT r[rs]\.row_index AS k/.test(sql)) };
}

async function nextCount(): Promise<ChangedRowsCounted> {
  const seen = counted.length;
  await vi.waitFor(() => expect(counted.length).toBeGreaterThan(seen), { timeout: 20_000, interval: 20 });
  return counted[counted.length - 1]!;
}

/**
 * A counter of its own on a second connection, whose worker runs `afterWalk` (given the walk's number, from 0) once a
 * walk's answer is in, before handing it back.
 */
function counterOfMyOwn(afterWalk: (walk: number) => Promise<void>) {
  const mine = openDatabase(engine.dbPath);
  const seen: ChangedRowsCounted[] = [];
  let walks = 0;
  const reading = new ReadingThread(() => {
    const thread = VerdictThread.start(engine.dbPath)!;
    const walk = thread.rowList.bind(thread);
    thread.rowList = async (...args) => {
      const rows = await walk(...args);
      await afterWalk(walks++);
      return rows;
    };
    return thread;
  });
  const counter = new ChangedRowsCounter(mine, reading, (c) => seen.push(c), 0);
  return { mine, reading, counter, seen, walks: () => walks };
}

/** Something written that no kept figure is brought through: every figure is counted again. */
const writeElsewhere = () => ok(engine, 'projects.rename', { projectId, name: `renamed ${Date.now()}` });

describe('rows changed at the last refresh, counted by a worker', () => {
  it('is null on the projects list while counted, then the event and every screen give what the file says, walked once', async () => {
    const { value: list, walks } = await walksIn(() => ok(engine, 'projects.list', {}));
    expect(list.find((p) => p.id === projectId)!.changedAtLastRefresh).toBeNull();
    expect(walks).toBe(0);
    const event = await nextCount();
    const onFile = changedAtRefresh(fresh, projectId, refreshId);
    expect(onFile).toBeGreaterThan(20);
    expect(event).toEqual({ projectId, refreshId, changedAtLastRefresh: onFile });
    // The worker's list is kept as if walked here: the list, the project, a page and the changed rows' filter read it.
    const after = await walksIn(async () => ({
      list: await ok(engine, 'projects.list', {}),
      project: await ok(engine, 'projects.get', { projectId }),
      page: await ok(engine, 'review.page', { projectId, offset: 0, limit: 50 }),
      changed: await ok(engine, 'review.page', { projectId, offset: 0, limit: 50, changedAtLastRefresh: true }),
    }));
    expect(after.walks).toBe(0);
    expect(after.value.list.find((p) => p.id === projectId)!.changedAtLastRefresh).toBe(onFile);
    expect(after.value.project.summary.changedAtLastRefresh).toBe(onFile);
    expect(after.value.page.changedAtLastRefresh).toBe(onFile);
    expect(after.value.changed.total).toBe(onFile);
  });

  it('never keeps a list walked before a write: it is walked again, and the figure is the one after the write', async () => {
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1, changedAtLastRefresh: true })).rows[0]!;
    await writeElsewhere();
    expect((await ok(engine, 'projects.get', { projectId })).summary.changedAtLastRefresh).toBeNull();
    // The worker is starting (it stops once no walk is left) while one of the changed rows is rejected here.
    const decided = await ok(engine, 'decisions.reject', { projectId, rowIndex: before.rowIndex });
    expect(decided.changedAtLastRefresh).toBeNull();
    const event = await nextCount();
    const onFile = changedAtRefresh(fresh, projectId, refreshId);
    expect(event.changedAtLastRefresh).toBe(onFile);
    expect((await ok(engine, 'projects.get', { projectId })).summary.changedAtLastRefresh).toBe(onFile);
    // Kept, the list is brought through decisions like every other: undoing gives the row back at once.
    const undone = await ok(engine, 'decisions.undo', { projectId });
    expect(undone.changedAtLastRefresh).toBe(onFile + 1);
    expect(changedAtRefresh(fresh, projectId, refreshId)).toBe(onFile + 1);
  });

  it('never keeps a list the worker walked when a write landed before its answer was read', async () => {
    // A counter of its own whose worker's answers are held until the engine has rejected a changed row: the data that
    // list was walked from is gone by the time it arrives.
    const row = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1, changedAtLastRefresh: true })).rows[0]!;
    const before = changedAtRefresh(fresh, projectId, refreshId);
    const { mine, reading, counter, seen, walks } = counterOfMyOwn(async (walk) => {
      if (walk === 0) await ok(engine, 'decisions.reject', { projectId, rowIndex: row.rowIndex });
    });
    try {
      expect(counter.count(projectId, refreshId)).toBeNull();
      await counter.walked(projectId);
      expect(walks()).toBe(2);
      expect(seen).toEqual([{ projectId, refreshId, changedAtLastRefresh: before - 1 }]);
      expect(counter.count(projectId, refreshId)).toBe(before - 1);
    } finally {
      reading.close();
      await counter.close();
      mine.close();
      await ok(engine, 'decisions.undo', { projectId });
    }
    expect(changedAtRefresh(fresh, projectId, refreshId)).toBe(before);
  });

  it('walks again while writes keep coming, and still says the figure once they stop', async () => {
    // Every one of the first five walks is overtaken by a write (a text index filling while the review is open would
    // do this): no screen asks again, so the figure must come without being asked.
    const before = changedAtRefresh(fresh, projectId, refreshId);
    const { mine, reading, counter, seen, walks } = counterOfMyOwn(async (walk) => {
      if (walk < 5) await writeElsewhere();
    });
    try {
      expect(counter.count(projectId, refreshId)).toBeNull();
      await counter.walked(projectId);
      expect(walks()).toBe(6);
      expect(seen).toEqual([{ projectId, refreshId, changedAtLastRefresh: before }]);
    } finally {
      reading.close();
      await counter.close();
      mine.close();
    }
  });

  it('counts them here when no worker can start', () => {
    const mine = openDatabase(engine.dbPath, { readonly: true });
    const seen: ChangedRowsCounted[] = [];
    const counter = new ChangedRowsCounter(mine, new ReadingThread(() => null), (c) => seen.push(c), 0);
    expect(counter.count(projectId, refreshId)).toBe(changedAtRefresh(fresh, projectId, refreshId));
    expect(seen).toEqual([]);
    mine.close();
  });

  it("waits for the walk under way when the changed rows' filter is asked for, instead of walking them again", async () => {
    await writeElsewhere();
    expect((await ok(engine, 'projects.list', {})).find((p) => p.id === projectId)!.changedAtLastRefresh).toBeNull();
    const { value: page, walks } = await walksIn(() => ok(engine, 'review.page', { projectId, offset: 0, limit: 50, changedAtLastRefresh: true }));
    expect(walks).toBe(0);
    expect(page.total).toBe(changedAtRefresh(fresh, projectId, refreshId));
    expect(page.changedAtLastRefresh).toBe(page.total);
  });

  it("walks the review's lists on the worker: pages by confidence, by job change and deep in a state are the file's", async () => {
    await writeElsewhere();
    const requests: ReviewPageRequest[] = [
      { order: 'confidence_desc', offset: 0, limit: 40 },
      { order: 'confidence_asc', states: ['auto'], offset: 20, limit: 40 },
      { order: 'confidence_desc', states: ['to_review', 'no_candidates'], offset: 5, limit: 40 },
      { jobChanges: ['moved'], offset: 0, limit: 40 },
      { states: ['auto', 'accepted'], offset: 210, limit: 40 },
    ];
    for (const req of requests) {
      const { value: page, walks } = await listWalksIn(() => ok(engine, 'review.page', { projectId, ...req }));
      expect(walks, JSON.stringify(req)).toEqual([]);
      const onFile = await reviewPage(fresh, projectId, req);
      expect(page.rows.map((r) => r.rowIndex), JSON.stringify(req)).toEqual(onFile.rows.map((r) => r.rowIndex));
      expect(page.total).toBe(onFile.total);
      expect(page.rows.length).toBeGreaterThan(0);
    }
  });

  it("counts a run's preview on the worker, as the engine's thread would", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => [`Person ${i % 250}`, `p${i % 250}@acme.com`, 'Acme']);
    const detail = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'not-run.csv'), HEADERS.slice(0, 3), rows) });
    const id = detail.summary.id;
    await ok(engine, 'mapping.save', { projectId: id, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
    for (const offline of [false, true]) {
      const from = prepare.mock.calls.length;
      const preview = await ok(engine, 'run.preview', { projectId: id, offline });
      expect(prepare.mock.calls.slice(from).filter(([sql]) => /WITH asked AS/.test(String(sql)))).toEqual([]);
      const onFile = await runPreview(fresh, id, 300, 0, { offline, freshAfterMs: Date.now() - 30 * 86_400_000, concurrency: 4, secondsPerCall: 1, secondsPerRow: 0 });
      expect(preview).toMatchObject({ distinctQueries: onFile.distinctQueries, cachedFresh: onFile.cachedFresh, toFetch: onFile.toFetch, byStrategy: onFile.byStrategy });
      expect(preview.distinctQueries).toBe(250);
    }
    await ok(engine, 'projects.delete', { projectId: id });
  });

  it('counts what "accept all at or above" would accept on the worker, as the engine\'s thread would', async () => {
    const from = prepare.mock.calls.length;
    const preview = await ok(engine, 'decisions.acceptPreview', { projectId });
    expect(prepare.mock.calls.slice(from).filter(([sql]) => /AS guarded/.test(String(sql)))).toEqual([]);
    const here = await new Decisions(fresh, systemClock).acceptPreview(requireProject(fresh, projectId), getSettings(fresh).autoAccept);
    expect(preview).toEqual(here);
    expect(preview.thresholds.length).toBeGreaterThan(5);
    expect(preview.thresholds.at(-1)!.rows + preview.guarded).toBeGreaterThan(0);
  });

  it("counts the cache's figures on the worker, as the engine's thread would", async () => {
    const from = prepare.mock.calls.length;
    const stats = await ok(engine, 'cache.stats', {});
    expect(prepare.mock.calls.slice(from).filter(([sql]) => /count\(\*\) AS entries/.test(String(sql)))).toEqual([]);
    expect(stats).toEqual(cacheStats(fresh, Date.now() - 30 * 86_400_000));
    expect(stats.entries).toBeGreaterThan(100);
  });

  it('closes while a walk goes, and the CLI counts them itself', async () => {
    await writeElsewhere();
    const seen = counted.length;
    expect((await ok(engine, 'projects.get', { projectId })).summary.changedAtLastRefresh).toBeNull();
    await engine.close();
    expect(counted.length).toBe(seen);
    engine = await openEngine(join(tmp.dir, 'data'), { readHereUpTo: 0 });
    expect((await ok(engine, 'projects.get', { projectId })).summary.changedAtLastRefresh).toBe(changedAtRefresh(fresh, projectId, refreshId));
  });

  it('has a worker look for rows settled before the confidence model, and assesses them when it finds some', async () => {
    const REASSESS = /^UPDATE row_status SET confidence = \?, runner_up/;
    const reassessedIn = async (call: () => Promise<unknown>) => {
      const from = prepare.mock.calls.length;
      await call();
      return prepare.mock.calls.slice(from).filter(([sql]) => REASSESS.test(String(sql).trim())).length;
    };
    const byConfidence = () => ok(engine, 'review.page', { projectId, order: 'confidence_desc', offset: 0, limit: 50 });
    const confidences = () => fresh.prepare('SELECT row_index, confidence FROM row_status WHERE project_id = ? AND confidence IS NOT NULL ORDER BY row_index').all(projectId);
    const assessed = confidences();
    // Every row was assessed when it was settled: after a restart the worker finds none, and nothing is assessed again.
    await engine.close();
    engine = await openEngine(join(tmp.dir, 'data'), { host: 'web', readHereUpTo: 0 });
    expect(await reassessedIn(byConfidence)).toBe(0);
    // Rows as a file from before the model left them: found by the worker after a restart, and assessed as before.
    await engine.close();
    const old = openDatabase(join(tmp.dir, 'data', 'matchdesk.sqlite'));
    expect(old.prepare("UPDATE row_status SET confidence = NULL WHERE project_id = ? AND outcome = 'to_review' AND query_id IS NOT NULL AND row_index % 3 = 0").run(projectId).changes).toBeGreaterThan(20);
    old.close();
    engine = await openEngine(join(tmp.dir, 'data'), { host: 'web', readHereUpTo: 0 });
    expect(await reassessedIn(byConfidence)).toBe(1);
    expect(confidences()).toEqual(assessed);
  });
});

describe("the refresh's preview", () => {
  /** The statements that list the matched people here, and that count or walk the review's figures. */
  const LISTING = /^INSERT INTO temp\.refresh_listing_/;
  const FIGURES = [/^SELECT state, count\(\*\)/, /^SELECT job_change AS j, count\(\*\)/, /^SELECT r[rs]\.row_index AS k/];
  /** The worker's reads of the matched people (refresh-plan.ts MATCHED_PEOPLE). */
  const workerReads = vi.spyOn(VerdictThread.prototype, 'rows');
  async function statementsIn<T>(call: () => Promise<T>): Promise<{ value: T; listings: number; figures: number; workerReads: number }> {
    const from = prepare.mock.calls.length;
    const readFrom = workerReads.mock.calls.length;
    const value = await call();
    const made = prepare.mock.calls.slice(from).map(([sql]) => String(sql).trim());
    return {
      value,
      listings: made.filter((sql) => LISTING.test(sql)).length,
      figures: made.filter((sql) => FIGURES.some((f) => f.test(sql))).length,
      workerReads: workerReads.mock.calls.slice(readFrom).filter(([sql]) => /AS profile/.test(sql)).length,
    };
  }
  const AGES = [null, 0, 1, 10_000];
  /** Previews one after another, as the dialog's "older than" field asks for them. */
  async function previews(on = engine): Promise<RefreshPreview[]> {
    const made: RefreshPreview[] = [];
    for (const days of AGES) made.push(await ok(on, 'refresh.preview', { projectId, ...(days === null ? {} : { olderThanDays: days }) }));
    return made;
  }
  const plans = (made: RefreshPreview[]) => made.map(({ matchedRows, people, rowsWithoutProfile, recentPeople }) => ({ matchedRows, people, rowsWithoutProfile, recentPeople }));

  it('reads the people on the worker once while nothing changes, for any age asked, as the engine lists them here, and leaves the review its figures', async () => {
    // A matched row whose person has no profile to ask by: counted apart.
    const db = openDatabase(engine.dbPath);
    const row = db.prepare("SELECT row_index, chosen_person FROM row_status WHERE project_id = ? AND state IN ('auto', 'accepted') ORDER BY row_index LIMIT 1").get(projectId) as {
      row_index: number;
      chosen_person: number;
    };
    // Its version in `people` without the profile (the summary's third value, in facts version 4).
    const noProfile = db.prepare("INSERT INTO people (facts_version, facts, person) SELECT facts_version, json_set(facts, '$[2]', NULL), '{}' FROM people WHERE id = ? AND facts_version = 4").run(row.chosen_person);
    db.prepare('UPDATE row_status SET chosen_person = ? WHERE project_id = ? AND row_index = ?').run(noProfile.lastInsertRowid, projectId, row.row_index);
    db.close();
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 50, changedAtLastRefresh: true });
    const first = await statementsIn(previews);
    expect([first.workerReads, first.listings]).toEqual([1, 0]);
    expect((await statementsIn(() => ok(engine, 'review.page', { projectId, offset: 0, limit: 50, changedAtLastRefresh: true }))).figures).toBe(0);
    const again = await statementsIn(previews);
    expect([again.workerReads, again.listings]).toEqual([0, 0]);
    expect(again.value).toEqual(first.value);
    // Read again after a write, the same figures.
    await writeElsewhere();
    const reread = await statementsIn(previews);
    expect([reread.workerReads, reread.listings]).toEqual([1, 0]);
    expect(reread.value).toEqual(first.value);
    const [all, none, day, ages] = first.value;
    expect(all!.people).toBeGreaterThan(100);
    expect(all!.rowsWithoutProfile).toBe(1);
    // Everyone was refreshed moments ago: every record is older than 0 days, none older than a day or 10,000 days.
    expect(none).toMatchObject({ people: all!.people, recentPeople: 0 });
    expect(day).toMatchObject({ people: 0, recentPeople: all!.people });
    expect(ages).toMatchObject({ people: 0, recentPeople: all!.people });

    // The command line's engine on the same folder lists them here, once, and counts the same.
    const here = await openEngine(join(tmp.dir, 'data'), { host: 'cli' });
    try {
      const listed = await statementsIn(() => previews(here));
      expect([listed.workerReads, listed.listings]).toEqual([0, 1]);
      expect(plans(listed.value)).toEqual(plans(first.value));
    } finally {
      await here.close();
    }
  });

  it('here, reads the people a slice at a time with a turn before each, and counts them as the worker does', async () => {
    const scope = fresh.prepare('SELECT scope FROM refreshes WHERE project_id = ? ORDER BY id DESC LIMIT 1').pluck().get(projectId) as string;
    /** A connection of its own each time: the ages one keeps would spare the second its walk. */
    const sliced = async (peoplePerSlice: number) => {
      const db = openDatabase(engine.dbPath);
      try {
        let turns = 0;
        const plan = await planRefresh(db, projectId, scope, 0, Date.now(), async () => void turns++, { peoplePerSlice });
        return { plan, turns };
      } finally {
        db.close();
      }
    };
    const whole = await sliced(1_000_000);
    const bySeven = await sliced(7);
    expect(bySeven.plan).toEqual(whole.plan);
    // A turn before each slice of seven people: a seventh of the people more turns than in one slice.
    expect(bySeven.turns - whole.turns).toBe(Math.floor(whole.plan.people / 7));
    const worker = await ok(engine, 'refresh.preview', { projectId, olderThanDays: 0 });
    expect(whole.plan).toEqual({ matchedRows: worker.matchedRows, people: worker.people, rowsWithoutProfile: worker.rowsWithoutProfile, recentPeople: worker.recentPeople });
  });
});
