import type { Migration } from '../migration';

// Each version of a person kept its record as the JSON the service sent, and its objects' keys were over a third
// of it: the same few key lists in every record. A record is now stored packed (store/packed-record.ts): its values,
// each object naming its key list by id in `person_shapes`, as a BLOB. Records stored before stay TEXT and read as
// they did, so nothing is moved and no folder is ever half-moved; a person stored before is stored again, packed,
// when an answer next finds them (their digest is now the packed record's), and the text version goes when clearing
// the cache finds nothing naming it.
export const packedPersonRecords: Migration = {
  version: 29,
  name: "people's records stored without their keys",
  up(db) {
    db.exec(`
      -- The key lists of the records' objects, JSON (\`["id","name",...]\`): a handful a folder.
      CREATE TABLE person_shapes (
        id INTEGER PRIMARY KEY,
        keys TEXT NOT NULL UNIQUE
      );
    `);
  },
};
