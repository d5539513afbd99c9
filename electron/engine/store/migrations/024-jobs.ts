import type { Migration } from '../migration';

// A run's and a refresh's job (engine/jobs/): its kind, the options it started with (what a resume goes on under), its
// state and how far it got. The other kinds of job resume nothing and are kept in memory only.
export const jobs: Migration = {
  version: 24,
  name: 'jobs',
  up(db) {
    db.exec(`
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
        options TEXT NOT NULL DEFAULT '{}',
        state TEXT NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        phase TEXT NOT NULL DEFAULT '',
        message TEXT,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX jobs_by_project ON jobs (project_id, kind, id);
    `);
    // A run stopped before jobs existed resumes under the options stored with it (migration 019): they become its job's.
    db.exec(`
      INSERT INTO jobs (kind, project_id, options, state, started_at, updated_at)
      SELECT 'run', project_id, json_object('offline', json(CASE offline WHEN 1 THEN 'true' ELSE 'false' END), 'runId', id, 'settings', json(options)),
             CASE status WHEN 'failed' THEN 'failed' ELSE 'paused' END, started_at, updated_at
      FROM runs WHERE options IS NOT NULL AND json_valid(options) AND status IN ('running', 'paused', 'failed', 'out_of_credits') ORDER BY id
    `);
  },
};
