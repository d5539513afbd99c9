import type { Migration } from '../migration';

// A run that copies verdicts from another project of the same sheet (runs/copied-verdicts.ts) checks for every row that
// the answer on file is the very one the other project's row was settled by: the same query, fetched at the same time.
// Probed by the query's key, that went to a random place of the key index (ordered by the keys' hashes) and then of the
// table, a large share of a copied row's cost. By when the answer was fetched, then its key, with the status and count
// the copy reads beside them, it reads an index in the order the first run wrote it, and a span's probes fall on a few
// of its pages (docs/performance.md, "The cached re-run"). A run's new answers add their entries at the index's end, as
// they did to the index by fetch time this one takes the place of (clearing the answers older than a date reads it the
// same way).
export const lookupsByAnswer: Migration = {
  version: 18,
  name: 'answers indexed by when they were fetched, then their query',
  up(db) {
    db.exec(`
      DROP INDEX lookups_by_fetched_at;
      CREATE INDEX lookups_by_answer ON lookups (fetched_at, query_key, status, candidate_count);
    `);
  },
};
