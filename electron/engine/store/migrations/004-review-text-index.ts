import type { Migration } from '../migration';

// The review list's text filter: a trigram index answers "contains this text" from a large project without reading
// every row, where LIKE read every row's cells for each page. It is filled lazily, the first time a project is
// filtered by text (review/row-text-index.ts), because indexing a large project takes a long while.
export const reviewTextIndex: Migration = {
  version: 4,
  name: 'text index of the rows for the review filter',
  up(db) {
    db.exec(`
      -- One document per row: rowid = (project_id << 32) | row_index, text = the row's label and cells. Contentless
      -- (the text is in rows already), yet deletable: a project's range is removed without reading anything back.
      CREATE VIRTUAL TABLE row_text USING fts5 (
        text,
        tokenize = 'trigram remove_diacritics 1',
        content = '',
        contentless_delete = 1
      );
      -- Filled in transactions of 1,000 rows, each a new segment: merging them 16 at a time instead of 4 makes the
      -- whole fill as fast as one big transaction (measured: 2.4 s per 100,000 rows instead of 3.1 s).
      INSERT INTO row_text (row_text, rank) VALUES ('automerge', 16);

      -- How far a project's index is filled, and for which mapping: the label a row shows depends on it.
      CREATE TABLE row_text_state (
        project_id INTEGER PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
        signature TEXT NOT NULL,
        next_row INTEGER NOT NULL DEFAULT 0,
        done INTEGER NOT NULL DEFAULT 0
      );
      -- A deleted project (or a dropped index) takes its documents along; a foreign key cannot reach a virtual table.
      CREATE TRIGGER row_text_state_removed AFTER DELETE ON row_text_state BEGIN
        DELETE FROM row_text WHERE rowid BETWEEN old.project_id << 32 AND (old.project_id << 32) + 4294967295;
      END;
    `);
  },
};
