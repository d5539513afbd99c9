import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Person, Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, fails, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;
let people: Person[];
const dataDir = () => join(tmp.dir, 'data');

/**
 * Rows 0-39: e-mails with name and company (auto-accepted: an e-mail hit with everything agreeing is all but
 * certain); rows 40-79: name + company (left to review: the threshold is set above what a name and an employer
 * alone can reach); rows 80-82: the same name + company as row 40 (identical query); row 83: someone nobody
 * knows; row 84: junk.
 */
beforeAll(async () => {
  tmp = tempDir();
  // Scores on: the rows to review are read with the service's scores, and a rule on them accepts some.
  sim = await startSim({ scores: true });
  engine = await openEngine(dataDir());
  await connect(engine, sim);
  await ok(engine, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0.5 } });
  people = findablePeople(sim);
  const rows: string[][] = [];
  for (let i = 0; i < 40; i++) rows.push([people[i]!.name, people[i]!.email_address, currentCompany(people[i]!)]);
  for (let i = 40; i < 80; i++) rows.push([people[i]!.name, '', currentCompany(people[i]!)]);
  for (let i = 0; i < 3; i++) rows.push([people[40]!.name, '', currentCompany(people[40]!)]);
  rows.push(['Zebediah Nobodyson', 'zeb@nowhere.example', '']);
  rows.push(['', '', '']);
  rows[84] = ['-', 'n/a', ''];
  const file = writeCsv(join(tmp.dir, 'review.csv'), ['Name', 'Email', 'Company'], rows);
  projectId = (await ok(engine, 'projects.import', { file })).summary.id;
  const end = await runToEnd(engine, projectId);
  expect(end.status).toBe('done');
});
afterAll(async () => {
  await engine.close();
  await sim.close();
  tmp.remove();
});

