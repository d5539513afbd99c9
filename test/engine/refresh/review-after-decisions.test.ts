// The review keeps its counts and filtered lists between pages and brings them through each decision instead of
// counting again (review-page.ts withReviewMoves): in a large project a recount held every key a reviewer pressed
// for up to seconds. Here every kind of decision is made on a refreshed project, and after each one every filter's page
// (in file order and by confidence), total and figures must equal what a connection that kept nothing works out from
// the file.
import Sqlite, { type Database } from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DecisionResult, ReviewPage } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { reviewPage, type ReviewPageRequest } from '../../../electron/engine/review/review-page';
import { isRowTextIndexReady } from '../../../electron/engine/review/row-text-index';
import { openDatabase } from '../../../electron/engine/store';
import type { Simulator } from '../../../electron/simulator';
import { onJobDetail } from '../../support/job-events';
import { connect, ok, openEngine, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, refreshedProject, truthSheet } from './refresh-fixture';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let fresh: Database;
let projectId: number;
let filters: ReviewPageRequest[];

beforeAll(async () => {
  tmp = tempDir('matchdesk-review-moves-');
  sim = await startSim({ people: 6000, seed: 5 });
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  const sheet = truthSheet(sim.dataset.people, { still: 200, moved: 200, left: 100, again: 40, near_name: 60, nobody: 20 });
  // Each row eight times, as sheets repeat people: enough rows for the text index to fill in ~20 slices.
  const file = writeCsv(join(tmp.dir, 'people.csv'), HEADERS, Array.from({ length: 8 }, () => sheet.map((r) => r.cells)).flat());
  projectId = await refreshedProject(engine, sim, file, { share: 0.4, seed: 9 });
  fresh = openDatabase(engine.dbPath, { readonly: true });
  // A word of a company many rows name: a text filter the index answers, alone and with a state.
  const company = sheet.find((r) => r.company && r.company.name.split(/\s+/)[0]!.length >= 4)!.company!.name.split(/\s+/)[0]!;
  const kinds: Omit<ReviewPageRequest, 'offset' | 'limit'>[] = [
    {},
    { states: ['to_review'] },
    { states: ['auto', 'accepted'] },
    { states: ['rejected', 'skipped'] },
    { jobChanges: ['moved'] },
    { jobChanges: ['left', 'no_change'] },
    { changedAtLastRefresh: true },
    { changedAtLastRefresh: true, states: ['accepted'] },
    { text: company },
    { text: company, states: ['auto'] },
    { text: 'co', states: ['auto', 'to_review'] },
    { order: 'confidence_desc' },
    { order: 'confidence_asc', states: ['auto'] },
    { order: 'confidence_desc', states: ['to_review'] },
    { order: 'confidence_asc', jobChanges: ['moved'], states: ['auto', 'accepted', 'rejected'] },
    // Rows without candidates (no confidence) last, the rows rejected before them.
    { order: 'confidence_desc', states: ['no_candidates', 'rejected'] },
  ];
  // Two pages of each filter; every page of those by confidence, whose order a decision's changes must keep exactly.
  const ROWS = 8 * sheet.length;
  filters = kinds.flatMap((f) =>
    f.order
      ? Array.from({ length: Math.ceil(ROWS / 500) }, (_, i) => ({ ...f, offset: i * 500, limit: 500 }))
      : [
          { ...f, offset: 0, limit: 50 },
          { ...f, offset: 210, limit: 50 },
        ],
  );
});

afterAll(async () => {
  fresh?.close();
  await engine?.close();
  await sim?.close();
  tmp?.remove();
});

/**
 * The statements that count a project's figures or walk a filter's whole list, as the engine prepares them: a page
 * that finds them kept prepares none. Counted on the engine's calls only (the fresh connection counts everything).
 */
