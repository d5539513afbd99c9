import type { Migration } from '../migration';

// Deleting a large project in one statement (its rows, plan, statuses and text index, by cascade) held the engine
// for seconds, the app's window with it. A project now leaves `projects` at once and is listed here; its
// rows are removed a slice at a time while the engine is idle (projects/project-cleanup.ts), and a cleanup cut off
// by a quit or a crash goes on at the next start.
export const projectCleanup: Migration = {
  version: 12,
  name: 'deleted projects whose rows are still being removed',
  up(db) {
    db.exec(`
      -- No progress is kept: each slice starts from the lowest row index the project still has.
      CREATE TABLE project_cleanup (project_id INTEGER PRIMARY KEY);
    `);
  },
};
