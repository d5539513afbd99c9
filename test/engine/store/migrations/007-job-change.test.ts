import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 7: the job change of matched rows, readable and indexed', () => {
  it('reads the job change out of matched decisions only, and counts them through its index', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(6));
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const add = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen) VALUES (?, ?, ?, 'to_review', ?)");
      add.run(project, 0, 'auto', JSON.stringify({ rank: 1, jobChange: { status: 'moved', date: '2024-03' } }));
      add.run(project, 1, 'accepted', JSON.stringify({ rank: 2, jobChange: { status: 'no_change' } }));
      add.run(project, 2, 'accepted', JSON.stringify({ rank: 1 }));
      add.run(project, 3, 'rejected', JSON.stringify({ rank: 1, jobChange: { status: 'left' } }));
      add.run(project, 4, 'to_review', null);

      expect(migrate(db, upTo(7)).applied).toEqual([7]);
      expect(db.prepare('SELECT row_index, job_change FROM row_status ORDER BY row_index').raw().all()).toEqual([[0, 'moved'], [1, 'no_change'], [2, null], [3, null], [4, null]]);
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT job_change, count(*) FROM row_status WHERE project_id = ? AND job_change IS NOT NULL GROUP BY job_change').all(project) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('row_status_by_job_change');
      // It follows the decision: undoing a match takes its job change out of the counts.
      db.prepare("UPDATE row_status SET state = 'to_review' WHERE row_index = 0").run();
      expect(db.prepare('SELECT count(*) FROM row_status WHERE project_id = ? AND job_change IS NOT NULL').pluck().get(project)).toBe(1);
    } finally {
      db.close();
    }
  });
});
