import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PersonHistoryWriter } from '../../../electron/engine/rows/person-history';
import { ALL_MIGRATIONS, migrate } from '../../../electron/engine/store';
import { personVersionDigest } from '../../../electron/engine/store/person-versions';
import { tempFolder } from '../store/temp-folder';

describe('PersonHistoryWriter, its transactions begun and committed', () => {
  it('names the right version when a rolled-back write took an id that another connection then stored a version under', () => {
    const file = join(tempFolder(), 'h.db');
    const db = new Database(file);
    const other = new Database(file);
    try {
      migrate(db, ALL_MIGRATIONS);
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      const refresh = db.prepare("INSERT INTO refreshes (id, project_id, scope, status, started_at, updated_at) VALUES (?, 1, 's', 'done', 't', 't')");
      for (const id of [1, 2]) refresh.run(id);
      const writer = new PersonHistoryWriter(db, 's', 1);
      const inTransaction = (work: () => void) => {
        db.transaction(() => {
          writer.begin();
          work();
        })();
        writer.committed();
      };
      const globex = { company: 'Globex', title: 'CTO', since: null };
      const initech = { company: 'Initech', title: 'CTO', since: '2025-03' };

      inTransaction(() => writer.see('ann', globex, true));
      // Seen again in a later transaction: found among the versions committed, not stored twice.
      inTransaction(() => writer.see('ann', globex, false));
      expect(db.prepare('SELECT count(*) FROM person_versions').pluck().get()).toBe(1);

      // A new state stored in a write that is rolled back: its id is free again, and the CLI beside the app stores
      // another person's state under it.
      expect(() =>
        db.transaction(() => {
          writer.begin();
          writer.see('ann', initech, false);
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      other.prepare("INSERT INTO person_versions (scope, slug, company, title, since, digest) VALUES ('s', 'dee', NULL, NULL, NULL, ?)").run(personVersionDigest('s', 'dee', null, null, null));

      const later = new PersonHistoryWriter(db, 's', 2);
      db.transaction(() => {
        later.begin();
        later.see('ann', initech, false);
        later.see('dee', { company: null, title: null, since: null }, false);
      })();
      later.committed();
      const seen = db
        .prepare('SELECT v.slug, v.company FROM person_sightings AS s JOIN person_versions AS v ON v.id = s.version_id WHERE s.refresh_id = 2 ORDER BY v.id')
        .raw()
        .all();
      expect(seen).toEqual([
        ['dee', null],
        ['ann', 'Initech'],
      ]);
    } finally {
      other.close();
      db.close();
    }
  });

  it('stores each sighting once a refresh, and again after the write that stored it was rolled back', () => {
    const db = new Database(join(tempFolder(), 's.db'));
    try {
      migrate(db, ALL_MIGRATIONS);
      db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
      db.prepare("INSERT INTO refreshes (id, project_id, scope, status, started_at, updated_at) VALUES (1, 1, 's', 'done', 't', 't')").run();
      const writer = new PersonHistoryWriter(db, 's', 1);
      const sightings = () => db.prepare('SELECT v.slug, s.before FROM person_sightings AS s JOIN person_versions AS v ON v.id = s.version_id ORDER BY v.slug, s.before').raw().all();
      const globex = { company: 'Globex', title: 'CTO', since: null };
      const inTransaction = (work: () => void, fail = false) =>
        db.transaction(() => {
          writer.begin();
          work();
          if (fail) throw new Error('rolled back');
        })();
      // A person's rows in three slices: one sighting of what they said before, and one of the state found.
      inTransaction(() => {
        writer.see('ann', globex, true);
        writer.see('ann', globex, true);
      });
      writer.committed();
      inTransaction(() => writer.see('ann', globex, true));
      writer.committed();
      inTransaction(() => writer.see('ann', globex, false));
      writer.committed();
      expect(sightings()).toEqual([
        ['ann', 0],
        ['ann', 1],
      ]);
      expect(() => inTransaction(() => writer.see('bob', globex, true), true)).toThrow('rolled back');
      inTransaction(() => writer.see('bob', globex, true));
      writer.committed();
      expect(sightings()).toContainEqual(['bob', 1]);
    } finally {
      db.close();
    }
  });
});
