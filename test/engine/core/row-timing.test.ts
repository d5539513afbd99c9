// The previews' time counts the engine's own work on the rows beside the calls: assumed at first, then what this
// machine's runs (answered by the cache; those that copied their verdicts from another project of the sheet apart) and
// refreshes (listing and rows) of enough rows took, kept for the next session (rows/row-timing.ts).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { ASSUMED_SECONDS_PER_CALL, callSeconds } from '../../../electron/engine/rows/call-timing';
import { ASSUMED_SECONDS_PER_ROW, TIMED_ROWS, runFigure, type RowWork } from '../../../electron/engine/rows/row-timing';
import type { Person, Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine | null = null;
let sim: Simulator | null = null;
const dataDir = () => join(tmp.dir, 'data');
/** The engine's clock (Date.now) counts whole milliseconds: a step it times may take up to one more than timed here. */
const CLOCK_STEP_SECONDS = 0.001;

beforeEach(() => {
  tmp = tempDir('matchdesk-row-timing-');
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  await sim?.close();
  sim = null;
  tmp.remove();
});

/**
 * A project of one row per person, by name and company (each found as the top candidate, most auto-accepted). With a
 * note, every row has a third cell: the same queries, but not the same sheet, so no verdict is copied to or from it.
 */
async function project(e: Engine, name: string, people: readonly Person[], note?: string): Promise<number> {
  const rows = people.map((p) => (note === undefined ? [p.name, currentCompany(p)] : [p.name, currentCompany(p), note]));
  const headers = note === undefined ? ['Name', 'Company'] : ['Name', 'Company', 'Note'];
  const id = (await ok(e, 'projects.import', { file: writeCsv(join(tmp.dir, `${name}.csv`), headers, rows) })).summary.id;
  await ok(e, 'mapping.save', { projectId: id, mapping: { fullName: 0, company: 1 }, strategies: ['name+company'] });
  return id;
}

/** Reads the engine's file beside it, read-only. */
function fromFile<T>(read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir(), 'matchdesk.sqlite'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** What a row of each kind of work took, as row-timing.ts keeps it. */
const kept = () =>
  fromFile((db) => new Map((db.prepare('SELECT work, seconds_per_row FROM row_timings').all() as { work: RowWork; seconds_per_row: number }[]).map((r) => [r.work, r.seconds_per_row])));

/** Writes figures as a run or a refresh would have kept them, through a connection of its own beside the engine's. */
function keep(figures: Partial<Record<RowWork, number>>): void {
  const db = new Database(join(dataDir(), 'matchdesk.sqlite'));
  try {
    const write = db.prepare('UPDATE row_timings SET seconds_per_row = ? WHERE work = ?');
    for (const [work, seconds] of Object.entries(figures)) expect(write.run(seconds, work).changes).toBe(1);
  } finally {
    db.close();
  }
}

/** What a call to the one service asked took, as call-timing.ts keeps it. */
const keptSecondsPerCall = () => fromFile((db) => db.prepare('SELECT seconds_per_call FROM call_timings').pluck().get() as number);

describe("the previews' time for the rows", () => {
  it('assumes what a row takes until a run with no call and a refresh of enough rows are timed, then goes by them, in the next session too', async () => {
    sim = await startSim({ people: 20_000, seed: 5 });
    engine = await openEngine(dataDir());
    await connect(engine, sim);
    await ok(engine, 'settings.update', { concurrency: 4 });
    const people = findablePeople(sim).slice(0, TIMED_ROWS + 300);
    expect(people.length, 'the simulator has people enough for a timed run').toBe(TIMED_ROWS + 300);

    const first = await project(engine, 'first', people);
    const before = await ok(engine, 'run.preview', { projectId: first, offline: false });
    expect(before.calls).toBeGreaterThan(0);
    // Nothing timed yet: the calls' time is assumed, and so is the rows'.
    const assumedCalls = callSeconds(before.calls, { concurrency: 4, secondsPerCall: ASSUMED_SECONDS_PER_CALL });
    expect(before.estimatedSeconds).toBe(Math.ceil(assumedCalls + people.length * ASSUMED_SECONDS_PER_ROW.run));

    // Not timed: an offline run of rows with no answer on file (it marks them and is done), a run that made calls (their
    // rows' work hides among the calls), a small one.
    expect(await runToEnd(engine, first, true)).toMatchObject({ status: 'done', calls: 0, rowsResolved: people.length });
    expect(kept().size).toBe(0);
    expect((await runToEnd(engine, first)).calls).toBeGreaterThan(0);
    const small = await project(engine, 'small', people.slice(0, 500));
    expect((await runToEnd(engine, small)).calls).toBe(0);
    expect(kept().size).toBe(0);

    // The same queries in another sheet, answered by the cache and worked out: timed as a run, at more than nothing and
    // at most the whole run a row.
    const other = await project(engine, 'other', people, 'met at a fair');
    let started = performance.now();
    expect(await runToEnd(engine, other)).toMatchObject({ status: 'done', calls: 0 });
    const runSeconds = (performance.now() - started) / 1000 + CLOCK_STEP_SECONDS;
    const run = kept().get('run');
    expect(run).toBeGreaterThan(0);
    expect(run!).toBeLessThanOrEqual(runSeconds / people.length);
    expect(kept().has('copy')).toBe(false);

    // The first sheet again: its verdicts are copied from the first project, and the run is timed as a copy, apart.
    const again = await project(engine, 'again', people);
    started = performance.now();
    expect(await runToEnd(engine, again)).toMatchObject({ status: 'done', calls: 0 });
    const copySeconds = (performance.now() - started) / 1000 + CLOCK_STEP_SECONDS;
    const copy = kept().get('copy');
    expect(copy).toBeGreaterThan(0);
    expect(copy!).toBeLessThanOrEqual(copySeconds / people.length);
    expect(kept().get('run'), "a copied run leaves the worked-out runs' figure as it was").toBe(run);

    // A refresh, timed by its listing and its rows' pass.
    const matched = await ok(engine, 'refresh.preview', { projectId: first });
    expect(matched.matchedRows, 'enough rows were auto-accepted for the refresh to be timed').toBeGreaterThanOrEqual(TIMED_ROWS);
    const refreshFrom = performance.now();
    await ok(engine, 'refresh.start', { projectId: first });
    expect((await engine.refreshSettled(first))?.status).toBe('done');
    // Its listing and its rows' pass, each timed in whole milliseconds.
    const refreshSeconds = (performance.now() - refreshFrom) / 1000 + 2 * CLOCK_STEP_SECONDS;
    const refresh = kept().get('refresh');
    expect(refresh).toBeGreaterThan(0);
    expect(refresh!).toBeLessThanOrEqual(refreshSeconds / matched.matchedRows);

    // A new session (as each CLI command is) goes by what the last one measured, calls and rows.
    await engine.close();
    engine = await openEngine(dataDir());
    const pace = { concurrency: 4, secondsPerCall: keptSecondsPerCall() };
    // A third project of the sheet: the cache answers everything, and the time is the rows' alone (it said "seconds"),
    // at a copy's pace. Another sheet of the same queries has nothing to copy from, and goes at a worked-out run's.
    const third = await project(engine, 'third', people);
    const fourth = await project(engine, 'fourth', people, 'met online');
    const cached = await ok(engine, 'run.preview', { projectId: third, offline: false });
    expect(cached.calls).toBe(0);
    expect(cached.estimatedSeconds).toBe(Math.ceil(people.length * copy!));
    const workedOut = await ok(engine, 'run.preview', { projectId: fourth, offline: false });
    expect(workedOut.calls).toBe(0);
    expect(workedOut.estimatedSeconds).toBe(Math.ceil(people.length * run!));
    // This machine's figures may round to the same whole second: a slower machine's, far apart, tell which is which.
    keep({ run: 2e-3, copy: 1e-3 });
    expect((await ok(engine, 'run.preview', { projectId: third, offline: false })).estimatedSeconds).toBe(Math.ceil(people.length * 1e-3));
    expect((await ok(engine, 'run.preview', { projectId: fourth, offline: false })).estimatedSeconds).toBe(Math.ceil(people.length * 2e-3));
    const timed = await ok(engine, 'refresh.preview', { projectId: first });
    expect(timed.calls).toBeGreaterThan(0);
    expect(timed.estimatedSeconds).toBe(Math.ceil(callSeconds(timed.calls, pace) + timed.matchedRows * refresh!));
  }, 120_000);
});

describe("what a cached run's time is kept as", () => {
  it('a copy when nearly all its rows were copied, a run when nearly none, and nothing when both in earnest', () => {
    expect(runFigure(20_000, 20_000)).toBe('copy');
    expect(runFigure(20_000, 18_000)).toBe('copy');
    expect(runFigure(20_000, 17_999)).toBeNull();
    expect(runFigure(20_000, 10_000)).toBeNull();
    expect(runFigure(20_000, 2_001)).toBeNull();
    expect(runFigure(20_000, 2_000)).toBe('run');
    expect(runFigure(20_000, 0)).toBe('run');
  });
});