describe('review', () => {
  it('pages rows with counts for the whole project, filtered by state and text', async () => {
    const all = await ok(engine, 'review.page', { projectId, offset: 0, limit: 50 });
    expect(all.total).toBe(85);
    expect(all.rows).toHaveLength(50);
    expect(Object.values(all.counts).reduce((a, b) => a + b, 0)).toBe(85);
    expect(all.counts).toMatchObject({ auto: 40, to_review: 43, no_candidates: 1, no_query: 1 });
    expect(all.rows[0]).toMatchObject({ rowIndex: 0, state: 'auto', label: people[0]!.name, strategy: 'email', chosenRank: 1, candidateCount: 1 });
    expect(all.rows[0]!.top!.id).toBe(people[0]!.id);

    // The e-mail rows carry the person's current employer: every match is still there.
    expect(all.jobChanges).toEqual({ no_change: 40, moved: 0, left: 0, unknown: 0 });
    expect(all.rows[0]!.jobChange).toMatchObject({ status: 'no_change', currentCompany: currentCompany(people[0]!) });
    const stillThere = await ok(engine, 'review.page', { projectId, jobChanges: ['no_change'], offset: 0, limit: 500 });
    expect(stillThere.total).toBe(40);
    expect(stillThere.rows.every((r) => r.state === 'auto')).toBe(true);
    expect((await ok(engine, 'review.page', { projectId, jobChanges: ['moved', 'left'], offset: 0, limit: 10 })).total).toBe(0);

    const next = await ok(engine, 'review.page', { projectId, offset: 50, limit: 50 });
    expect(next.rows.map((r) => r.rowIndex)).toEqual(Array.from({ length: 35 }, (_, i) => 50 + i));

    const toReview = await ok(engine, 'review.page', { projectId, states: ['to_review'], offset: 0, limit: 500 });
    expect(toReview.total).toBe(43);
    expect(toReview.rows.every((r) => r.state === 'to_review' && r.top !== null && r.confidence !== null && r.reason)).toBe(true);
    expect(all.rows[0]!.confidence).toBeGreaterThan(0.9999);
    expect(all.rows[0]!.reason).toMatch(/^found by this e-mail, same name, works at .+ now/);
    expect(toReview.counts).toEqual(all.counts);

    const several = await ok(engine, 'review.page', { projectId, states: ['no_candidates', 'no_query'], offset: 0, limit: 10 });
    expect(several.rows.map((r) => r.rowIndex)).toEqual([83, 84]);

    const byName = await ok(engine, 'review.page', { projectId, text: people[40]!.name, offset: 0, limit: 10 });
    expect(byName.rows.map((r) => r.rowIndex)).toEqual([40, 80, 81, 82]);
    // Text in a cell that is not the label: the company.
    const company = currentCompany(people[41]!);
    const byCell = await ok(engine, 'review.page', { projectId, text: company.toLowerCase(), offset: 0, limit: 100 });
    expect(byCell.rows.map((r) => r.rowIndex)).toContain(41);
    const none = await ok(engine, 'review.page', { projectId, text: '100%_nothing', offset: 0, limit: 10 });
    expect(none.total).toBe(0);
  });

  it('shows a row with its input, candidates, evidence and identical rows', async () => {
    const row = await ok(engine, 'review.row', { projectId, rowIndex: 40 });
    expect(row.headers).toEqual(['Name', 'Email', 'Company']);
    expect(row.input).toEqual({ email: null, social: null, name: people[40]!.name, company: currentCompany(people[40]!), location: null });
    expect(row.state).toBe('to_review');
    expect(row.strategy).toBe('name+company');
    expect(row.candidates.length).toBeGreaterThan(0);
    expect(row.candidates.length).toBeLessThanOrEqual(5);
    expect(row.candidates[0]!.personId).toBe(people[40]!.id);
    expect(row.candidates[0]!.evidence.find((e) => e.field === 'name')).toMatchObject({ level: 'exact', mark: 'same', note: 'same name' });
    expect(row.candidates[0]!.evidence.find((e) => e.field === 'company')).toMatchObject({ level: 'current_same', mark: 'same' });
    // Listed best first, each with its share of the confidence; the row's confidence is the best one's.
    const confidences = row.candidates.map((c) => c.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    expect(row.confidence).toBe(confidences[0]);
    expect(row.guard).toBeNull();
    expect(row.reason).toContain('same name, works at');
    expect(row.identicalRows).toBe(3);
    expect(row.error).toBeNull();
    // When its answer came, which dates every candidate's jobs (none was refreshed since).
    expect(row.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(row.candidates.map((c) => c.jobsAsOf)).toEqual(row.candidates.map(() => row.fetchedAt));

    const junk = await ok(engine, 'review.row', { projectId, rowIndex: 84 });
    expect(junk).toMatchObject({ state: 'no_query', candidates: [], fetchedAt: null });
    expect((await fails(engine, 'review.row', { projectId, rowIndex: 85 })).kind).toBe('not_found');
  });
});

describe('decisions', () => {
  it('choose, reject for identical rows, skip, clear and accept all at or above a threshold, each undone in turn, also after a restart', async () => {
    const countsOf = async () => (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const initial = await countsOf();

    const detail41 = await ok(engine, 'review.row', { projectId, rowIndex: 41 });
    const rank = Math.min(2, detail41.candidates.length);
    const chosen = await ok(engine, 'decisions.choose', { projectId, rowIndex: 41, rank });
    expect(chosen.changed).toBe(1);
    expect(chosen.row).toMatchObject({ state: 'accepted', chosenRank: rank, source: 'manual' });
    expect(chosen.row!.decidedAt).not.toBeNull();
    expect(chosen.counts.accepted).toBe(1);
    expect((await fails(engine, 'decisions.choose', { projectId, rowIndex: 83, rank: 1 })).kind).toBe('invalid_input');

    const rejected = await ok(engine, 'decisions.reject', { projectId, rowIndex: 40, applyToIdentical: true });
    expect(rejected.changed).toBe(4);
    expect(rejected.counts.rejected).toBe(4);

    const skipped = await ok(engine, 'decisions.skip', { projectId, rowIndex: 42 });
    expect(skipped.row!.state).toBe('skipped');
    const cleared = await ok(engine, 'decisions.clear', { projectId, rowIndex: 42 });
    expect(cleared.row).toMatchObject({ state: 'to_review', chosenRank: null, decidedAt: null, source: null });
    expect((await ok(engine, 'decisions.clear', { projectId, rowIndex: 42 })).changed).toBe(0);

    // The rows left to review by the high threshold: the preview counts what each threshold would take, and
    // accepting at 0.9 takes exactly what it said.
    const preview = await ok(engine, 'decisions.acceptPreview', { projectId });
    expect(preview.setting).toBe(0.9999);
    const at90 = preview.thresholds.find((t) => t.minConfidence === 0.9)!.rows;
    expect(at90).toBeGreaterThan(0);
    expect(preview.thresholds.map((t) => t.rows)).toEqual([...preview.thresholds.map((t) => t.rows)].sort((a, b) => a - b));
    const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.9 });
    expect(accepted.changed).toBe(at90);
    expect(accepted.counts.auto).toBe(initial.auto + accepted.changed);
    expect(accepted.counts.accepted).toBe(1);
    expect(accepted.counts.rejected).toBe(4);

    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(accepted.changed);
    expect((await countsOf()).auto).toBe(initial.auto);

    // The log is in SQLite: undo goes on after a restart.
    await engine.close();
    engine = await openEngine(dataDir());
    const undoClear = await ok(engine, 'decisions.undo', { projectId });
    expect(undoClear.row).toMatchObject({ rowIndex: 42, state: 'skipped' });
    expect((await ok(engine, 'decisions.undo', { projectId })).row!.state).toBe('to_review');
    const undoReject = await ok(engine, 'decisions.undo', { projectId });
    expect(undoReject.changed).toBe(4);
    expect(undoReject.counts.rejected).toBe(0);
    const undoChoose = await ok(engine, 'decisions.undo', { projectId });
    expect(undoChoose.row).toMatchObject({ rowIndex: 41, state: 'to_review', chosenRank: null });
    expect(await countsOf()).toEqual(initial);
    expect((await ok(engine, 'decisions.undo', { projectId })).changed).toBe(0);
  });

  it('choosing for identical rows picks the same person and leaves decisions made by hand alone', async () => {
    await ok(engine, 'decisions.skip', { projectId, rowIndex: 81 });
    const result = await ok(engine, 'decisions.choose', { projectId, rowIndex: 80, rank: 1, applyToIdentical: true });
    expect(result.changed).toBe(3);
    const states = (await ok(engine, 'review.page', { projectId, text: people[40]!.name, offset: 0, limit: 10 })).rows.map((r) => [r.rowIndex, r.state, r.top?.id]);
    expect(states).toEqual([
      [40, 'accepted', people[40]!.id],
      [80, 'accepted', people[40]!.id],
      [81, 'skipped', expect.any(String)],
      [82, 'accepted', people[40]!.id],
    ]);
    await ok(engine, 'decisions.undo', { projectId });
    await ok(engine, 'decisions.undo', { projectId });
  });
});
