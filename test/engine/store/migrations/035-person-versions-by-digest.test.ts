import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PersonHistoryWriter } from '../../../../electron/engine/rows/person-history';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { personVersionDigest } from '../../../../electron/engine/store/person-versions';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 35: person versions found by their digest', () => {
  it("gives each stored version its digest, drops the index on their text, and a refresh's writer finds them again by it", () => {
    const file = join(tempFolder(), 'm.db');
    const db = new Database(file);
    const other = new Database(file);
    try {
      migrate(db, upTo(34));
      const insert = db.prepare('INSERT INTO person_versions (scope, slug, company, title, since) VALUES (?, ?, ?, ?, ?)');
      const states: [string, string, string | null, string | null, string | null][] = [
        ['s', 'ann', 'Globex', 'CTO', null],
        ['s', 'ann', null, 'CTO', null],
        ['s', 'bob', '', null, '2024-01'],
        ['t', 'ann', 'Globex', 'CTO', null],
      ];
      for (const state of states) insert.run(...state);
      // The refreshes the sightings below belong to.
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      const refresh = db.prepare("INSERT INTO refreshes (id, project_id, scope, status, started_at, updated_at) VALUES (?, 1, 's', 'done', 't', 't')");
      for (const id of [7, 8, 9]) refresh.run(id);
      const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'person_versions'").pluck().all();
      expect(indexes()).toEqual(['person_versions_key']);

      expect(migrate(db, upTo(35)).applied).toEqual([35]);
      expect(indexes()).toEqual([]);
      const versions = () => db.prepare('SELECT id, scope, slug, company, title, since, digest FROM person_versions ORDER BY id').raw().safeIntegers(true).all();
      expect(versions()).toEqual(states.map((s, i) => [BigInt(i + 1), ...s, personVersionDigest(...s)]));

      const sightings = () => db.prepare('SELECT refresh_id, before, version_id FROM person_sightings ORDER BY refresh_id, version_id').raw().all();
      const writer = new PersonHistoryWriter(db, 's', 7);
      // Stored before the migration: found, not stored again. The same text in another scope is another version.
      writer.see('ann', { company: 'Globex', title: 'CTO', since: null }, true);
      writer.see('ann', { company: null, title: 'CTO', since: null }, false);
      expect(sightings()).toEqual([
        [7, 1, 1],
        [7, 0, 2],
      ]);
      // A new state is stored once, with its digest; another connection (the CLI beside the app) finds it.
      writer.see('ann', { company: 'Initech', title: 'CTO', since: '2025-03' }, false);
      new PersonHistoryWriter(other, 's', 8).see('ann', { company: 'Initech', title: 'CTO', since: '2025-03' }, false);
      expect(versions().length).toBe(5);
      expect(sightings().slice(2)).toEqual([
        [7, 0, 5],
        [8, 0, 5],
      ]);

      // A state stored in a write rolled back is gone: seen again, it is stored again and its sighting names that row.
      expect(() =>
        db.transaction(() => {
          writer.see('cy', { company: 'Umbrella', title: null, since: null }, false);
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      other.prepare("INSERT INTO person_versions (scope, slug, company, title, since, digest) VALUES ('s', 'dee', NULL, NULL, NULL, ?)").run(personVersionDigest('s', 'dee', null, null, null));
      new PersonHistoryWriter(db, 's', 9).see('cy', { company: 'Umbrella', title: null, since: null }, false);
      const cy = db.prepare("SELECT id FROM person_versions WHERE slug = 'cy'").pluck().all();
      expect(cy).toHaveLength(1);
      expect(db.prepare('SELECT version_id FROM person_sightings WHERE refresh_id = 9').pluck().all()).toEqual(cy);
    } finally {
      other.close();
      db.close();
    }
  });
});
