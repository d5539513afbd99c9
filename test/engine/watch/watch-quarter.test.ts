// Issue 45's targets on a real simulator and a real SQLite file: a watch refreshes a project three times over a
// simulated quarter (the engine's clock moved a month at a time, the simulator's world moved on an epoch between), and the
// changes since any day are exactly the people who moved or left after it; every decision is kept, each refresh asks
// each chosen person once, and a refresh that finds an important person moved says so.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../electron/engine/clock';
import type { Engine } from '../../../electron/engine/engine';
import type { ImportantChangesFound, PersonChange } from '../../../shared/contract';
import type { EpochReport, Person, Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, matchedRows, readCsv, rowStatuses, truthSheet, type MatchedRow } from '../refresh/refresh-fixture';

const DAY = 86_400_000;
let offset = 0;
/** The engine's clock: the machine's, moved on by whole days as the quarter goes. */
const clock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep };
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;
let matched: MatchedRow[];
let people: Map<string, Person>;
const epochs: EpochReport[] = [];
/** When each refresh began (ms of the engine's clock). */
const refreshedAt: number[] = [];
const important: ImportantChangesFound[] = [];
let start: number;

beforeAll(async () => {
  tmp = tempDir('matchdesk-watch-');
  sim = await startSim({ people: 8000, seed: 3, epochs: { share: 0.12, seed: 40 } });
  engine = await openEngine(join(tmp.dir, 'data'), { clock });
  await connect(engine, sim);
  people = new Map(sim.dataset.people.map((p) => [p.id, p]));
  const sheet = truthSheet(sim.dataset.people);
  const file = writeCsv(join(tmp.dir, 'people.csv'), HEADERS, sheet.map((r) => r.cells));
  const detail = await ok(engine, 'projects.import', { file });
  projectId = detail.summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  matched = await matchedRows(engine, projectId);
  start = clock.now();
});

afterAll(async () => {
  await engine?.close();
  await sim?.close();
  tmp?.remove();
});

/** People chosen by the project's matched rows. */
const chosen = () => new Set(matched.map((r) => r.personId!));

/** Who moved or left in the epochs from `from` on (0-based), of the people chosen; the last word on each wins. */
function truthSince(from: number): Map<string, 'moved' | 'left'> {
  const truth = new Map<string, 'moved' | 'left'>();
  for (const report of epochs.slice(from)) {
    for (const id of report.moved) truth.set(id, 'moved');
    for (const id of report.left) truth.set(id, 'left');
  }
  const ids = chosen();
  for (const id of truth.keys()) if (!ids.has(id)) truth.delete(id);
  return truth;
}

/** The changed people (by id) and their kind, from the rows of a changes list. */
function changedPeople(changes: PersonChange[]): Map<string, string> {
  return new Map(changes.map((c) => [c.personId!, c.kind]));
}