const WALKS = [
  /^SELECT state, count\(\*\)/, // the counts per state
  /^SELECT job_change AS j, count\(\*\)/, // per job change
  /^SELECT r[rs]\.row_index AS k/, // a status filter's list or a short text's (rr: the rows changed at a refresh, their count)
  /^SELECT d\.rowid AS k/, // a text filter's list
];
const prepare = vi.spyOn(Sqlite.prototype, 'prepare');

async function walksIn<T>(call: () => Promise<T>): Promise<{ value: T; walks: string[] }> {
  const from = prepare.mock.calls.length;
  const value = await call();
  const walks = prepare.mock.calls.slice(from).map(([sql]) => String(sql).trim()).filter((sql) => WALKS.some((w) => w.test(sql)));
  return { value, walks };
}

/**
 * Every filter's page from the engine (what it kept, brought through the decisions) and worked out afresh. Returns
 * the statements that walked a whole figure or list for the engine's pages.
 */
async function expectPagesAsOnFile(after: string): Promise<string[]> {
  const walked: string[] = [];
  for (const req of filters) {
    const { value: kept, walks } = await walksIn(() => ok(engine, 'review.page', { projectId, ...req }));
    walked.push(...walks);
    const onFile = await reviewPage(fresh, projectId, req);
    expect(summary(kept), `${after}: ${JSON.stringify(req)}`).toEqual(summary(onFile));
  }
  return walked;
}

function summary(page: ReviewPage) {
  return { rows: page.rows.map((r) => `${r.rowIndex} ${r.state}`), total: page.total, counts: page.counts, jobChanges: page.jobChanges, changed: page.changedAtLastRefresh };
}

async function rowsOf(req: Partial<ReviewPageRequest>, limit = 20): Promise<number[]> {
  return (await ok(engine, 'review.page', { projectId, offset: 0, limit, ...req })).rows.map((r) => r.rowIndex);
}

