import type { Migration } from '../migration';

// A criteria search is a project of its own: its request, its state and every person it found stay here, so it
// reopens offline and a repeated request within the cache TTL is answered without a call.
export const searchesAndResults: Migration = {
  version: 3,
  name: 'criteria searches, the calls they were split into, and the people they found',
  up(db) {
    db.exec(`
      CREATE TABLE searches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        -- The filters as sent (values normalized), before any split of long value lists.
        filters TEXT NOT NULL,
        -- Hash of the service (base URL, organization) and the canonical filters: equal keys ask the same thing.
        request_key TEXT NOT NULL,
        -- The same hash without the service, for answering offline from another profile's results.
        filters_key TEXT NOT NULL,
        base_url TEXT NOT NULL,
        org_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'cancelled', 'done', 'failed', 'out_of_credits')),
        message TEXT,
        chunk_size INTEGER NOT NULL,
        page_size INTEGER NOT NULL,
        pages INTEGER NOT NULL DEFAULT 0,
        calls INTEGER NOT NULL DEFAULT 0,
        people INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX searches_by_request ON searches (request_key, finished_at);
      CREATE INDEX searches_by_filters ON searches (filters_key, finished_at);

      -- One row per call a search was split into (one unless a value list was too long), each paged to its end.
      CREATE TABLE search_chunks (
        search_id INTEGER NOT NULL REFERENCES searches (id) ON DELETE CASCADE,
        chunk_index INTEGER NOT NULL,
        filters TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done')),
        pages INTEGER NOT NULL DEFAULT 0,
        service_count INTEGER,
        last_token TEXT,
        PRIMARY KEY (search_id, chunk_index)
      ) WITHOUT ROWID;

      -- rowid keeps the order people were first seen in; (search_id, person_id) keeps each person once.
      CREATE TABLE search_results (
        search_id INTEGER NOT NULL REFERENCES searches (id) ON DELETE CASCADE,
        person_id TEXT NOT NULL,
        name TEXT,
        title TEXT,
        company TEXT,
        person TEXT NOT NULL,
        -- The job that satisfied the grouped jobs.* filters, computed locally; null when none did.
        job TEXT,
        first_page INTEGER NOT NULL,
        UNIQUE (search_id, person_id)
      );
      -- Entries of an index on search_id are ordered by (search_id, rowid): pages in first-seen order, no sort.
      CREATE INDEX search_results_in_order ON search_results (search_id);
    `);
  },
};
