import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, latestVersion, openDatabase } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

/** A folder at version 32 holding blocks 1 to `stored`, the last `deleted` of them deleted again (their ids given). */
function version32Folder(stored: number, deleted: number): string {
  const file = join(tempFolder(), 'm.db');
  const db = openDatabase(file, { migrations: upTo(32) });
  try {
    const add = db.prepare('INSERT INTO person_blocks (data) VALUES (?)');
    for (let i = 1; i <= stored; i++) add.run(Buffer.from(`block ${i}`));
    db.prepare('DELETE FROM person_blocks WHERE id > ?').run(stored - deleted);
  } finally {
    db.close();
  }
  return file;
}

describe('migration 33: person blocks without a sequence', () => {
  it('keeps every block, and the ids given before stay given: an empty block at the last one when it was deleted', () => {
    const db = openDatabase(version32Folder(5, 2));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
      expect(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'person_blocks'").pluck().get()).not.toMatch(/AUTOINCREMENT/i);
      expect(db.prepare("SELECT count(*) FROM sqlite_sequence WHERE name = 'person_blocks'").pluck().get()).toBe(0);
      expect(db.prepare('SELECT id, CAST(data AS TEXT) FROM person_blocks ORDER BY id').raw().all()).toEqual([
        [1, 'block 1'],
        [2, 'block 2'],
        [3, 'block 3'],
        [5, ''],
      ]);
      expect(db.prepare("INSERT INTO person_blocks (data) VALUES (x'01')").run().lastInsertRowid).toBe(6);
      // A commit storing a block no longer writes a sequence.
      expect(db.prepare("SELECT count(*) FROM sqlite_sequence WHERE name = 'person_blocks'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('adds no empty block where the last id given is still stored, nor to a folder without blocks', () => {
    for (const [stored, ids] of [
      [3, [1, 2, 3]],
      [0, []],
    ] as const) {
      const db = openDatabase(version32Folder(stored, 0));
      try {
        expect(db.prepare('SELECT id FROM person_blocks ORDER BY id').pluck().all()).toEqual(ids);
      } finally {
        db.close();
      }
    }
  });
});
