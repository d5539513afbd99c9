import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 11: a row keeps when its answer was fetched; job changes indexed where there is one', () => {
  it('copies the fetch time of the answer each answered row was settled by; waiting rows have none', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(10));
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const lookup = db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status) VALUES (?, '{}', ?, ?)");
      lookup.run('found', 1000, 'ok');
      lookup.run('failed', 2000, 'error');
      lookup.run('asked-before', 3000, 'ok');
      const status = db.prepare('INSERT INTO row_status (project_id, row_index, state, outcome, query_key, query_id) VALUES (?, ?, ?, ?, ?, ?)');
      status.run(project, 0, 'accepted', 'to_review', 'found', 0);
      status.run(project, 1, 'error', 'error', 'failed', 1);
      status.run(project, 2, 'pending', 'pending', 'asked-before', 2);
      status.run(project, 3, 'no_query', 'no_query', null, null);
      status.run(project, 4, 'to_review', 'to_review', 'gone-from-cache', 3);

      expect(migrate(db, upTo(11)).applied).toEqual([11]);
      expect(db.prepare('SELECT row_index, fetched_at FROM row_status ORDER BY row_index').raw().all()).toEqual([
        [0, 1000],
        [1, 2000],
        [2, null],
        [3, null],
        [4, null],
      ]);

      // Only rows with a job change are in its index, which the review's filters and counts still use.
      expect(db.prepare('SELECT count(*) FROM row_status INDEXED BY row_status_by_job_change WHERE project_id = ? AND job_change IS NOT NULL').pluck().get(project)).toBe(0);
      const plan = db.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM row_status WHERE project_id = ? AND job_change IN ('moved', 'left')").all(project) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('row_status_by_job_change');
    } finally {
      db.close();
    }
  });
});
