import type { Migration } from '../migration';

// What a run writes and reads per answer, made smaller. Settling rows from the cache parsed every candidates list
// (most of a cached run's time), and the query index's entries moved with each row's state (a fifth of what a run
// wrote).
export const answerDigests: Migration = {
  version: 5,
  name: 'answer digests on lookups; the query index without state',
  up(db) {
    // Rebuilt rather than altered: ALTER TABLE ADD COLUMN appends, and the digest must come before the candidates so
    // reading it never follows a long row's overflow pages. Answers stored before this step keep a null digest; the
    // run reads those whole (store/lookups.ts getAnswerDigests).
    db.exec(`
      CREATE TABLE lookups_new (
        query_key TEXT PRIMARY KEY,
        query TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        -- An 'ok' answer's digest (store/lookups.ts AnswerDigest): how many were found and who leads.
        candidate_count INTEGER,
        top_score REAL,
        second_score REAL,
        top_summary TEXT,
        candidates TEXT,
        error TEXT
      );
      INSERT INTO lookups_new (query_key, query, fetched_at, status, candidates, error)
        SELECT query_key, query, fetched_at, status, candidates, error FROM lookups;
      DROP TABLE lookups;
      ALTER TABLE lookups_new RENAME TO lookups;
      CREATE INDEX lookups_by_fetched_at ON lookups (fetched_at);

      -- Not state: settling a row changes its state, and the keys are hashes, so every settled row rewrote an entry
      -- at a random place in this index.
      DROP INDEX row_status_by_query;
      CREATE INDEX row_status_by_query ON row_status (project_id, query_key);
    `);
  },
};
