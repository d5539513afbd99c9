// The review's "what changed" line offers to accept the rows a learning lifted: decisions.acceptAtOrAbove with a
// pattern takes that pattern's rows alone, not the other confident rows waiting for review, and one undo puts them back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { ok, openEngine, tempDir } from './helpers';

const NEAR_NAME = 'near_name|typo|current_same|none|alone';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;

beforeAll(async () => {
  tmp = tempDir();
  engine = await openEngine(tmp.dir);
});
afterAll(async () => {
  await engine.close();
  tmp.remove();
});

it('accepts only the rows of the pattern a learning lifted, as one action one undo takes back whole', async () => {
  // A threshold above what a name and an employer alone reach: confident rows of other patterns wait for review too.
  await ok(engine, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0.5 } });
  const { project } = await ok(engine, 'demo.start', {});
  const projectId = project.id;
  const detail = await ok(engine, 'projects.get', { projectId });
  await ok(engine, 'mapping.save', { projectId, mapping: detail.mapping, strategies: detail.strategies });
  await ok(engine, 'run.start', { projectId });
  expect((await engine.runSettled(projectId))?.status).toBe('done');

  const group = (await ok(engine, 'review.groups', { projectId })).find((g) => g.pattern === NEAR_NAME)!;
  expect(group.rows).toBeGreaterThan(12);
  const rows = (await ok(engine, 'review.page', { projectId, pattern: NEAR_NAME, offset: 0, limit: 500 })).rows;
  for (const row of rows.slice(0, 10)) await ok(engine, 'decisions.choose', { projectId, rowIndex: row.rowIndex, rank: row.bestRank! });
  // Other patterns' rows at 95% or more wait too (a near name's guard keeps its rows out of this count until learned):
  // the accept of confident rows at the change's figure would take them as well.
  const at95 = async () => (await ok(engine, 'decisions.acceptPreview', { projectId })).thresholds.find((t) => t.minConfidence === 0.95)!.rows;
  const learned = await ok(engine, 'learning.learn', { projectId });
  const change = learned.changes.find((c) => c.pattern === NEAR_NAME)!;
  // Counted after the learning, whose sheet figures may move other rows too; the lifted rows are among them.
  const confident = await at95();
  expect(confident).toBeGreaterThan(change.rows);
  expect(change.rows).toBe(group.rows - 10);
  expect(change.words).toBe(group.words);
  expect(change.sentence).toBe(`You accepted 10 of 10 rows with a near name at the same company; ${change.rows} more rows now look like them.`);

  expect(change.confidence).toBeLessThan(0.95);
  const before = (await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;

  const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: change.confidence, pattern: NEAR_NAME });
  expect(accepted.changed).toBe(change.rows);
  expect(accepted.counts.to_review).toBe(before.to_review - change.rows);
  expect(accepted.counts.auto).toBe(before.auto + change.rows);
  expect((await ok(engine, 'review.page', { projectId, pattern: NEAR_NAME, offset: 0, limit: 500 })).total).toBe(0);
  expect(await at95()).toBe(confident - change.rows);

  const undone = await ok(engine, 'decisions.undo', { projectId });
  expect(undone.changed).toBe(change.rows);
  expect(undone.counts).toEqual(before);
  expect((await ok(engine, 'review.page', { projectId, pattern: NEAR_NAME, offset: 0, limit: 500 })).total).toBe(change.rows);
}, 120_000);
