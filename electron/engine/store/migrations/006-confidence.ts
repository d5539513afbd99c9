import type { Migration } from '../migration';

// Decisions stand on evidence computed locally (matching/confidence-model.ts), not on service scores. Settling a row
// now compares the row with every candidate, so each answer keeps the candidates' facts (matching/candidate-facts.ts)
// beside it, and each row keeps what the model concluded: its best candidate's confidence, the runner-up's, the
// reason in words and the guard that keeps it from being accepted alone.
export const confidence: Migration = {
  version: 6,
  name: 'candidate facts on lookups; confidence, reason and guard on row statuses',
  up(db) {
    // Rebuilt so the facts come before the candidates (reading them never follows a long row's overflow pages).
    // Answers stored before this step have no facts: the run makes them from the candidates when it reads them.
    db.exec(`
      CREATE TABLE lookups_new (
        query_key TEXT PRIMARY KEY,
        query TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        candidate_count INTEGER,
        -- An 'ok' answer's candidates as the confidence model reads them, JSON (matching/candidate-facts.ts).
        facts TEXT,
        candidates TEXT,
        error TEXT
      );
      INSERT INTO lookups_new (query_key, query, fetched_at, status, candidate_count, candidates, error)
        SELECT query_key, query, fetched_at, status, candidate_count, candidates, error FROM lookups;
      DROP TABLE lookups;
      ALTER TABLE lookups_new RENAME TO lookups;
      CREATE INDEX lookups_by_fetched_at ON lookups (fetched_at);

      -- The model's verdict on the row's candidates; NULL until the row is settled (or for rows settled before).
      ALTER TABLE row_status ADD COLUMN confidence REAL;
      ALTER TABLE row_status ADD COLUMN runner_up REAL;
      -- The service rank of the candidate the model puts first.
      ALTER TABLE row_status ADD COLUMN best_rank INTEGER;
      ALTER TABLE row_status ADD COLUMN reason TEXT;
      ALTER TABLE row_status ADD COLUMN guard TEXT;
      -- The review queue sorted by confidence, and "accept all at or above X", without a sort of the whole project.
      CREATE INDEX row_status_by_confidence ON row_status (project_id, state, confidence);
    `);
  },
};
