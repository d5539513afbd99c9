import type { Migration } from '../migration';

// Watching a project (watch/): it is refreshed on a schedule, each refresh keeps the state it saw of each person, and
// "changes since any date" compares those states. A person's state is kept once per version (person_versions) and
// each refresh refers to it by id, so a quarter of monthly refreshes of unchanged people adds only integer rows.
export const watchesPersonHistory: Migration = {
  version: 22,
  name: 'watches, person history, important rows and the changes inbox',
  up(db) {
    db.exec(`
      -- A project refreshed every every_days days, or weekly on weekday (0 = Sunday, UTC): one of the two is set.
      CREATE TABLE watches (
        project_id INTEGER PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
        every_days INTEGER CHECK (every_days IS NULL OR every_days BETWEEN 1 AND 366),
        weekday INTEGER CHECK (weekday IS NULL OR weekday BETWEEN 0 AND 6),
        -- At most this many people (each up to a credit) a refresh; NULL: no ceiling.
        credit_ceiling INTEGER CHECK (credit_ceiling IS NULL OR credit_ceiling >= 0),
        profile_id TEXT NOT NULL,
        next_due_at TEXT NOT NULL,
        -- The refresh the watch started last, and what became of its last try.
        refresh_id INTEGER,
        last_run_at TEXT,
        last_result TEXT,
        -- Why the last due run did not refresh (no secret, out of credits, over the ceiling); NULL when it did.
        blocked TEXT,
        created_at TEXT NOT NULL,
        CHECK ((every_days IS NULL) <> (weekday IS NULL))
      );

      -- A person's state as a refresh saw it: where they work now, as what, and since when (their current job's
      -- start, else when their last job ended). One row per distinct state of a person on a service.
      CREATE TABLE person_versions (
        id INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        slug TEXT NOT NULL,
        company TEXT,
        title TEXT,
        since TEXT
      );
      CREATE UNIQUE INDEX person_versions_key ON person_versions (scope, slug, ifnull(company, ''), ifnull(title, ''), ifnull(since, ''));

      -- Which version of each person a refresh saw (before = 0), and what its rows said before it (before = 1: the
      -- state the match or the refresh before left them in).
      CREATE TABLE person_sightings (
        refresh_id INTEGER NOT NULL REFERENCES refreshes (id) ON DELETE CASCADE,
        before INTEGER NOT NULL,
        version_id INTEGER NOT NULL REFERENCES person_versions (id),
        PRIMARY KEY (refresh_id, before, version_id)
      ) WITHOUT ROWID;

      -- Rows marked important, one by one or by a column's value (Tier = A, compared trimmed and case-folded).
      CREATE TABLE important_rows (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        PRIMARY KEY (project_id, row_index)
      ) WITHOUT ROWID;
      CREATE TABLE important_values (
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        column_index INTEGER NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (project_id, column_index, value)
      ) WITHOUT ROWID;

      -- The changes inbox: changes found by refreshes after this one are not seen yet.
      CREATE TABLE inbox_seen (
        project_id INTEGER PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
        through_refresh_id INTEGER NOT NULL
      );
    `);
  },
};
