import type { Migration } from '../migration';

// The cost preview estimates a run's time from how long find calls took. Measured in memory only, every session (and
// so every CLI command) started from an assumed 1.5 s a call: against a fast service a run of seconds was estimated
// at minutes. Each service's average is now kept, and a new session starts from it.
export const callTimings: Migration = {
  version: 13,
  name: 'the average find call duration, by service',
  up(db) {
    db.exec(`
      CREATE TABLE call_timings (
        -- rows/service-scope.ts scopeId: the service's base URL and the organization.
        scope TEXT PRIMARY KEY,
        seconds_per_call REAL NOT NULL,
        updated_at TEXT NOT NULL
      );
    `);
  },
};
