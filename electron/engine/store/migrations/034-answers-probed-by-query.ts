import type { Migration } from '../migration';

// A run that copies verdicts (runs/copied-verdicts.ts) probes the answer a row was settled by through its query's id,
// the answers' own key: since migration 28 that is an integer in row order, so a span's probes fall on neighbouring
// pages of `lookups`, whose rows are a few dozen bytes. The index by fetch time, then query, was made for the hash keys
// before it; every first run wrote it by landing order, a commit rewriting its last pages, for no reader left.
export const answersProbedByQuery: Migration = {
  version: 34,
  name: 'answers probed by their query alone',
  up(db) {
    db.exec('DROP INDEX IF EXISTS lookups_by_answer');
  },
};
