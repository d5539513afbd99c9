import type { Migration } from '../migration';

// A person's record packed (migration 29) was still most of `people`, read by nothing but the few screens that show a
// record whole, while the export and the cached re-run read `people` for facts. The records of the new people of one
// commit (a find reply's) are now compressed together into a block (store/person-blocks.ts), and a `people` row names
// its block and its position there, its `person` an empty BLOB. Records stored before, as text or packed, stay where
// they are and read as they did: nothing is moved.
export const personBlocks: Migration = {
  version: 30,
  name: "people's records compressed in blocks",
  up(db) {
    db.exec(`
      -- AUTOINCREMENT: a block's id is never given again, so a block read once may be held in memory by its id.
      CREATE TABLE person_blocks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        data BLOB NOT NULL
      );
      ALTER TABLE people ADD COLUMN block INTEGER;
      ALTER TABLE people ADD COLUMN position INTEGER;
    `);
  },
};
