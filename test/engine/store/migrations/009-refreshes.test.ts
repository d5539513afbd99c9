import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 9: refreshes, refreshed people and what rows were before', () => {
  it('adds the tables beside a version-8 file whose rows and decisions stay as they were', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(8));
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen) VALUES (?, 0, 'auto', 'to_review', ?)").run(project, JSON.stringify({ rank: 1, jobChange: { status: 'moved' } }));
      const before = db.prepare('SELECT * FROM row_status').all();

      expect(migrate(db, upTo(9)).applied).toEqual([9]);
      expect(db.prepare('SELECT * FROM row_status').all()).toEqual(before);

      const refresh = Number(
        db.prepare("INSERT INTO refreshes (project_id, scope, status, started_at, updated_at) VALUES (?, 's', 'running', 't', 't')").run(project).lastInsertRowid,
      );
      db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) VALUES (?, 'anna-smith', 'pending')").run(refresh);
      db.prepare("INSERT INTO refresh_rows (refresh_id, slug, row_index) VALUES (?, 'anna-smith', 0)").run(refresh);
      db.prepare("INSERT INTO refreshed_people (scope, slug, person_id, facts, refreshed_at) VALUES ('s', 'anna-smith', 'p_1', '{}', 1)").run();
      db.prepare("INSERT INTO row_refreshes (project_id, row_index, refresh_id, slug, changed, previous_company) VALUES (?, 0, ?, 'anna-smith', 1, 'Globex')").run(project, refresh);
      expect(() => db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) VALUES (?, 'x', 'asked')").run(refresh)).toThrow(/CHECK/);
      // Each person once per refresh.
      expect(() => db.prepare("INSERT INTO refresh_people (refresh_id, slug, state) VALUES (?, 'anna-smith', 'pending')").run(refresh)).toThrow(/UNIQUE/);

      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT count(*) FROM row_refreshes WHERE project_id = ? AND refresh_id = ? AND changed = 1').all(project, refresh) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('row_refreshes_changed');

      // A deleted project takes its refreshes, their people and rows, and its rows' refresh states along; what was
      // found of a person stays, as answers in the cache do.
      db.prepare('DELETE FROM projects WHERE id = ?').run(project);
      for (const table of ['refreshes', 'refresh_people', 'refresh_rows', 'row_refreshes']) {
        expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
      }
      expect(db.prepare('SELECT count(*) FROM refreshed_people').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
