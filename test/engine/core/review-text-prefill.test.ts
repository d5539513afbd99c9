import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { isRowTextIndexReady } from '../../../electron/engine/review/row-text-index';
import { openDatabase } from '../../../electron/engine/store';
import { onJobDetail } from '../../support/job-events';
import { ok, openEngine, tempDir, writeCsv } from './helpers';

// The review screen fills a project's text index while the engine is idle, so a user's first text filter need not
// wait for all of it; the fill never takes a turn while calls keep coming or a host holds it back (a download).

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;
const dataDir = () => join(tmp.dir, 'data');
// Nine of the background fill's slices of 250 rows.
const ROWS = 2_250;

beforeAll(async () => {
  tmp = tempDir();
  engine = await openEngine(dataDir());
});
afterAll(async () => {
  await engine.close();
  tmp.remove();
});

async function importRows(name: string): Promise<number> {
  const rows = Array.from({ length: ROWS }, (_, i) => [`Person ${i}`, `person${i}@example.org`, i % 3 === 0 ? 'Acme Corp' : 'Globex']);
  const file = writeCsv(join(tmp.dir, `${name}.csv`), ['Full name', 'Email', 'Company'], rows);
  return (await ok(engine, 'projects.import', { file })).summary.id;
}

/** How far the project's text index got, read through a connection of its own as another reader would. */
function indexState(projectId: number): { ready: boolean; nextRow: number } {
  const db = openDatabase(join(dataDir(), 'matchdesk.sqlite'), { readonly: true });
  try {
    const nextRow = (db.prepare('SELECT next_row FROM row_text_state WHERE project_id = ?').pluck().get(projectId) as number | undefined) ?? 0;
    return { ready: isRowTextIndexReady(db, projectId), nextRow };
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the fill of the project's text index says it is ready. */
function filled(projectId: number): Promise<void> {
  return new Promise((resolve) => {
    const off = onJobDetail(engine, 'textIndex', (p) => {
      if (p.projectId !== projectId || p.phase !== 'ready') return;
      off();
      resolve();
    });
  });
}

describe('the text index filled in the background', () => {
  it('fills once the review screen has been opened and the engine is left alone, before any text filter', async () => {
    const projectId = await importRows('idle');
    const ready = filled(projectId);
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 50 });
    await ready;
    expect(indexState(projectId)).toEqual({ ready: true, nextRow: ROWS });
    const page = await ok(engine, 'review.page', { projectId, text: 'acme', offset: 0, limit: 10 });
    expect(page.total).toBe(ROWS / 3);
  });

  it('takes no turn while calls keep coming, and a text filter meanwhile finishes it at once', async () => {
    const projectId = await importRows('busy');
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 50 });
    // A page every 20 ms for a second, as a user scrolling: the engine is never idle for the 250 ms the fill waits for
    // (the pause lets timers run, as calls arriving over IPC or HTTP do).
    const until = performance.now() + 1_000;
    for (let offset = 0; performance.now() < until; offset = (offset + 50) % ROWS) {
      await ok(engine, 'review.page', { projectId, offset, limit: 50 });
      await sleep(20);
    }
    // None, unless the process was held up for 250 ms between two pages (a loaded machine): a slice is 250 rows.
    // Without the wait for an idle engine, the fill takes a slice on every turn and is done within the second.
    const during = indexState(projectId);
    expect(during.ready).toBe(false);
    expect(during.nextRow).toBeLessThanOrEqual(500);
    const page = await ok(engine, 'review.page', { projectId, text: 'person 19', offset: 0, limit: 20 });
    // "Person 19", "Person 190".."Person 199", "Person 1900".."Person 1999".
    expect(page.total).toBe(1 + 10 + 100);
    expect(indexState(projectId).ready).toBe(true);
  });

  it('takes no turn while a host holds it back (a download under way), and fills once released', async () => {
    const projectId = await importRows('held');
    const release = engine.holdBackground();
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 50 });
    // Three idle waits and more, with no call: only the hold keeps the fill back.
    await sleep(1_000);
    expect(indexState(projectId)).toEqual({ ready: false, nextRow: 0 });
    const ready = filled(projectId);
    release();
    release(); // a second release changes nothing: the hold was counted once
    await ready;
    expect(indexState(projectId)).toEqual({ ready: true, nextRow: ROWS });
    // Released twice, counted once: a new hold still holds.
    const again = await importRows('held-again');
    const hold = engine.holdBackground();
    await ok(engine, 'review.page', { projectId: again, offset: 0, limit: 50 });
    await sleep(1_000);
    expect(indexState(again).nextRow).toBe(0);
    hold();
  });
});
