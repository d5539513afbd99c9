import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 10: query ids in row order', () => {
  it("gives each project's queries ids in the order its rows first ask them, and indexes the rows waiting by id", () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(9));
      const newProject = db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')");
      const [a, b] = [Number(newProject.run().lastInsertRowid), Number(newProject.run().lastInsertRowid)];
      const step = db.prepare("INSERT INTO row_queries (project_id, row_index, step, strategy, query_key, query) VALUES (?, ?, ?, 'email', ?, '[]')");
      const status = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, step, query_key) VALUES (?, ?, 'pending', 'pending', 0, ?)");
      // Project a: row 0 asks z then y, row 1 asks y, row 2 asks x; a kept decision's key no step asks any more comes last.
      for (const [row, s, key] of [[0, 0, 'z'], [0, 1, 'y'], [1, 0, 'y'], [2, 0, 'x']] as const) step.run(a, row, s, key);
      for (const [row, key] of [[0, 'z'], [1, 'y'], [2, 'x'], [3, 'old']] as const) status.run(a, row, key);
      status.run(b, 0, 'x');
      step.run(b, 0, 0, 'x');

      expect(migrate(db, upTo(10)).applied).toEqual([10]);
      const ids = (project: number) => Object.fromEntries(db.prepare('SELECT DISTINCT query_key, query_id FROM row_status WHERE project_id = ?').raw().all(project) as [string, number][]);
      expect(ids(a)).toEqual({ z: 0, y: 1, x: 2, old: 3 });
      expect(ids(b)).toEqual({ x: 0 });
      expect(db.prepare('SELECT query_key, query_id FROM row_queries WHERE project_id = ? ORDER BY row_index, step').raw().all(a)).toEqual([['z', 0], ['y', 1], ['y', 1], ['x', 2]]);

      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT row_index FROM row_status WHERE project_id = ? AND query_id = ?').all(a, 1) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('row_status_by_query');
    } finally {
      db.close();
    }
  });
});
