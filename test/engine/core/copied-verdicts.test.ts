// A sheet imported again takes the verdicts its earlier project's run worked out (runs/copied-verdicts.ts), and only
// where working them out again would give the same: never a person's decision, never across another rule, another
// answer or other cells.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/model';
import type { Engine } from '../../../electron/engine/engine';
import { VerdictCopy, type CopiedRow } from '../../../electron/engine/runs/copied-verdicts';
import { verdictBasis } from '../../../electron/engine/runs/verdict-basis';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import { openDatabase } from '../../../electron/engine/store';
import type { Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';
import { ProjectTemplates } from './project-templates';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine | null = null;
let sim: Simulator | null = null;
const dataDir = () => join(tmp.dir, 'data');
const MAPPING = { fullName: 0, company: 1, email: 2 };

beforeEach(() => {
  tmp = tempDir('matchdesk-copied-verdicts-');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await engine?.close();
  engine = null;
  await sim?.close();
  sim = null;
  await templates.release();
  tmp.remove();
});

/** What a row's answer made of it: every column a run writes but the time an accepted row was decided at. */
const OUTCOME = 'row_index, state, outcome, step, strategy, query_id, fetched_at, candidate_count, chosen_rank, chosen, source, job_change, confidence, runner_up, best_rank, reason, guard, verdict_basis';
type Outcome = Record<string, unknown> & { row_index: number; state: string; source: string | null; query_id: number; fetched_at: number; confidence: number | null; verdict_basis: number | null };

async function project(e: Engine, file: string, strategies = ['email', 'name+company']): Promise<number> {
  const id = (await ok(e, 'projects.import', { file })).summary.id;
  await ok(e, 'mapping.save', { projectId: id, mapping: MAPPING, strategies });
  return id;
}

/** Each row's outcome, by row index, read from the engine's file beside it. */
function outcomes(projectId: number): Map<number, Outcome> {
  const db = new Database(join(dataDir(), 'matchdesk.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT ${OUTCOME} FROM row_status WHERE project_id = ? ORDER BY row_index`).all(projectId) as Outcome[];
    return new Map(rows.map((r) => [r.row_index, r]));
  } finally {
    db.close();
  }
}

/** A sheet of 2,600 rows (more than a span of the copy) of people found by name and company, each row its own note. */
function sheetRows(e: Simulator): string[][] {
  const people = findablePeople(e);
  return Array.from({ length: 2600 }, (_, i) => [people[i % people.length]!.name, currentCompany(people[i % people.length]!), '', `row ${i}`]);
}
const SHEET_HEADERS = ['Name', 'Company', 'Email', 'Note'];

/** The 2,600-row sheet imported and run once, for the file: the project the tests' next import of it copies from. */
const templates = new ProjectTemplates({ people: 3000, seed: 7 }, async (e, s, dir) => {
  const sheet = writeCsv(join(dir, 'sheet.csv'), SHEET_HEADERS, sheetRows(s));
  const first = await project(e, sheet);
  expect((await runToEnd(e, first)).calls).toBeGreaterThan(0);
  return { sheet, first };
});

/**
 * The simulator, an engine connected to it, and a copy of the 2,600-row sheet's project, run once. `e`: the engine
 * (closed after the test). `secrets`: kept for an engine opened again later, as the keychain would be.
 */
async function sheetRunOnce(extra: { secrets?: SessionSecretStore } = {}): Promise<{ e: Engine; rows: string[][]; sheet: string; first: number }> {
  const copy = await templates.copy(dataDir(), 'sheet', { secrets: extra.secrets });
  [sim, engine] = [copy.sim, copy.engine];
  return { e: copy.engine, rows: sheetRows(copy.sim), ...copy.made };
}

/** The rows the copy copied, in the order copyNext returned them, from its spy. */
function copiedBy(copyNext: { mock: { results: { type: string; value: unknown }[] } }): number[] {
  return copyNext.mock.results.flatMap((r) => (r.type === 'return' ? (r.value as CopiedRow[]) : [])).map((c) => c.rowIndex);
}

describe('verdicts copied from another project of the same sheet', () => {
  it('copies what the model worked out for the same cells and answer, and works out the rest', async () => {
    sim = await startSim({ people: 3000, seed: 7 });
    // Kept across the engine's restarts, as the keychain would be.
    const secrets = new SessionSecretStore();
    engine = await openEngine(dataDir(), { secrets });
    await connect(engine, sim);
    // People found alone (mostly accepted alone), by their e-mail or, where it finds nobody, by name and company at the
    // next step; namesakes (left to review); people nobody knows (no candidates at either step); and a row twice.
    const named = new Map<string, number>();
    for (const p of sim.dataset.people) named.set(p.name, (named.get(p.name) ?? 0) + 1);
    const namesakes = sim.dataset.people.filter((p) => named.get(p.name)! > 1 && p.jobs.some((j) => j.ended_at === null)).slice(0, 60);
    const people = [...findablePeople(sim).slice(0, 140), ...namesakes];
    const rows = people.map((p, i) => [p.name, currentCompany(p), i % 3 === 0 ? p.email_address : i % 3 === 1 ? `gone.${i}@example.invalid` : '', `note ${i}`]);
    for (let i = 0; i < 10; i++) rows.push([`Qxv${'z'.repeat(i + 1)} Wkpj`, 'Qqqq Zzzz Holdings', `gone.unknown${i}@example.invalid`, `note unknown ${i}`]);
    rows.push([...rows[0]!]);
    const headers = ['Name', 'Company', 'Email', 'Note'];
    const sheet = writeCsv(join(tmp.dir, 'sheet.csv'), headers, rows);
    // The same sheet with one cell edited, in a column the query and the model do not read: still not copied.
    const edited = writeCsv(
      join(tmp.dir, 'edited.csv'),
      headers,
      rows.map((r, i) => (i === 3 ? [r[0]!, r[1]!, r[2]!, 'called back'] : r)),
    );

    const first = await project(engine, sheet);
    expect((await runToEnd(engine, first)).calls).toBeGreaterThan(0);
    const worked = outcomes(first);
    const auto = [...worked.values()].filter((r) => r.state === 'auto').map((r) => r.row_index);
    const toReview = [...worked.values()].filter((r) => r.state === 'to_review');
    expect(auto.length, 'rows accepted alone').toBeGreaterThan(50);
    expect(toReview.length, 'rows left to review').toBeGreaterThan(10);
    const atStep = (outcome: string, step: number) => [...worked.values()].filter((r) => r.outcome === outcome && r.step === step).length;
    expect(atStep('to_review', 0), 'rows found at their first step').toBeGreaterThan(50);
    expect(atStep('to_review', 1), 'rows found at the next step').toBeGreaterThan(50);
    expect(atStep('no_candidates', 1), 'rows that found nobody at either step').toBeGreaterThanOrEqual(5);
    // A person rejects a row the model accepted alone.
    const rejected = auto.find((i) => i > 3)!;
    await ok(engine, 'decisions.reject', { projectId: first, rowIndex: rejected });
    const again = await project(engine, edited);
    await engine.close();
    engine = null;

    const donor = outcomes(first);
    const basis = verdictBasis(MAPPING, DEFAULT_SETTINGS.autoAccept);
    expect(donor.get(auto[0]!)!.verdict_basis, 'a verdict keeps the basis it was worked out by').toBe(basis);
    expect(donor.get(rejected)!.verdict_basis, "a person's decision clears it").toBeNull();
    // The answer of a row left to review was fetched again since (the same candidates, a later time).
    const refetched = toReview.find((r) => r.row_index !== 3 && [...donor.values()].filter((o) => o.query_id === r.query_id).length === 1)!;

    // A row found at its second step whose first step's answer (nobody) is now too old to take: it is asked again.
    const staleFirst = [...donor.values()].find((o) => o.step === 1 && o.outcome === 'to_review' && ![3, rejected, refetched.row_index].includes(o.row_index))!;
    // A row that found nobody at either step, whose last answer was fetched again since (nobody still, a later time).
    const refetchedNobody = [...donor.values()].find(
      (r) => r.outcome === 'no_candidates' && r.row_index !== 3 && [...donor.values()].filter((o) => o.query_id === r.query_id).length === 1,
    )!;
    const notCopied = [3, rejected, refetched.row_index, staleFirst.row_index, refetchedNobody.row_index];

    const db = openDatabase(join(dataDir(), 'matchdesk.sqlite'));
    try {
      db.prepare('UPDATE lookups SET fetched_at = fetched_at + 1 WHERE query_id = ?').run(refetched.query_id);
      db.prepare('UPDATE lookups SET fetched_at = fetched_at + 1 WHERE query_id = ?').run(refetchedNobody.query_id);
      db.prepare('UPDATE lookups SET fetched_at = 0 WHERE query_id = (SELECT query_id FROM row_queries WHERE project_id = ? AND row_index = ? AND step = 0)').run(first, staleFirst.row_index);
      expect(VerdictCopy.open(db, again, verdictBasis(MAPPING, { ...DEFAULT_SETTINGS.autoAccept, minConfidence: 0.99 })), 'another rule: nothing to copy').toBeNull();
      expect(VerdictCopy.open(db, again, verdictBasis({ fullName: 0 }, DEFAULT_SETTINGS.autoAccept)), 'another mapping: nothing to copy').toBeNull();
      const copy = VerdictCopy.open(db, again, basis)!;
      const copied = db.transaction(() => copy.copyNext(-1, new Date().toISOString(), Date.now() - 86_400_000))();

      const expected = [...donor.values()]
        .filter((o) => (o.verdict_basis === basis || o.outcome === 'no_candidates') && !notCopied.includes(o.row_index))
        .map((o) => o.row_index);
      expect(copied.map((c) => c.rowIndex).sort((a, b) => a - b)).toEqual(expected);
      expect(copied.length).toBeGreaterThan(100);
      const now = db.prepare(`SELECT ${OUTCOME}, decided_at FROM row_status WHERE project_id = ? AND row_index = ?`);
      for (const { rowIndex } of copied) {
        const { decided_at: decidedAt, ...row } = now.get(again, rowIndex) as Outcome & { decided_at: string | null };
        expect(row).toEqual(donor.get(rowIndex));
        expect(decidedAt === null).toBe(row.state !== 'auto');
      }
      for (const rowIndex of notCopied) expect((now.get(again, rowIndex) as Outcome).state).toBe('pending');
    } finally {
      db.close();
    }

    // The run works out the rows left from their answers, as it always did: the rejected row as the model sees it.
    engine = await openEngine(dataDir(), { secrets });
    expect(await runToEnd(engine, again)).toMatchObject({ status: 'done', calls: 1, rowsResolved: rows.length });
    const settled = outcomes(again);
    expect(settled.get(rejected)).toEqual(worked.get(rejected));
    expect(settled.get(refetched.row_index)).toEqual({ ...refetched, fetched_at: refetched.fetched_at + 1 });
    expect(settled.get(refetchedNobody.row_index)).toEqual({ ...refetchedNobody, fetched_at: refetchedNobody.fetched_at + 1 });
    expect(settled.get(3)).toEqual(worked.get(3));
    expect(settled.get(staleFirst.row_index)).toEqual(worked.get(staleFirst.row_index));

    // A third import of the first sheet, run to the end: the newest project of the sheet gives what is the same.
    const copyNext = vi.spyOn(VerdictCopy.prototype, 'copyNext');
    const third = await project(engine, sheet);
    const progress = await runToEnd(engine, third);
    expect(progress).toMatchObject({ status: 'done', calls: 0, rowsResolved: rows.length });
    expect(progress.queriesDone).toBe(progress.queriesTotal);
    expect(progress.cacheHits).toBe(progress.queriesDone);
    const withVerdicts = [...settled.values()].filter((o) => (o.verdict_basis !== null || o.outcome === 'no_candidates') && o.row_index !== 3);
    expect(copiedBy(copyNext).sort((a, b) => a - b), 'every row with a verdict but the edited one').toEqual(
      withVerdicts.map((o) => o.row_index),
    );
    for (const [rowIndex, row] of outcomes(third)) expect(row).toEqual(settled.get(rowIndex));
  });

  it('does not end a row with no candidates where this project has a step the other did not take', async () => {
    sim = await startSim({ people: 3000, seed: 7 });
    engine = await openEngine(dataDir());
    await connect(engine, sim);
    const rows = findablePeople(sim)
      .slice(0, 30)
      .map((p, i) => [p.name, currentCompany(p), i < 5 ? p.email_address : `gone.${i}@example.invalid`, '']);
    const sheet = writeCsv(join(tmp.dir, 'sheet.csv'), SHEET_HEADERS, rows);
    // Asked by e-mail alone, five rows are found, the others find nobody.
    const byEmail = await project(engine, sheet, ['email']);
    expect(await runToEnd(engine, byEmail)).toMatchObject({ status: 'done', rowsResolved: rows.length });
    expect([...outcomes(byEmail).values()].map((o) => o.outcome)).toEqual(rows.map((_, i) => (i < 5 ? 'to_review' : 'no_candidates')));
    // A project that asks by name and company next copies the five, and goes on to that step for the others.
    const copyNext = vi.spyOn(VerdictCopy.prototype, 'copyNext');
    const both = await project(engine, sheet);
    expect((await runToEnd(engine, both)).calls).toBeGreaterThan(0);
    expect(copiedBy(copyNext)).toEqual([0, 1, 2, 3, 4]);
    expect([...outcomes(both).values()].map((o) => `${o.outcome} at ${o.step}`)).toEqual(rows.map((_, i) => (i < 5 ? 'to_review at 0' : 'to_review at 1')));
  });

  it('goes on past the rows a resumed run settled before, to copy the rest', async () => {
    const secrets = new SessionSecretStore();
    // More rows than a span of the copy (2,000): the first span (rows 0-1,999) is settled before the run, as a paused run leaves it.
    const { e, rows, sheet, first } = await sheetRunOnce({ secrets });
    const again = await project(e, sheet);
    await e.close();
    engine = null;
    const db = openDatabase(join(dataDir(), 'matchdesk.sqlite'));
    try {
      const copy = VerdictCopy.open(db, again, verdictBasis(MAPPING, DEFAULT_SETTINGS.autoAccept))!;
      expect(db.transaction(() => copy.copyNext(-1, new Date().toISOString(), 0))().length).toBeGreaterThan(1500);
    } finally {
      db.close();
    }

    engine = await openEngine(dataDir(), { secrets });
    const copyNext = vi.spyOn(VerdictCopy.prototype, 'copyNext');
    expect(await runToEnd(engine, again)).toMatchObject({ status: 'done', calls: 0, rowsResolved: rows.length });
    const copiedByRun = copiedBy(copyNext);
    const donor = outcomes(first);
    expect(copiedByRun.sort((a, b) => a - b)).toEqual(
      [...donor.values()].filter((o) => o.row_index >= 2000 && (o.verdict_basis !== null || o.outcome === 'no_candidates')).map((o) => o.row_index),
    );
    for (const [rowIndex, row] of outcomes(again)) expect(row).toEqual(donor.get(rowIndex));
  });

  it('follows the rows where rows were added or removed above them, across spans', async () => {
    const { e, rows, first } = await sheetRunOnce();
    // Next week's export: rows added at the top and further down (with nothing to ask), one row gone.
    const added = (n: number, at: number) => Array.from({ length: n }, (_, i) => ['', '', '', `added ${at}.${i}`]);
    const moved = [...added(5, 0), ...rows.slice(0, 1200), ...rows.slice(1201, 2100), ...added(30, 2100), ...rows.slice(2100)];
    const copyNext = vi.spyOn(VerdictCopy.prototype, 'copyNext');
    const again = await project(e, writeCsv(join(tmp.dir, 'moved.csv'), SHEET_HEADERS, moved));
    expect(await runToEnd(e, again)).toMatchObject({ status: 'done', calls: 0, rowsResolved: moved.length });
    const copiedByRun = new Set(copiedBy(copyNext));

    // Each row of the sheet ends as its row in the first project did, and every one that has a verdict there is copied,
    // past each place rows were added or removed, within a span and across spans.
    const before = outcomes(first);
    const donorRow = (i: number) => rows.findIndex((r) => r[3] === moved[i]![3]);
    const after = outcomes(again);
    for (let i = 0; i < moved.length; i++) {
      const j = donorRow(i);
      if (j < 0) {
        expect(after.get(i)!.state, `row ${i} (added)`).toBe('no_query');
        continue;
      }
      const { row_index: _a, ...was } = before.get(j)!;
      const { row_index: _b, ...now } = after.get(i)!;
      expect(now, `row ${i} (row ${j} before)`).toEqual(was);
    }
    const withVerdicts = [...moved.keys()].filter((i) => {
      const j = donorRow(i);
      return j >= 0 && (before.get(j)!.verdict_basis !== null || before.get(j)!.outcome === 'no_candidates');
    });
    expect(withVerdicts.length).toBe(rows.length - 1);
    expect([...copiedByRun].sort((a, b) => a - b)).toEqual(withVerdicts);
  });

  it('copies from the project that holds the whole sheet, not a sample of its first rows run since', async () => {
    const { e, rows, first: whole } = await sheetRunOnce();
    // The user tries the first 500 rows on their own (copied from the whole), then imports the whole sheet again.
    const sample = await project(e, writeCsv(join(tmp.dir, 'sample.csv'), SHEET_HEADERS, rows.slice(0, 500)));
    expect(await runToEnd(e, sample)).toMatchObject({ status: 'done', calls: 0 });
    const copyNext = vi.spyOn(VerdictCopy.prototype, 'copyNext');
    const again = await project(e, writeCsv(join(tmp.dir, 'again.csv'), SHEET_HEADERS, rows));
    expect(await runToEnd(e, again)).toMatchObject({ status: 'done', calls: 0, rowsResolved: rows.length });
    const copiedByRun = copiedBy(copyNext);
    const donor = outcomes(whole);
    expect(copiedByRun.sort((a, b) => a - b)).toEqual(
      [...donor.values()].filter((o) => o.verdict_basis !== null || o.outcome === 'no_candidates').map((o) => o.row_index),
    );
    expect(copiedByRun.length).toBeGreaterThan(2000);
  });
});
