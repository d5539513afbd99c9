import type { Migration } from '../migration';

// A refresh's listed rows were filed by person (slug), with an index by row for the walk in sheet order
// (refresh/refresh-rows.ts). Listed a slice of people at a time, and let go so, every slice wrote entries at random over
// the whole index by row: at a million rows most of what a refresh wrote (423,000 of 761,000 WAL pages). They are filed
// by row now, with no other index, listed and let go in sheet order; what needed them by person reads refresh_people,
// which keeps each person's count of rows.
export const refreshRowsInRowOrder: Migration = {
  version: 36,
  name: "a refresh's listed rows filed by row",
  up(db) {
    // Idempotent, as the steps before it are: a folder set back to an older version by hand runs it again.
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('refresh_people');
    if (!columns.includes('rows')) db.exec('ALTER TABLE refresh_people ADD COLUMN rows INTEGER');
    // Counted while the rows are still filed by person: one pass.
    db.exec(`
      UPDATE refresh_people SET rows = c.n
      FROM (SELECT refresh_id, slug, count(*) AS n FROM refresh_rows GROUP BY refresh_id, slug) AS c
      WHERE refresh_people.rows IS NULL AND c.refresh_id = refresh_people.refresh_id AND c.slug = refresh_people.slug;
      UPDATE refresh_people SET rows = 0 WHERE rows IS NULL;
    `);
    const key = db.prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk').pluck().all('refresh_rows');
    if (key.join() === 'refresh_id,row_index') return;
    db.exec(`
      CREATE TABLE refresh_rows_by_row_order (
        refresh_id INTEGER NOT NULL REFERENCES refreshes (id) ON DELETE CASCADE,
        row_index INTEGER NOT NULL,
        slug TEXT NOT NULL,
        PRIMARY KEY (refresh_id, row_index)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO refresh_rows_by_row_order (refresh_id, row_index, slug)
        SELECT refresh_id, row_index, slug FROM refresh_rows ORDER BY refresh_id, row_index;
      DROP TABLE refresh_rows;
      ALTER TABLE refresh_rows_by_row_order RENAME TO refresh_rows;
    `);
  },
};