describe('a watch over a quarter', () => {
  it('is set on the project, shown in the projects list, and not due before its time', async () => {
    const watch = await ok(engine, 'watch.set', { projectId, everyDays: 30, creditCeiling: 10_000 });
    expect(watch).toMatchObject({ projectId, everyDays: 30, weekday: null, creditCeiling: 10_000, due: false, lastResult: null, blocked: null });
    expect(Date.parse(watch.nextRefreshAt) - start).toBeGreaterThanOrEqual(30 * DAY - 60_000);
    const [summary] = await ok(engine, 'projects.list');
    expect(summary!.watch).toMatchObject({ projectId, nextRefreshAt: watch.nextRefreshAt, due: false });
    expect(await ok(engine, 'watch.runDue', { projectId })).toEqual({ outcome: 'not_due', nextRefreshAt: watch.nextRefreshAt });
    // Rows marked important: one by one, and by a column's value.
    const rowOfMover = matched.find((r) => r.state === 'auto')!.rowIndex;
    const marks = await ok(engine, 'watch.markImportant', { projectId, rows: [rowOfMover] });
    expect(marks.rows).toEqual([rowOfMover]);
    expect((await ok(engine, 'watch.markImportant', { projectId, column: { columnIndex: 3, value: ' AGAIN ' } })).values).toEqual([{ columnIndex: 3, value: 'again' }]);
  });

  it('refreshes three times, a month apart, as the world moves on: each chosen person asked once a refresh, every decision kept', async () => {
    const before = rowStatuses(engine.dbPath, projectId);
    const distinct = chosen().size;
    const stop = engine.on('watch.important', (found) => important.push(found));
    for (let i = 0; i < 3; i++) {
      epochs.push(sim.advance());
      offset += 30 * DAY + 3_600_000;
      sim.resetCounters();
      const run = await ok(engine, 'watch.runDue', { projectId });
      expect(run.outcome).toBe('started');
      const end = (await engine.refreshSettled(projectId))!;
      refreshedAt.push(Date.parse(end.startedAt));
      expect(end).toMatchObject({ status: 'done', peopleTotal: distinct, failed: 0 });
      const asked = sim.counters();
      expect([...asked.queryKeys.values()].every((n) => n === 1), 'each person once').toBe(true);
      expect(asked.queries).toBe(distinct);
      const watch = (await ok(engine, 'watch.list'))[0]!;
      expect(watch).toMatchObject({ due: false, blocked: null });
      expect(watch.lastResult).toMatch(/moved, \d+ left, \d+ changed title/);
      expect(Date.parse(watch.nextRefreshAt)).toBeGreaterThan(clock.now() + 29 * DAY);
    }
    stop();
    const after = rowStatuses(engine.dbPath, projectId);
    const lost = [...before].filter(([i, old]) => ['state', 'chosen_rank', 'source', 'decided_at'].some((c) => after.get(i)![c] !== old[c]));
    expect(lost, 'decisions kept').toEqual([]);
  });

  it('finds at least 99% of the moves and leaves of the quarter, with no false change', async () => {
    const truth = truthSince(0);
    const found = changedPeople(await ok(engine, 'watch.changes', { projectId, since: day(start) }));
    expect(truth.size).toBeGreaterThan(50);
    const missed = [...truth].filter(([id, kind]) => found.get(id) !== kind);
    const wrong = [...found].filter(([id]) => !truth.has(id));
    console.log(`a quarter: ${truth.size} chosen people moved or left; ${truth.size - missed.length} found, ${wrong.length} false`);
    expect((truth.size - missed.length) / truth.size, JSON.stringify(missed.slice(0, 5))).toBeGreaterThanOrEqual(0.99);
    expect(wrong, 'no false changes').toEqual([]);
    // Each state of a person once: what the rows said at the match (no dates kept there), what the first refresh saw,
    // and one more for each change; three refreshes of an unchanged person add only sightings.
    const db = new Database(engine.dbPath, { readonly: true });
    try {
      const versions = db.prepare('SELECT count(*) FROM person_versions').pluck().get() as number;
      const sightings = db.prepare('SELECT count(*) FROM person_sightings').pluck().get() as number;
      console.log(`person history: ${versions} versions, ${sightings} sightings for ${chosen().size} people over 3 refreshes`);
      expect(versions).toBeLessThanOrEqual(2 * chosen().size + 2 * truth.size);
    } finally {
      db.close();
    }
  });

  it('lists exactly who moved or left since any day between the refreshes, with from and to', async () => {
    for (const [i, at] of refreshedAt.entries()) {
      // The day after refresh i: refreshes i + 1 on found the changes.
      const since = day(at + DAY);
      const truth = truthSince(i + 1);
      const changes = await ok(engine, 'watch.changes', { projectId, since });
      const found = changedPeople(changes);
      const notFoundBySlug = new Set(epochs.flatMap((e) => e.newProfiles.map((p) => p.id)));
      const expected = new Map([...truth].filter(([id]) => !notFoundBySlug.has(id)));
      expect(new Map([...found].filter(([id]) => !notFoundBySlug.has(id))), `since ${since}`).toEqual(expected);
      for (const c of changes) {
        const person = people.get(c.personId!)!;
        const now = person.jobs.find((j) => j.ended_at === null);
        expect(c.to.company).toBe(now?.company.name ?? null);
        expect(c.from.company).not.toBe(c.to.company);
        expect(Date.parse(c.detectedAt)).toBeGreaterThanOrEqual(at + DAY - 2 * DAY);
        // Named as a spreadsheet app numbers it: the header is row 1.
        expect(c.rowNumber).toBe(c.rowIndex + 2);
      }
    }
    expect(await ok(engine, 'watch.changes', { projectId, since: day(refreshedAt[2]! + DAY) })).toEqual([]);
  });

  it('tells the hosts when an important person moved or left, and keeps an inbox of changes until they are seen', async () => {
    const importantPeople = new Set(important.flatMap((f) => f.changes.map((c) => c.personId)));
    const all = await ok(engine, 'watch.changes', { projectId, since: day(start) });
    const expected = all.filter((c) => c.important && c.kind !== 'title');
    expect(expected.length).toBeGreaterThan(0);
    for (const c of expected) expect(importantPeople.has(c.personId), `${c.personName} announced`).toBe(true);
    expect(important.every((f) => f.projectId === projectId && f.changes.every((c) => c.important && c.kind !== 'title'))).toBe(true);

    const inbox = await ok(engine, 'watch.inbox', { projectId });
    expect(inbox.unseen).toBe(all.length);
    expect(inbox.counts.moved + inbox.counts.left + inbox.counts.title).toBe(all.length);
    expect(inbox.important).toBe(all.filter((c) => c.important).length);
    // Where only the counts are shown, they come without the changes.
    expect(await ok(engine, 'watch.inboxCount', { projectId })).toEqual({ projectId, unseen: inbox.unseen, important: inbox.important });
    expect(await ok(engine, 'watch.markSeen', { projectId })).toMatchObject({ unseen: 0, important: 0, changes: [] });
    expect(await ok(engine, 'watch.inboxCount', { projectId })).toEqual({ projectId, unseen: 0, important: 0 });
  });

  it('writes the changes since a day for a CRM: the sheet columns, the person, old and new company and title, the dates', async () => {
    const since = day(start);
    const changes = await ok(engine, 'watch.changes', { projectId, since });
    const out = join(tmp.dir, 'changes.csv');
    expect(await ok(engine, 'watch.exportChanges', { projectId, since, format: 'csv', destination: out })).toMatchObject({ path: out, rows: changes.length });
    const rows = readCsv(out);
    expect(Object.keys(rows[0]!)).toEqual([...HEADERS, 'change_person', 'change_person_id', 'change_kind', 'change_old_company', 'change_old_title', 'change_new_company', 'change_new_title', 'change_date', 'change_detected_date', 'change_important']);
    expect(rows.map((r) => r.change_person_id)).toEqual(changes.map((c) => c.personId));
    const first = rows[0]!;
    const c = changes[0]!;
    expect(first).toMatchObject({ 'Full Name': c.cells[0], change_kind: c.kind, change_old_company: c.from.company ?? '', change_new_company: c.to.company ?? '', change_detected_date: c.detectedAt.slice(0, 10) });
    const xlsx = join(tmp.dir, 'changes.xlsx');
    expect((await ok(engine, 'watch.exportChanges', { projectId, since, format: 'xlsx', destination: xlsx })).rows).toBe(changes.length);
  });
});
