import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);
const plan = (db: Database.Database, sql: string, ...params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail).join(' ');

describe('migration 8: the job change stored; the confidence index on rows to review only', () => {
  it('keeps every matched row\'s job change, counts them off a covering index, and indexes only the rows to review by confidence', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(7));
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const add = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen, confidence) VALUES (?, ?, ?, 'to_review', ?, ?)");
      add.run(project, 0, 'auto', JSON.stringify({ rank: 1, jobChange: { status: 'moved' } }), 0.99);
      add.run(project, 1, 'accepted', JSON.stringify({ rank: 2, jobChange: { status: 'no_change' } }), 0.6);
      add.run(project, 2, 'rejected', JSON.stringify({ rank: 1, jobChange: { status: 'left' } }), 0.4);
      add.run(project, 3, 'to_review', null, 0.7);

      expect(migrate(db, upTo(8)).applied).toEqual([8]);
      expect(db.prepare('SELECT row_index, job_change FROM row_status ORDER BY row_index').raw().all()).toEqual([[0, 'moved'], [1, 'no_change'], [2, null], [3, null]]);
      const hidden = (db.pragma('table_xinfo(row_status)') as { name: string; hidden: number }[]).find((c) => c.name === 'job_change');
      expect(hidden?.hidden, 'a plain column now, not a generated one').toBe(0);
      expect(plan(db, 'SELECT job_change, count(*) FROM row_status WHERE project_id = ? AND job_change IS NOT NULL GROUP BY job_change', project)).toContain(
        'COVERING INDEX row_status_by_job_change',
      );
      expect(plan(db, "SELECT row_index FROM row_status WHERE project_id = ? AND state = 'to_review' ORDER BY confidence DESC", project)).toContain(
        'row_status_to_review_by_confidence',
      );
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'row_status'").pluck().all();
      expect(indexes).not.toContain('row_status_by_confidence');
    } finally {
      db.close();
    }
  });
});
