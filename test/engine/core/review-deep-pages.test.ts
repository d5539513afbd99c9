import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RowState } from '../../../shared/model';
import { LIST_SLICE, reviewPage } from '../../../electron/engine/review/review-page';
import { stateCounts } from '../../../electron/engine/rows/row-status';
import { openDatabase } from '../../../electron/engine/store';
import { tempDir } from './helpers';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

const STATES: RowState[] = ['to_review', 'auto', 'no_candidates'];
const stateOf = (i: number) => STATES[i % 3]!;

/** `rows` rows "Name i" / "i@example.com", row i in state STATES[i % 3]; statuses for the first `withStatus` only. */
function project(rows: number, withStatus = rows) {
  const file = join(tmp.dir, 'deep.db');
  const db = openDatabase(file);
  const id = Number(
    db
      .prepare(`INSERT INTO projects (name, mapping, row_count, status, created_at, updated_at) VALUES ('p', '{"fullName":0,"email":1}', ?, 'ready', 't', 't')`)
      .run(rows).lastInsertRowid,
  );
  const addRow = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
  const addStatus = db.prepare('INSERT INTO row_status (project_id, row_index, state, outcome, label) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      addRow.run(id, i, JSON.stringify([`Name ${i}`, `${i}@example.com`]));
      if (i < withStatus) addStatus.run(id, i, stateOf(i), stateOf(i), `Name ${i}`);
    }
  })();
  return { db, id, file };
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
const indexes = async (db: Database.Database, id: number, req: Parameters<typeof reviewPage>[2]) => {
  const page = await reviewPage(db, id, req);
  return { total: page.total, rows: page.rows.map((r) => r.rowIndex) };
};

describe('review pages deep in a long list', () => {
  it('reads any page of the unfiltered list, of a state filter and of a text filter, as the first page would', async () => {
    const { db, id } = project(3000);
    try {
      for (const offset of [0, 199, 200, 1150, 2950, 3000, 5000]) {
        expect(await indexes(db, id, { offset, limit: 100 })).toEqual({ total: 3000, rows: range(offset, Math.min(3000, offset + 100)) });
      }
      const toReview = range(0, 3000).filter((i) => stateOf(i) === 'to_review');
      const decided = range(0, 3000).filter((i) => stateOf(i) !== 'to_review');
      for (const offset of [0, 199, 200, 401, 950, 999, 1000]) {
        expect(await indexes(db, id, { states: ['to_review'], offset, limit: 50 })).toEqual({ total: 1000, rows: toReview.slice(offset, offset + 50) });
        expect(await indexes(db, id, { states: ['auto', 'no_candidates'], offset, limit: 50 })).toEqual({ total: 2000, rows: decided.slice(offset, offset + 50) });
      }
      // "Name 1" is in rows 1, 10-19, 100-199 and 1000-1999.
      const named = range(0, 3000).filter((i) => `name ${i}`.includes('name 1'));
      for (const offset of [0, 250, 1100]) {
        expect(await indexes(db, id, { text: 'name 1', offset, limit: 100 })).toEqual({ total: named.length, rows: named.slice(offset, offset + 100) });
        const both = named.filter((i) => stateOf(i) === 'auto');
        expect(await indexes(db, id, { text: 'name 1', states: ['auto'], offset: Math.min(offset, 300), limit: 20 })).toEqual({
          total: both.length,
          rows: both.slice(Math.min(offset, 300), Math.min(offset, 300) + 20),
        });
      }
    } finally {
      db.close();
    }
  });

  it('sees every change at once: its own writes, another connection\'s, and rows still without a status', async () => {
    const { db, id, file } = project(1000, 600);
    try {
      // Statuses for 600 of 1000 rows: the unfiltered list is not a range of row indexes yet.
      expect(await indexes(db, id, { offset: 550, limit: 100 })).toEqual({ total: 600, rows: range(550, 600) });
      expect(stateCounts(db, id).to_review).toBe(200);
      expect((await indexes(db, id, { states: ['to_review'], offset: 150, limit: 100 })).total).toBe(200);

      db.prepare("UPDATE row_status SET state = 'accepted' WHERE project_id = ? AND row_index = 0").run(id);
      expect(stateCounts(db, id)).toMatchObject({ to_review: 199, accepted: 1 });
      expect(await indexes(db, id, { states: ['to_review'], offset: 150, limit: 100 })).toEqual({
        total: 199,
        rows: range(1, 600).filter((i) => stateOf(i) === 'to_review').slice(150, 250),
      });
      expect((await indexes(db, id, { text: 'name 5', states: ['accepted'], offset: 0, limit: 10 })).total).toBe(0);

      const other = new Database(file);
      other.prepare("UPDATE row_status SET state = 'accepted' WHERE project_id = ? AND row_index = 3").run(id);
      other.close();
      expect(stateCounts(db, id)).toMatchObject({ to_review: 198, accepted: 2 });
      expect((await indexes(db, id, { states: ['accepted'], offset: 0, limit: 10 })).rows).toEqual([0, 3]);

      const addStatus = db.prepare('INSERT INTO row_status (project_id, row_index, state, outcome, label) VALUES (?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (let i = 600; i < 1000; i++) addStatus.run(id, i, stateOf(i), stateOf(i), `Name ${i}`);
      })();
      expect(await indexes(db, id, { offset: 950, limit: 100 })).toEqual({ total: 1000, rows: range(950, 1000) });
      expect((await indexes(db, id, { text: 'name 9', offset: 0, limit: 500 })).total).toBe(111);
    } finally {
      db.close();
    }
  });

  it('walks a list longer than a slice a slice at a time, every row in its place', async () => {
    // Statuses for all but the last rows: the unfiltered list is not a range of row indexes, and is walked.
    const withStatus = LIST_SLICE + 2_000;
    const { db, id } = project(LIST_SLICE + 4_000, withStatus);
    // Every call's rows, seen on their way (the statements run as they do): no list comes back in one array.
    const all = vi.spyOn(Object.getPrototypeOf(db.prepare('SELECT 1')) as { all: (...params: unknown[]) => unknown[] }, 'all');
    try {
      for (const offset of [250, LIST_SLICE - 50, LIST_SLICE, withStatus - 100]) {
        expect(await indexes(db, id, { offset, limit: 100 })).toEqual({ total: withStatus, rows: range(offset, Math.min(withStatus, offset + 100)) });
      }
      const toReview = range(0, withStatus).filter((i) => stateOf(i) === 'to_review');
      for (const offset of [300, toReview.length - 20]) {
        expect(await indexes(db, id, { states: ['to_review'], offset, limit: 50 })).toEqual({ total: toReview.length, rows: toReview.slice(offset, offset + 50) });
      }
      for (const offset of [LIST_SLICE - 10, withStatus - 30]) {
        expect(await indexes(db, id, { states: STATES, offset, limit: 50 })).toEqual({ total: withStatus, rows: range(offset, Math.min(withStatus, offset + 50)) });
      }
      const returned = all.mock.results.map((r) => (Array.isArray(r.value) ? r.value.length : 0));
      expect(Math.max(...returned)).toBeLessThanOrEqual(LIST_SLICE);
      expect(returned).toContain(LIST_SLICE);
    } finally {
      all.mockRestore();
      db.close();
    }
  });
});
