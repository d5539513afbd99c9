import type { Migration } from '../migration';

// AUTOINCREMENT made every commit that stored a block write `sqlite_sequence` too, a page of its own. A block's id must
// still never be given again (a block read is held by its id, store/person-blocks.ts BlockCache): a plain rowid takes
// the largest id plus one, so the block with the largest id is never deleted, only emptied (store/lookups.ts
// clearCache), and a folder whose sequence went past its largest block keeps an empty block at that id.
export const personBlocksWithoutSequence: Migration = {
  version: 33,
  name: 'person blocks without a sequence',
  up(db) {
    db.exec(`
      CREATE TABLE person_blocks_plain (
        id INTEGER PRIMARY KEY,
        data BLOB NOT NULL
      );
      INSERT INTO person_blocks_plain (id, data) SELECT id, data FROM person_blocks ORDER BY id;
      INSERT INTO person_blocks_plain (id, data)
        SELECT seq, x'' FROM sqlite_sequence
        WHERE name = 'person_blocks' AND seq > (SELECT coalesce(max(id), 0) FROM person_blocks);
      DROP TABLE person_blocks;
      ALTER TABLE person_blocks_plain RENAME TO person_blocks;
    `);
  },
};
