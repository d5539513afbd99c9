// Learning from a reviewer's decisions through the engine's calls (review/learning.ts), on the simulator's labeled
// evaluation set: rows like this, what was learned in words, its lifts shown by the review and taken by one undoable
// accept, kept across a refresh and a restart, applied by a later run, a reset, a new project starting from it, a
// cancel part-way that changes nothing, and a state of another model version dropped with a note.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import Papa from 'papaparse';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, type Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { CONFIDENCE_MODEL } from '../../../electron/engine/matching';
import { LIFTED_REASON } from '../../../electron/engine/matching/learned-model';
import { reassessRows } from '../../../electron/engine/runs/reassess-rows';
import { buildEvaluationSet, type EvaluationSet } from '../../../electron/simulator/evaluation-set';
import { onJobDetail } from '../../support/job-events';
import { connect, fails, ok, openEngine, startSim, tempDir } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let set: EvaluationSet;
let file: string;
const dataDir = () => join(tmp.dir, 'data');
const MAPPING = { fullName: 0, email: 1, profile: 2, company: 3 };

async function importAndMap(name: string): Promise<number> {
  const projectId = (await ok(engine, 'projects.import', { file, name })).summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['email', 'social', 'name+company', 'name'] });
  return projectId;
}

async function run(projectId: number): Promise<number> {
  await ok(engine, 'run.start', { projectId, autoAccept: true });
  expect((await engine.runSettled(projectId))?.status).toBe('done');
  return projectId;
}

const importAndRun = async (name: string) => run(await importAndMap(name));

/**
 * Decisions a reviewer makes on the near-name rows the labels say are right, by the file's numbers: a one-letter typo
 * at the sheet's company, the only such candidate, whose best candidate is the person (the pattern near_name|typo|current_same|none|alone).
 */
async function nearNameEntries(projectId: number, most: number): Promise<{ line: number; row: number; personId: string | null }[]> {
  const entries: { line: number; row: number; personId: string | null }[] = [];
  for (let rowIndex = 0; rowIndex < set.rows.length && entries.length < most; rowIndex++) {
    const label = set.labels[rowIndex]!;
    if (label.category !== 'near_name' || label.truePersonId === null) continue;
    const row = await ok(engine, 'review.row', { projectId, rowIndex });
    const typos = row.candidates.filter((c) => c.reason.startsWith('name nearly the same') && / now(,|$)/u.test(c.reason.split(';')[0]!));
    if (row.state !== 'to_review' || row.candidates[0]?.personId !== label.truePersonId || typos.length !== 1 || typos[0] !== row.candidates[0]) continue;
    entries.push({ line: entries.length + 2, row: row.rowNumber, personId: label.truePersonId });
  }
  return entries;
}

beforeAll(async () => {
  tmp = tempDir();
  sim = await startSim({ people: 30_000, seed: 12 });
  set = buildEvaluationSet(sim.dataset, { seed: 12, rowsPerCategory: 60 });
  file = join(tmp.dir, 'sheet.csv');
  writeFileSync(file, `${Papa.unparse([set.headers, ...set.rows], { newline: '\r\n' })}\r\n`, 'utf8');
  engine = await openEngine(dataDir());
  await connect(engine, sim);
});
afterAll(async () => {
  await engine.close();
  await sim.close();
  tmp.remove();
});

