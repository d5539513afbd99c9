import type { Migration } from '../migration';

// A run's options were kept twice: in its job (what a resume reads) and in runs.options (what its status showed). They
// are kept once, in the job. Each run that kept options and has no job holding them (a run that ended before jobs
// existed, whose status still shows its auto-accept rule) is given one, ended as the run ended, and the column goes.
export const runOptionsInJobs: Migration = {
  version: 26,
  name: "a run's options kept once, in its job",
  up(db) {
    db.exec(`
      INSERT INTO jobs (kind, project_id, options, state, started_at, updated_at)
      SELECT 'run', r.project_id, json_object('offline', json(CASE r.offline WHEN 1 THEN 'true' ELSE 'false' END), 'runId', r.id, 'settings', json(r.options)),
             CASE r.status WHEN 'done' THEN 'done' WHEN 'cancelled' THEN 'cancelled' WHEN 'failed' THEN 'failed' ELSE 'paused' END,
             r.started_at, r.updated_at
      FROM runs AS r
      WHERE r.options IS NOT NULL AND json_valid(r.options)
        AND NOT EXISTS (SELECT 1 FROM jobs AS j WHERE j.project_id = r.project_id AND j.kind = 'run' AND json_extract(j.options, '$.runId') = r.id)
      ORDER BY r.id;
      ALTER TABLE runs DROP COLUMN options;
    `);
  },
};
