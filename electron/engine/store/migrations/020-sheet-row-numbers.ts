import type { Migration } from '../migration';

// A sheet's blank rows between its data rows are now stored in place (cells '[]'), so a project's rows line up with
// the sheet's and its export with the original. first_row is the sheet's row number of row_index 0 (the header's row
// plus one) and blank_rows counts the stored blank rows, which are never planned or asked. Projects imported before
// had their blank rows dropped and were shown as data row 1 = Row 1: they keep those numbers (first_row 1).
export const sheetRowNumbers: Migration = {
  version: 20,
  name: "a project's rows numbered as its sheet's, blank rows kept",
  up(db) {
    db.exec(`
      ALTER TABLE projects ADD COLUMN first_row INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE projects ADD COLUMN blank_rows INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
