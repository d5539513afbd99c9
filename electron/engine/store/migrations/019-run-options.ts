import type { Migration } from '../migration';

// A run resumed after a Ctrl-C, a crash or a pause must end as the same run left alone would: it goes on under the
// options it started with (the auto-accept rule, the cache's freshness, calls in flight), not under whatever the
// settings or the resuming command say now. NULL on runs made before: those resume under the settings, as they did.
export const runOptions: Migration = {
  version: 19,
  name: 'the options a run started with',
  up(db) {
    db.exec('ALTER TABLE runs ADD COLUMN options TEXT');
  },
};
