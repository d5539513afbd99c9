import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts } from '../../../../electron/engine/matching';
import { CHOSEN_SQL, chosenValues, readRowStatus } from '../../../../electron/engine/rows/row-status';
import { storedQueryId } from '../../../../electron/engine/runs/query-ids';
import { ALL_MIGRATIONS, clearCache, getLookups, openDatabase, putLookups } from '../../../../electron/engine/store';
import { PersonShapes, recordOf, recordSql, storedRecord } from '../../../../electron/engine/store/person-records';
import type { Candidate } from '../../../../shared/model';
import { tempFolder } from '../temp-folder';
import { version3Row } from '../../matching/version3-facts';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

const ada: Candidate = { rank: 1, score: 0.8, person: { id: 'p-ada', name: 'Ada Lovelace', linkedin: 'ada', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' } }] } };
const grace: Candidate = { rank: 2, score: null, person: { id: 'p-grace', name: 'Grace Hopper', linkedin: 'grace', jobs: [{ title: 'Admiral', company: { name: 'Navy' } }] } };
const alan: Candidate = { rank: 1, score: null, person: { id: 'p-alan', name: 'Alan Turing', linkedin: 'alan', jobs: [{ title: 'Reader', company: { name: 'Manchester' } }] } };

describe("migration 30: people's records compressed in blocks", () => {
  it('adds the blocks; records stored before stay in their rows and read as they did, beside records in blocks', () => {
    const file = join(tempFolder(), 'm.db');
    let db = openDatabase(file, { migrations: upTo(29) });
    // As migration 29's code stored a query (runs/query-ids.ts reads `query_removals`, migration 31).
    const before = Number(db.prepare("INSERT INTO queries (digest, query) VALUES (1, '[]')").run().lastInsertRowid);
    try {
      // As migration 29's code stored an answer: Ada packed in her row; Grace as JSON text, stored before that.
      const [packedAda] = answerPeople([ada]).people;
      const adaId = Number(
        db.prepare('INSERT INTO people (facts_version, facts, person) VALUES (?, ?, CAST(? AS BLOB))').run(3, version3Row(candidateFacts(ada)), storedRecord(packedAda!.record, PersonShapes.of(db).idsOf(packedAda!.record.shapes, new Set()))).lastInsertRowid,
      );
      db.prepare('INSERT INTO person_digests (id, digest) VALUES (?, ?)').run(adaId, packedAda!.digest);
      const graceId = Number(db.prepare("INSERT INTO people (facts_version, facts, person) VALUES (3, '[]', ?)").run(JSON.stringify(grace.person)).lastInsertRowid);
      db.prepare("INSERT INTO lookups (query_id, fetched_at, status, candidate_count, people, ranks) VALUES (?, 1000, 'ok', 2, ?, ?)").run(before, JSON.stringify([adaId, graceId]), answerPeople([ada, grace]).ranks);
    } finally {
      db.close();
    }

    db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(ALL_MIGRATIONS.length);
      expect(db.prepare("SELECT name FROM pragma_table_info('person_blocks')").pluck().all()).toEqual(['id', 'data']);
      expect(db.prepare("SELECT name FROM pragma_table_info('people')").pluck().all().slice(-2)).toEqual(['block', 'position']);
      // Nothing moved.
      expect(db.prepare('SELECT typeof(person), block FROM people ORDER BY id').raw().all()).toEqual([['blob', null], ['text', null]]);
      expect(getLookups(db, [before], 0).get(before)?.candidates).toEqual([ada, grace]);

      // Stored now: Ada found again by her digest (the same packed record), Alan new, his record in a block.
      const after = storedQueryId(db, 2n, { fields: [] });
      putLookups(db, [{ queryId: after, query: { fields: [] }, fetchedAt: 2000, status: 'ok', candidates: [alan, { ...ada, rank: 2 }], error: null, stored: answerPeople([alan, { ...ada, rank: 2 }]) }]);
      expect(db.prepare('SELECT id, typeof(person), length(person), block, position FROM people ORDER BY id').raw().all()).toEqual([
        [1, 'blob', expect.any(Number), null, null],
        [2, 'text', expect.any(Number), null, null],
        [3, 'blob', 0, 1, 0],
      ]);
      expect(getLookups(db, [after], 0).get(after)?.candidates).toEqual([alan, { ...ada, rank: 2 }]);

      // A decision names the person in a block; their summary is read from their facts. SQL reads no record in a
      // block (recordSql), only those stored before.
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_rank, source) VALUES (?, 0, 'accepted', 'to_review', 1, 'manual')").run(project);
      const chosen = { rank: 1, score: null, summary: candidateFacts(alan).summary, personId: 3 };
      db.prepare(`UPDATE row_status SET ${CHOSEN_SQL} WHERE project_id = ? AND row_index = 0`).run(...chosenValues('accepted', chosen), project);
      expect(readRowStatus(db, project, 0)?.chosen).toEqual(chosen);
      const records = db.prepare(`SELECT ${recordSql('p')} FROM people AS p ORDER BY id`).pluck().all() as (string | null)[];
      expect(records.map((r) => (r === null ? null : recordOf(r)))).toEqual([ada.person, grace.person, null]);

      // Clearing the cache keeps the person the decision names, and so their block; then neither.
      expect(clearCache(db)).toBe(2);
      expect(db.prepare('SELECT id FROM people').pluck().all()).toEqual([3]);
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(1);
      db.prepare('DELETE FROM row_status').run();
      putLookups(db, [{ queryId: after, query: { fields: [] }, fetchedAt: 3000, status: 'error', candidates: null, error: { kind: 'server', message: 'x' } }]);
      clearCache(db);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(0);
      // Its block is emptied, kept for its id (migration 33).
      expect(db.prepare('SELECT id, length(data) FROM person_blocks').raw().all()).toEqual([[1, 0]]);
    } finally {
      db.close();
    }
  });
});