describe('learning from decisions', () => {
  it('groups the queue, learns from decided near names, lifts rows like them, and keeps twins with the reviewer', async () => {
    const projectId = await importAndRun('first');
    const groups = await ok(engine, 'review.groups', { projectId });
    const near = groups.find((g) => g.pattern === 'near_name|typo|current_same|none|alone')!;
    expect(near.words).toBe('Rows with a near name at the same company');
    expect(near.learnable).toBe(true);
    expect(groups.filter((g) => g.pattern.startsWith('twins|')).every((g) => !g.learnable)).toBe(true);
    // Rows like this: the page of one pattern holds exactly its group's rows, waiting for review, in file order.
    const like = await ok(engine, 'review.page', { projectId, pattern: near.pattern, offset: 0, limit: 500 });
    expect(like.total).toBe(near.rows);
    expect(like.rows).toHaveLength(near.rows);
    expect(like.rows.every((r) => r.state === 'to_review' && r.reason!.startsWith('name nearly the same'))).toBe(true);
    expect(like.rows.map((r) => r.rowIndex)).toEqual([...like.rows.map((r) => r.rowIndex)].sort((a, b) => a - b));
    expect((await ok(engine, 'review.page', { projectId, pattern: near.pattern, offset: 1, limit: 2 })).rows.map((r) => r.rowIndex)).toEqual(like.rows.slice(1, 3).map((r) => r.rowIndex));
    expect(groups.reduce((n, g) => n + g.rows, 0)).toBe((await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts.to_review);

    // The reviewer decides the near-name rows the labels say are right, by the file's numbers, as one action.
    const entries = await nearNameEntries(projectId, 20);
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const recorded = await ok(engine, 'decisions.record', { projectId, entries });
    expect(recorded.changed).toBe(entries.length);

    const preview = await ok(engine, 'decisions.acceptPreview', { projectId });
    const learned = await ok(engine, 'learning.learn', { projectId });
    expect(learned.labels).toBe(entries.length);
    expect(learned.rowsLifted, learned.sentences.join('\n')).toBeGreaterThan(0);
    expect(learned.sentences.some((s) => /^You accepted \d+ of \d+ rows with a near name at the same company: such rows are now at least \d+% confident\.$/u.test(s))).toBe(true);
    expect(learned.changes[0]!.sentence).toMatch(/^You accepted \d+ of \d+ rows with a near name at the same company; \d+ more rows? now looks? like them\.$/u);
    const after = await ok(engine, 'decisions.acceptPreview', { projectId });
    const at = (p: typeof preview) => p.thresholds.find((t) => t.minConfidence === p.setting)!.rows;
    expect(at(after)).toBe(at(preview) + learned.rowsLifted);
    // The sheet's own comparisons weighed the evidence again, said in words after the labels.
    expect(learned.sentences.at(-1)).toMatch(/^The model weighed its evidence again on [\d,]+ of this sheet's rows and your \d+ decisions/u);

    // The review shows a lifted row as the queue lists it: the labels' confidence, the reason saying why, no guard.
    const lifted = (await ok(engine, 'review.page', { projectId, pattern: near.pattern, offset: 0, limit: 500 })).rows.filter((r) => r.reason!.endsWith(LIFTED_REASON));
    expect(lifted.length).toBe(learned.changes.find((c) => c.pattern === near.pattern)!.rows);
    for (const listed of lifted.slice(0, 5)) {
      const detail = await ok(engine, 'review.row', { projectId, rowIndex: listed.rowIndex });
      expect(detail).toMatchObject({ state: 'to_review', confidence: listed.confidence, reason: listed.reason, guard: null });
      expect(detail.candidates[0]).toMatchObject({ confidence: listed.confidence, reason: listed.reason });
      expect(listed.confidence).toBeGreaterThanOrEqual(learned.changes.find((c) => c.pattern === near.pattern)!.confidence);
    }

    // One accept takes them, one undo puts them back.
    const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId });
    expect(accepted.changed).toBe(at(after));
    const undone = await ok(engine, 'decisions.undo', { projectId });
    expect(undone.changed).toBe(accepted.changed);

    // A refresh of the matched people keeps what was learned, and the lifts.
    await ok(engine, 'refresh.start', { projectId });
    expect((await engine.refreshSettled(projectId))?.status).toBe('done');
    expect(await ok(engine, 'learning.summary', { projectId })).toMatchObject({ labels: learned.labels, rowsLifted: learned.rowsLifted, sentences: learned.sentences });
    expect((await ok(engine, 'review.row', { projectId, rowIndex: lifted[0]!.rowIndex })).reason).toBe(lifted[0]!.reason);

    // What was learned stays with the project across a restart, and a new verdict of the model (a new mapping) keeps its lifts.
    await engine.close();
    const db = new Database(join(dataDir(), DATABASE_FILE));
    const liftedRows = () => db.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'to_review' AND guard IS NULL AND reason LIKE ?").pluck().get(projectId, `%${LIFTED_REASON}`);
    expect(liftedRows()).toBe(learned.rowsLifted);
    await reassessRows(db, projectId, MAPPING, 'all');
    expect(liftedRows()).toBe(learned.rowsLifted);
    db.close();
    engine = await openEngine(dataDir());
    const kept = await ok(engine, 'learning.summary', { projectId });
    expect(kept).toMatchObject({ labels: learned.labels, rowsLifted: learned.rowsLifted, sentences: learned.sentences, note: null });

    // A new project of the same sheet may start from it: its rows are lifted with no decision of its own.
    await connect(engine, sim, 'Simulator again');
    const second = await importAndRun('second');
    // It is offered to the new project, the same kind of sheet, and the new one to no other (it learned nothing).
    expect(await ok(engine, 'learning.sources', { projectId: second })).toEqual([{ projectId, name: expect.any(String), labels: learned.labels, sameKind: true }]);
    expect((await ok(engine, 'learning.sources', { projectId })).map((s) => s.projectId)).not.toContain(second);
    const started = await ok(engine, 'learning.learn', { projectId: second, startFromProjectId: projectId });
    expect(started.labels).toBe(0);
    expect(started.rowsLifted).toBeGreaterThan(0);
    // Learning again without naming it keeps what it started from.
    expect((await ok(engine, 'learning.learn', { projectId: second })).rowsLifted).toBe(started.rowsLifted);

    // A run after learning settles its rows under what was learned: a project that starts from the first before its
    // run matches the rows like those lifted there as lifted, accepted alone where the labels' figure clears the rule.
    const third = await importAndMap('third');
    await ok(engine, 'learning.learn', { projectId: third, startFromProjectId: projectId });
    await run(third);
    const support = learned.changes.find((c) => c.pattern === near.pattern)!.confidence;
    for (const listed of lifted) {
      const row = await ok(engine, 'review.row', { projectId: third, rowIndex: listed.rowIndex });
      if (support >= 0.95) expect(row).toMatchObject({ state: 'auto', chosenRank: row.candidates[0]!.rank });
      else expect(row).toMatchObject({ state: 'to_review', guard: null, reason: listed.reason });
    }

    // Reset: the lifts go, the accept takes what it took before learning.
    const reset = await ok(engine, 'learning.reset', { projectId });
    expect(reset).toMatchObject({ labels: 0, rowsLifted: 0, sentences: [], note: null });
    expect(at(await ok(engine, 'decisions.acceptPreview', { projectId }))).toBe(at(preview));
    // A project that learned nothing is no start for another.
    expect((await fails(engine, 'learning.learn', { projectId: second, startFromProjectId: projectId })).message).toContain('has learned nothing to start from');
    expect((await ok(engine, 'learning.sources', { projectId: third })).map((s) => s.projectId)).not.toContain(projectId);
    // A sheet of another kind (no email or profile column) sees the second's learning as another kind, and is refused it with why.
    const other = (await ok(engine, 'projects.import', { file, name: 'other kind' })).summary.id;
    await ok(engine, 'mapping.save', { projectId: other, mapping: { fullName: 0, company: 3 }, strategies: ['name+company', 'name'] });
    expect((await ok(engine, 'learning.sources', { projectId: other })).find((s) => s.projectId === second)).toMatchObject({ sameKind: false });
    expect((await fails(engine, 'learning.learn', { projectId: other, startFromProjectId: second })).message).toContain('what one learned fits only a sheet of the same kind');
    await ok(engine, 'projects.delete', { projectId: other });
  });

  it('refuses a file of decisions whole on a person not among a row\'s candidates, and drops a state of another model version with a note', async () => {
    const projectId = (await ok(engine, 'projects.list', {}))[0]!.id;
    const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    const row = (await ok(engine, 'review.page', { projectId, states: ['to_review'], offset: 0, limit: 2 })).rows;
    const error = await fails(engine, 'decisions.record', { projectId, entries: [{ line: 2, row: row[0]!.rowNumber, personId: null }, { line: 3, row: row[1]!.rowNumber, personId: 'nobody' }] });
    expect(error.message).toContain(`Line 3: person nobody is not among row ${row[1]!.rowNumber}'s candidates`);
    expect((await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts).toEqual(before);

    await engine.close();
    const db = new Database(join(dataDir(), DATABASE_FILE));
    db.prepare("INSERT OR REPLACE INTO learned_models (project_id, model_version, patterns, labels, rows_lifted, learned_at) VALUES (?, ?, '{\"near_name|typo|current_same|none|alone\":{\"accepted\":50,\"rejected\":0}}', 50, 9, 't')").run(projectId, CONFIDENCE_MODEL.version - 1);
    db.close();
    engine = await openEngine(dataDir());
    const summary = await ok(engine, 'learning.summary', { projectId });
    expect(summary).toMatchObject({ labels: 0, rowsLifted: 0, sentences: [] });
    expect(summary.note).toContain(`model version ${CONFIDENCE_MODEL.version - 1} was dropped`);
    expect((await ok(engine, 'learning.learn', { projectId })).rowsLifted).toBe(0);
  });

  it('cancelled part-way, changes nothing: no row, no label, no figure; learning again then lifts', async () => {
    await connect(engine, sim, 'Simulator once more');
    const projectId = await importAndRun('cancelled');
    const entries = await nearNameEntries(projectId, 20);
    expect((await ok(engine, 'decisions.record', { projectId, entries })).changed).toBe(entries.length);
    const everyRow = async () => {
      const rows: string[] = [];
      for (let offset = 0; offset < set.rows.length; offset += 500) {
        rows.push(...(await ok(engine, 'review.page', { projectId, offset, limit: 500 })).rows.map((r) => `${r.rowIndex} ${r.state} ${r.confidence} ${r.reason}`));
      }
      return rows;
    };
    const rowsBefore = await everyRow();
    const previewBefore = await ok(engine, 'decisions.acceptPreview', { projectId });
    let cancelled: Promise<{ cancelled: boolean }> | null = null;
    let doneWhenCancelled = 0;
    let total = 0;
    // Cancelled at its first progress past the start, as a user's Cancel would find it.
    const off = onJobDetail(engine, 'learn', (p) => {
      if (p.projectId !== projectId || p.action !== 'learn' || p.rowsDone === 0 || cancelled) return;
      [doneWhenCancelled, total] = [p.rowsDone, p.rowsTotal];
      cancelled = ok(engine, 'job.cancel', { projectId, kind: 'learn' });
    });
    const failure = await fails(engine, 'learning.learn', { projectId }).finally(off);
    expect(await cancelled).toEqual({ cancelled: true });
    expect(doneWhenCancelled).toBeGreaterThan(0);
    expect(doneWhenCancelled).toBeLessThan(total);
    expect(failure).toEqual({ kind: 'cancelled', message: 'Learning from your decisions was cancelled: nothing was changed.' });
    expect(await everyRow()).toEqual(rowsBefore);
    expect(await ok(engine, 'decisions.acceptPreview', { projectId })).toEqual(previewBefore);
    expect(await ok(engine, 'learning.summary', { projectId })).toMatchObject({ labels: 0, rowsLifted: 0, sentences: [], note: null });
    expect(await ok(engine, 'job.cancel', { projectId, kind: 'learn' })).toEqual({ cancelled: false });
    // Not cancelled, the same learning lifts rows: the cancel above had something to keep from happening.
    const learned = await ok(engine, 'learning.learn', { projectId });
    expect(learned.labels).toBe(entries.length);
    expect(learned.rowsLifted).toBeGreaterThan(0);
    expect(await everyRow()).not.toEqual(rowsBefore);
  });
});
