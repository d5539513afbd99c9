import { hash } from 'node:crypto';
import type { Migration } from '../migration';

// Every answer was keyed by its query's 64-hex key (an index written at random: a page per new answer), and every row
// copied that key, and every planned step the query's text, beside a per-project id. A query is now stored once, in
// `queries`, with a global integer id; answers are keyed by it (lookups' rowid) and the row tables keep only the id.
// A query is found again by the first 64 bits of its key, read into memory (store/query-ids.ts) rather than indexed.
// All in the migration's one transaction: a folder is in one layout or the other.
export const integerQueryIds: Migration = {
  version: 28,
  name: 'queries stored once with an integer id; answers and rows keyed by it',
  up(db) {
    db.function('migrated_key_digest', { deterministic: true }, (key: unknown) => keyDigest(String(key)));
    db.function('migrated_query_text', { deterministic: true }, (text: unknown) => (text === null ? null : storedText(String(text))));
    db.exec(`
      CREATE TABLE queries (
        id INTEGER PRIMARY KEY,
        -- The first 64 bits of the query's key (store/lookups.ts queryKey), a SHA-256 of its service and terms.
        digest INTEGER NOT NULL,
        -- Its terms as [field_name, search_term] pairs (runs/query-records.ts storedQuery); NULL only for a query known
        -- before this version by its key alone, whose text no plan or answer kept.
        query TEXT
      );
      -- The queries a deleted project named and no answer keeps: removed once no other project names them
      -- (projects/project-cleanup.ts). \`walked\`: listed before the walk of the other projects going on began.
      CREATE TABLE query_cleanup (id INTEGER PRIMARY KEY, walked INTEGER NOT NULL DEFAULT 0);

      -- Ids in the order the rows first ask their queries, project by project, then the answers no row names: a
      -- project's rows and its answers are filed near each other, as the per-project ids filed them before.
      CREATE TEMP TABLE migrated_queries AS
        SELECT query_key AS key, min(seen) AS seen, max(query) AS query FROM (
          SELECT query_key, (project_id << 36) + row_index * 16 + step AS seen, query FROM row_queries
          UNION ALL
          SELECT query_key, (project_id << 36) + row_index * 16 + 15, NULL FROM row_status WHERE query_key IS NOT NULL
          UNION ALL
          SELECT query_key, (1 << 62) + rowid, query FROM lookups
        )
        GROUP BY query_key;
      CREATE TEMP TABLE migrated_ids AS SELECT key, row_number() OVER (ORDER BY seen) AS id, query FROM temp.migrated_queries;
      DROP TABLE temp.migrated_queries;
      CREATE UNIQUE INDEX temp.migrated_ids_by_key ON migrated_ids (key);
      INSERT INTO queries (id, digest, query) SELECT id, migrated_key_digest(key), migrated_query_text(query) FROM temp.migrated_ids ORDER BY id;

      CREATE TABLE answers (
        query_id INTEGER PRIMARY KEY,
        fetched_at INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        candidate_count INTEGER,
        -- An 'ok' answer's candidates as the confidence model read them, JSON: answers stored before migration 25 only.
        facts TEXT,
        candidates TEXT,
        error TEXT,
        people TEXT,
        ranks TEXT
      );
      INSERT INTO answers (query_id, fetched_at, status, candidate_count, facts, candidates, error, people, ranks)
        SELECT m.id, l.fetched_at, l.status, l.candidate_count, l.facts, l.candidates, l.error, l.people, l.ranks
        FROM lookups AS l JOIN temp.migrated_ids AS m ON m.key = l.query_key ORDER BY m.id;
      DROP TABLE lookups;
      ALTER TABLE answers RENAME TO lookups;
      CREATE INDEX lookups_by_answer ON lookups (fetched_at, query_id, status, candidate_count);

      CREATE TABLE steps (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        step INTEGER NOT NULL,
        strategy TEXT NOT NULL,
        query_id INTEGER NOT NULL,
        PRIMARY KEY (project_id, row_index, step)
      ) WITHOUT ROWID;
      INSERT INTO steps (project_id, row_index, step, strategy, query_id)
        SELECT rq.project_id, rq.row_index, rq.step, rq.strategy, m.id
        FROM row_queries AS rq JOIN temp.migrated_ids AS m ON m.key = rq.query_key ORDER BY rq.project_id, rq.row_index, rq.step;
      DROP TABLE row_queries;
      ALTER TABLE steps RENAME TO row_queries;

      UPDATE row_status SET query_id = (SELECT m.id FROM temp.migrated_ids AS m WHERE m.key = row_status.query_key) WHERE query_key IS NOT NULL;
      ALTER TABLE row_status DROP COLUMN query_key;
      DROP TABLE temp.migrated_ids;
    `);
  },
};

/**
 * The first 64 bits of a key, signed, as store/query-ids.ts reads them: its first 16 hex digits, or, for a key that is
 * not a digest already, of its SHA-256.
 */
function keyDigest(key: string): bigint {
  const hex = /^[0-9a-f]{64}$/.test(key) ? key : hash('sha256', key);
  return BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`));
}

/**
 * A query's text as [field_name, search_term] pairs, from that form or the FindQuery JSON older plans and answers kept;
 * null when it does not read.
 */
function storedText(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { fields: { field_name: string; search_term: string }[] } | [string, string][];
    return Array.isArray(parsed) ? text : JSON.stringify(parsed.fields.map((f) => [f.field_name, f.search_term]));
  } catch {
    // A text that no longer reads is no text: the query is known by its key alone.
    return null;
  }
}