describe('the review after decisions', () => {
  it('keeps its counts and lists while the text index fills in the background between pages', async () => {
    // The first page counts the project's figures and starts the fill; a page read each time the fill tells how far it
    // got (between two of its slices, each of which writes the text index alone) finds them kept.
    const filling: number[] = [];
    let slice: (() => void) | null = null;
    // Each word of the fill ends the wait for the next: a slice, or its end (merging, ready).
    const stop = onJobDetail(engine, 'textIndex', (p) => {
      if (p.projectId !== projectId) return;
      if (p.phase === 'filling') filling.push(p.rowsIndexed);
      slice?.();
    });
    const nextWord = () => new Promise<void>((resolve) => (slice = resolve));
    try {
      let word = nextWord();
      const first = await walksIn(() => ok(engine, 'review.page', { projectId, offset: 0, limit: 50 }));
      expect(first.walks.length).toBeGreaterThan(0);
      let pages = 0;
      while (!isRowTextIndexReady(fresh, projectId)) {
        await word;
        word = nextWord();
        if (isRowTextIndexReady(fresh, projectId)) break;
        const page = await walksIn(() => ok(engine, 'review.page', { projectId, offset: 0, limit: 50 }));
        expect(page.walks, `a page read while the index filled (${filling.at(-1)} rows indexed)`).toEqual([]);
        pages++;
      }
      expect(isRowTextIndexReady(fresh, projectId)).toBe(true);
      expect(pages, 'pages read while the index filled').toBeGreaterThan(2);
    } finally {
      stop();
    }
  });

  it('keeps every count, total and page as the file has them through each kind of decision and its undo', async () => {
    const first = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
    expect(first.changedAtLastRefresh, 'the refresh changed some matched rows').toBeGreaterThan(20);
    expect(first.counts.to_review).toBeGreaterThan(5);
    // Every list walked and kept before the first decision.
    expect(await expectPagesAsOnFile('before any decision')).not.toEqual([]);

    const changed = await rowsOf({ changedAtLastRefresh: true });
    const moved = await rowsOf({ jobChanges: ['moved'] });
    const toReview = await rowsOf({ states: ['to_review'] });
    /**
     * A decision of a few rows: its answer gives the project's figures as the file has them, and every filter's page
     * after it is as on file, with nothing counted or walked again.
     */
    const decide = async (what: string, decision: () => Promise<DecisionResult>) => {
      const { counts, jobChanges, changedAtLastRefresh } = await decision();
      const onFile = await reviewPage(fresh, projectId, { offset: 0, limit: 1 });
      expect({ counts, jobChanges, changed: changedAtLastRefresh }, `${what}: the decision's figures`).toEqual({ counts: onFile.counts, jobChanges: onFile.jobChanges, changed: onFile.changedAtLastRefresh });
      expect(await expectPagesAsOnFile(what), `${what}: figures or lists walked again`).toEqual([]);
    };

    await decide('a changed row rejected', () => ok(engine, 'decisions.reject', { projectId, rowIndex: changed[0]! }));
    const other = (await ok(engine, 'review.row', { projectId, rowIndex: changed[1]! })).candidates.find((c) => c.rank !== 1);
    if (other) await decide('another person chosen for a changed row', () => ok(engine, 'decisions.choose', { projectId, rowIndex: changed[1]!, rank: other.rank }));
    await decide('a moved row cleared', () => ok(engine, 'decisions.clear', { projectId, rowIndex: moved[2]! }));
    await decide('a row to review skipped', () => ok(engine, 'decisions.skip', { projectId, rowIndex: toReview[0]! }));
    await decide('a row to review accepted with its identical rows', () => ok(engine, 'decisions.choose', { projectId, rowIndex: toReview[1]!, rank: 1, applyToIdentical: true }));
    await decide('a changed row rejected with its identical rows', () => ok(engine, 'decisions.reject', { projectId, rowIndex: changed[3]!, applyToIdentical: true }));
    // The changed row matched again: it counts as changed again.
    await decide('the last reject undone', () => ok(engine, 'decisions.undo', { projectId }));
    // The queue by confidence, its first rows read off its index and the rest from its kept list: one order, its index's.
    for (const order of ['confidence_desc', 'confidence_asc'] as const) {
      const shown: number[] = [];
      for (let offset = 0; ; offset += 150) {
        const page = await ok(engine, 'review.page', { projectId, states: ['to_review'], order, offset, limit: 150 });
        shown.push(...page.rows.map((r) => r.rowIndex));
        if (page.rows.length < 150) break;
      }
      const direction = order === 'confidence_asc' ? 'ASC' : 'DESC';
      const indexOrder = fresh
        .prepare(`SELECT row_index FROM row_status WHERE project_id = ? AND state = 'to_review' ORDER BY confidence ${direction}, row_index ${direction}`)
        .pluck()
        .all(projectId);
      expect(shown, `the queue by ${order}`).toEqual(indexOrder);
    }
    // "Accept all at or above" counts, in one walk of the queue, what a count of each threshold finds.
    const preview = await ok(engine, 'decisions.acceptPreview', { projectId });
    const counted = fresh
      .prepare(
        `SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'to_review' AND confidence >= ? AND guard IS NULL AND confidence - runner_up >= ?`,
      )
      .pluck();
    expect(preview.thresholds.at(-1)!.rows, 'rows the lowest threshold takes').toBeGreaterThan(0);
    for (const { minConfidence, rows } of preview.thresholds) expect(rows, `at ${minConfidence}`).toBe(counted.get(projectId, minConfidence - 1e-9, preview.minLead - 1e-9));
    expect(preview.guarded).toBe(fresh.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'to_review' AND guard IS NOT NULL").pluck().get(projectId));
    // Over more rows than a decision brings the lists through: they are walked again, and still as on file.
    const accepted = await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 });
    expect(accepted.changed).toBeGreaterThan(0);
    await expectPagesAsOnFile('every confident row accepted');
    await ok(engine, 'decisions.undo', { projectId });
    await ok(engine, 'decisions.undo', { projectId });
    await expectPagesAsOnFile('two actions undone');
  });
});
