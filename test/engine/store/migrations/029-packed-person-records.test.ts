import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts, rankedFacts, readStoredFacts } from '../../../../electron/engine/matching';
import { CHOSEN_SQL, chosenValues, readRowStatus } from '../../../../electron/engine/rows/row-status';
import { ALL_MIGRATIONS, getAnswerFacts, getLookups, migrate, putLookups } from '../../../../electron/engine/store';
import { PersonShapes, storedRecord } from '../../../../electron/engine/store/person-records';
import type { Candidate } from '../../../../shared/model';
import { tempFolder } from '../temp-folder';

/** A query stored as the code of migrations 28 to 30 stored one (runs/query-ids.ts reads `query_removals`, migration 31). */
const queryAsBefore = (db: Database.Database, digest: bigint): number =>
  Number(db.prepare("INSERT INTO queries (digest, query) VALUES (?, '[]')").run(digest).lastInsertRowid);

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

const ada: Candidate = { rank: 1, score: 0.8, person: { id: 'p-ada', name: 'Ada Lovelace', linkedin: 'ada', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' } }] } };
const grace: Candidate = { rank: 2, score: null, person: { id: 'p-grace', name: 'Grace Hopper', linkedin: 'grace', jobs: [{ title: 'Admiral', company: { name: 'Navy' } }] } };

describe("migration 29: people's records stored without their keys", () => {
  it('adds the key lists; records stored before stay text and read as they did, beside packed ones', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(28));
      // As migration 25's code stored an answer: its people's records as JSON text, found again by the digest of
      // that text, their facts beside them.
      const stored = answerPeople([ada, grace]);
      const addPerson = db.prepare('INSERT INTO people (facts_version, facts, person) VALUES (?, ?, ?)');
      const ids = [ada, grace].map((c, i) => {
        const json = JSON.stringify(c.person);
        const id = Number(addPerson.run(stored.people[i]!.factsVersion, stored.people[i]!.facts, json).lastInsertRowid);
        db.prepare('INSERT INTO person_digests (id, digest) VALUES (?, ?)').run(id, createHash('sha256').update(json).digest().readBigInt64BE(0));
        return id;
      });
      // A person whose facts an older version made: read from their record again.
      const older = Number(addPerson.run(2, '{}', JSON.stringify(grace.person)).lastInsertRowid);
      const before = queryAsBefore(db, 1n);
      db.prepare("INSERT INTO lookups (query_id, fetched_at, status, candidate_count, people, ranks) VALUES (?, 1000, 'ok', 2, ?, ?)").run(
        before,
        JSON.stringify(ids),
        stored.ranks,
      );
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_rank, source) VALUES (?, 0, 'accepted', 'to_review', 2, 'manual')").run(project);
      const chosen = { rank: 2, score: null, summary: candidateFacts(grace).summary, personId: older };
      db.prepare(`UPDATE row_status SET ${CHOSEN_SQL} WHERE project_id = ? AND row_index = 0`).run(...chosenValues('accepted', chosen), project);

      expect(migrate(db, upTo(29)).applied).toEqual([29]);
      expect(db.prepare("SELECT name FROM pragma_table_info('person_shapes')").pluck().all()).toEqual(['id', 'keys']);
      // Stored by migration 29's code, packed: a new version of Ada, and Grace once more (found again by the digest of
      // her packed record); twice in one answer, once.
      const moved = { ...ada, person: { ...ada.person, jobs: [{ title: 'Countess', company: { name: 'Engines Ltd' } }] } };
      const again = { ...grace, rank: 3 };
      const after = queryAsBefore(db, 2n);
      const packed = answerPeople([moved, grace]).people.map((p) => {
        const record = storedRecord(p.record, PersonShapes.of(db).idsOf(p.record.shapes, new Set()));
        const id = Number(db.prepare('INSERT INTO people (facts_version, facts, person) VALUES (?, ?, CAST(? AS BLOB))').run(p.factsVersion, p.facts, record).lastInsertRowid);
        db.prepare('INSERT INTO person_digests (id, digest) VALUES (?, ?)').run(id, p.digest);
        return id;
      });
      db.prepare("INSERT INTO lookups (query_id, fetched_at, status, candidate_count, people, ranks) VALUES (?, 2000, 'ok', 3, ?, ?)").run(
        after,
        JSON.stringify([...packed, packed[1]]),
        answerPeople([moved, grace, again]).ranks,
      );

      // Read by today's code, which needs the later migrations' tables too.
      migrate(db);
      // Nothing moved: the records stored before are as they were, and read as they did.
      expect(db.prepare('SELECT typeof(person) FROM people ORDER BY id').pluck().all()).toEqual(['text', 'text', 'text', 'blob', 'blob']);
      expect(getLookups(db, [before], 0).get(before)?.candidates).toEqual([ada, grace]);
      expect(getAnswerFacts(db, [before], 0).get(before)?.facts).toContain('"Ada Lovelace"');
      expect(readRowStatus(db, project, 0)?.chosen).toEqual(chosen);
      expect(db.prepare('SELECT people FROM lookups WHERE query_id = ?').pluck().get(after)).toBe('[4,5,5]');
      // Grace found again now is found by the digest of her packed record: stored once.
      putLookups(db, [{ queryId: queryAsBefore(db, 3n), query: { fields: [] }, fetchedAt: 3000, status: 'ok', candidates: [grace], error: null, stored: answerPeople([grace]) }]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(5);
      expect(getLookups(db, [after], 0).get(after)?.candidates).toEqual([moved, grace, again]);
      expect(readStoredFacts(getAnswerFacts(db, [after], 0).get(after)!.facts)).toEqual(
        rankedFacts([moved, grace, again]).map((f, i) => ({ ...f, personId: [4, 5, 5][i] })),
      );
      // The answer stored before still reads its people as they were stored.
      expect(getLookups(db, [before], 0).get(before)?.candidates).toEqual([ada, grace]);

      // A packed record whose facts another version made is read whole in SQL and its facts made again.
      db.prepare("UPDATE people SET facts_version = 99, facts = '{}' WHERE id = 4").run();
      const packedChoice = { rank: 2, score: 0.8, summary: candidateFacts(moved).summary, personId: 4 };
      db.prepare(`UPDATE row_status SET ${CHOSEN_SQL} WHERE project_id = ? AND row_index = 0`).run(...chosenValues('accepted', packedChoice), project);
      expect(readRowStatus(db, project, 0)?.chosen).toEqual(packedChoice);
    } finally {
      db.close();
    }
  });
});
