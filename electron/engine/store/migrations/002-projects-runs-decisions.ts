import type { Migration } from '../migration';

// Every per-project table cascades from `projects`, so deleting a project (or a half-made import) leaves nothing
// behind; the lookups cache is shared by all projects and belongs to none.
export const projectsRunsDecisions: Migration = {
  version: 2,
  name: 'projects, rows, planned queries, row states, the decision log and runs',
  up(db) {
    db.exec(`
      CREATE TABLE projects (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'match' CHECK (kind IN ('match', 'search')),
        source_name TEXT,
        format TEXT CHECK (format IN ('csv', 'xlsx')),
        sheet_name TEXT,
        headers TEXT NOT NULL DEFAULT '[]',
        warnings TEXT NOT NULL DEFAULT '[]',
        guesses TEXT NOT NULL DEFAULT '[]',
        row_count INTEGER NOT NULL DEFAULT 0,
        mapping TEXT NOT NULL DEFAULT '{}',
        strategies TEXT NOT NULL DEFAULT '["email","social","name+company"]',
        -- The service (base URL and organization) the planned query keys were made for.
        plan_scope TEXT,
        status TEXT NOT NULL CHECK (status IN ('importing', 'ready')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE rows (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        cells TEXT NOT NULL,
        PRIMARY KEY (project_id, row_index)
      ) WITHOUT ROWID;

      -- Each row's queries in strategy order, with the query itself: the rows of a project are read in order,
      -- so this stays sequential, where a table of distinct queries keyed by their hash would be written at
      -- random (measured: it made planning a 100,000-row sheet three times slower). No index on query_key: the
      -- rows waiting on a query are found through row_status.
      CREATE TABLE row_queries (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        step INTEGER NOT NULL,
        strategy TEXT NOT NULL,
        query_key TEXT NOT NULL,
        query TEXT NOT NULL,
        PRIMARY KEY (project_id, row_index, step)
      ) WITHOUT ROWID;

      -- state is what the user sees: the decision when there is one, else outcome (what the run found).
      -- query_key is the query of the row's current step: the one still to ask, or the one that resolved it.
      CREATE TABLE row_status (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        state TEXT NOT NULL,
        outcome TEXT NOT NULL,
        step INTEGER NOT NULL DEFAULT 0,
        strategy TEXT,
        query_key TEXT,
        candidate_count INTEGER NOT NULL DEFAULT 0,
        chosen_rank INTEGER,
        -- The chosen person's summary and score, so a decision outlives a cleared cache.
        chosen TEXT,
        source TEXT CHECK (source IN ('auto', 'manual')),
        decided_at TEXT,
        label TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (project_id, row_index)
      ) WITHOUT ROWID;
      CREATE INDEX row_status_by_state ON row_status (project_id, state, row_index);
      CREATE INDEX row_status_by_query ON row_status (project_id, query_key, state);

      -- Append-only: undo marks a batch undone instead of deleting it, so the log stays an audit trail.
      CREATE TABLE decision_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        batch_id INTEGER NOT NULL,
        row_index INTEGER NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL,
        at TEXT NOT NULL,
        undone_at TEXT
      );
      CREATE INDEX decision_log_by_batch ON decision_log (project_id, batch_id);

      CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('running', 'paused', 'cancelled', 'done', 'failed', 'out_of_credits')),
        offline INTEGER NOT NULL DEFAULT 0,
        counters TEXT NOT NULL DEFAULT '{}',
        message TEXT,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX runs_by_project ON runs (project_id, id);
    `);
  },
};
