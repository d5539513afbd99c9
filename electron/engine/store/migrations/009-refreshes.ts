import type { Migration } from '../migration';

// Refreshing a project asks the service again for the people its rows chose (refresh/): a refresh is kept like a
// run, with the people it asks for and whether each has landed, so a crash or a quit goes on where it stopped
// and asks nobody twice. What it finds is kept per person (any project that chose them reads the freshest facts),
// and what each row was before, so the app and the export can say what changed at the last refresh.
export const refreshes: Migration = {
  version: 9,
  name: 'refreshes, refreshed people, and what each row was before its last refresh',
  up(db) {
    db.exec(`
      CREATE TABLE refreshes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        -- The service asked (rows/service-scope.ts scopeId): facts found there are kept under it.
        scope TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'paused', 'cancelled', 'done', 'failed', 'out_of_credits')),
        -- Only people whose facts were older than this many days; NULL asks for everyone.
        older_than_days REAL,
        counters TEXT NOT NULL DEFAULT '{}',
        message TEXT,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX refreshes_by_project ON refreshes (project_id, id);

      -- Each person a refresh asks for, once however many rows chose them: 'pending' until the call asking lands.
      CREATE TABLE refresh_people (
        refresh_id INTEGER NOT NULL REFERENCES refreshes (id) ON DELETE CASCADE,
        slug TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'found', 'not_found', 'failed')),
        PRIMARY KEY (refresh_id, slug)
      ) WITHOUT ROWID;

      -- The matched rows that chose each person when the refresh began: a landed answer updates them in its own
      -- transaction without looking through every row of the project.
      CREATE TABLE refresh_rows (
        refresh_id INTEGER NOT NULL REFERENCES refreshes (id) ON DELETE CASCADE,
        slug TEXT NOT NULL,
        row_index INTEGER NOT NULL,
        PRIMARY KEY (refresh_id, slug, row_index)
      ) WITHOUT ROWID;

      -- The freshest facts known of a person (matching/candidate-facts.ts, JSON), by the service and profile slug
      -- they were asked by, and the facts a refresh before found (NULL until a person is refreshed twice). Shared by
      -- every project: a mapping change or a later decision reads these instead of an older answer.
      CREATE TABLE refreshed_people (
        scope TEXT NOT NULL,
        slug TEXT NOT NULL,
        person_id TEXT,
        facts TEXT NOT NULL,
        previous_facts TEXT,
        refreshed_at INTEGER NOT NULL,
        PRIMARY KEY (scope, slug)
      ) WITHOUT ROWID;

      -- A matched row as it was before the refresh that last asked for its person (slug), and whether that refresh
      -- changed where the person works. Kept beside the decision, never in it: a refresh decides nothing.
      CREATE TABLE row_refreshes (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        refresh_id INTEGER NOT NULL,
        slug TEXT NOT NULL,
        changed INTEGER NOT NULL,
        previous_company TEXT,
        previous_title TEXT,
        previous_job_change TEXT,
        previous_job_change_date TEXT,
        PRIMARY KEY (project_id, row_index)
      ) WITHOUT ROWID;
      -- "What changed at the last refresh": counts, the review filter and export --changes-only.
      CREATE INDEX row_refreshes_changed ON row_refreshes (project_id, refresh_id, row_index) WHERE changed = 1;
    `);
  },
};
