import type { Migration } from '../migration';

// Every long piece of work is a job (engine/jobs/): its kind, the options it started with (what a resume goes on
// under), its state and how far it got. A job of a project goes with it; an import's has no project until it has one.
export const jobs: Migration = {
  version: 23,
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
  },
};
