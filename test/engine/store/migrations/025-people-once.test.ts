import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, readStoredFacts, storedFacts, rankedFacts } from '../../../../electron/engine/matching';
import { AnswerMove } from '../../../../electron/engine/runs/answer-people';
import { storedQueryId } from '../../../../electron/engine/runs/query-ids';
import { ALL_MIGRATIONS, cacheStats, getAnswerFacts, getLookups, migrate, putLookups } from '../../../../electron/engine/store';
import type { AnswersMoving } from '../../../../electron/engine/runs/answer-people';
import type { Candidate } from '../../../../shared/model';
import { tempFolder } from '../temp-folder';
import { migratedQueryId } from './migrated-query-id';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

const candidates: Candidate[] = [
  { rank: 1, score: null, person: { name: 'Ada Lovelace', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' } }] } },
  { rank: 2, score: null, person: { name: 'Ada Byron', jobs: [] } },
];

describe('migration 25: people stored once, answers as their ids', () => {
  it('adds the people table and the answers\' ids beside the answers stored before, which read as they did', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(24));
      const insert = db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates, error) VALUES (?, '{\"fields\":[]}', 1000, ?, ?, ?, ?, ?)");
      insert.run('found', 'ok', 2, storedFacts(rankedFacts(candidates)), JSON.stringify(candidates), null);
      insert.run('failed', 'error', null, null, null, '{"kind":"server","message":"Service Unavailable"}');

      expect(migrate(db, upTo(25)).applied).toEqual([25]);
      const columns = db.prepare("SELECT name FROM pragma_table_info('lookups')").pluck().all();
      expect(columns.slice(-2)).toEqual(['people', 'ranks']);
      expect(db.prepare("SELECT name FROM pragma_table_info('people')").pluck().all()).toEqual(['id', 'facts_version', 'facts', 'person']);
      expect(db.prepare("SELECT name FROM pragma_table_info('person_digests')").pluck().all()).toEqual(['id', 'digest']);
      // The answers stored before read as they were stored, by today's code (once the file is up to date, by their
      // queries' ids).
      migrate(db);
      const [found, failed] = [migratedQueryId(db, 'found'), migratedQueryId(db, 'failed')];
      expect(getLookups(db, [found], 0).get(found)?.candidates).toEqual(candidates);
      expect(readStoredFacts(getAnswerFacts(db, [found], 0).get(found)!.facts)).toEqual(rankedFacts(candidates));
      expect(getLookups(db, [failed], 0).get(failed)?.error?.message).toBe('Service Unavailable');

      // An answer stored now keeps its people's ids, and its people are stored once.
      const again = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId: again, query: { fields: [] }, fetchedAt: 2000, status: 'ok', candidates, error: null, stored: answerPeople(candidates) }]);
      expect(db.prepare('SELECT candidates, facts, people, ranks FROM lookups WHERE query_id = ?').get(again)).toEqual({
        candidates: null,
        facts: null,
        people: '[1,2]',
        // Ranks 1 and 2 without scores: stored as nothing (store/lookups.ts storedRanks).
        ranks: '',
      });
      expect(getLookups(db, [again], 0).get(again)?.candidates).toEqual(candidates);
    } finally {
      db.close();
    }
  });
});

/** Candidates as an older version stored them: three namesakes of `i`, the first of them shared by every tenth answer. */
function oldCandidates(i: number): Candidate[] {
  const shared = { name: `Shared ${Math.floor(i / 10)}`, jobs: [{ title: 'Engineer', company: { name: 'Globex' }, started_at: '2020-01-01' }] };
  return [
    { rank: 1, score: i % 2 === 0 ? 0.9 : null, person: shared },
    { rank: 2, score: null, person: { name: `Person ${i}`, jobs: [{ title: 'Analyst', company: { name: `Company ${i % 7}` } }] } },
    { rank: 3, score: null, person: { name: `Person ${i} Jr`, emails: [`p${i}@example.com`] } },
  ];
}

describe('moving the answers stored before migration 25 (runs/answer-people.ts)', () => {
  it('moves them a slice at a time, reading the same before, during and after; a stop part-way goes on from what is left', async () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(24));
      const insert = db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates, error) VALUES (?, '{\"fields\":[]}', ?, ?, ?, ?, ?, ?)");
      const keys: string[] = [];
      db.transaction(() => {
        for (let i = 0; i < 1200; i++) {
          const candidates = i % 5 === 4 ? [] : oldCandidates(i);
          // Some stored without facts, as before the confidence model.
          insert.run(`k${i}`, 1000 + i, 'ok', candidates.length, i % 3 === 0 ? null : storedFacts(rankedFacts(candidates)), JSON.stringify(candidates), null);
          keys.push(`k${i}`);
        }
        insert.run('failed', 5000, 'error', null, null, null, '{"kind":"server","message":"Service Unavailable"}');
        insert.run('damaged', 5000, 'ok', 1, null, '[{broken', null);
      })();
      migrate(db);
      const ids = keys.map((k) => migratedQueryId(db, k));
      const [failed, damaged] = [migratedQueryId(db, 'failed'), migratedQueryId(db, 'damaged')];
      const before = getLookups(db, [...ids, failed], 0);
      expect(before.size).toBe(1201);
      const factsOf = (id: number) => {
        const stored = getAnswerFacts(db, [id], 0).get(id);
        // Facts composed of people name the row each was read from: the same facts besides.
        return (stored ? readStoredFacts(stored.facts) : rankedFacts(getLookups(db, [id], 0).get(id)!.candidates!))?.map(({ personId: _id, ...f }) => f);
      };
      const factsBefore = new Map(ids.map((id) => [id, factsOf(id)]));

      // Stopped after its first slice, as a quit would: what it moved is moved, the rest is still as it was.
      const progress: AnswersMoving[] = [];
      const first: AnswerMove = new AnswerMove(db, () => true, (p) => {
        progress.push(p);
        if (p.answersMoved > 0) void first.stop();
      });
      await first.wake();
      expect(progress).toEqual([
        { answersMoved: 0, answersTotal: 1201, done: false },
        { answersMoved: 500, answersTotal: 1201, done: false },
      ]);
      const left = () => db.prepare('SELECT count(*) FROM lookups WHERE people IS NULL AND candidates IS NOT NULL').pluck().get();
      expect(left()).toBe(701);
      expect(getLookups(db, [...ids, failed], 0)).toEqual(before);

      // The next start goes on with what is left.
      const rest: AnswersMoving[] = [];
      await new AnswerMove(db, () => true, (p) => rest.push(p)).finishNow();
      expect(rest[0]).toEqual({ answersMoved: 0, answersTotal: 701, done: false });
      expect(rest.at(-1)).toEqual({ answersMoved: 701, answersTotal: 701, done: true });
      expect(rest.map((p) => p.answersMoved)).toEqual([...rest.map((p) => p.answersMoved)].sort((a, b) => a - b));
      expect(left()).toBe(0);

      // Every answer reads as it did; each person once; the answer whose candidates no longer read is gone (a miss).
      expect(getLookups(db, [...ids, failed, damaged], 0)).toEqual(before);
      for (const id of ids) expect(factsOf(id), String(id)).toEqual(factsBefore.get(id));
      expect(db.prepare("SELECT count(*) FROM lookups WHERE status = 'ok' AND (candidates IS NOT NULL OR facts IS NOT NULL)").pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(120 + 2 * 960);
      expect(cacheStats(db, 0)).toMatchObject({ entries: 1201, errors: 1 });

      // Nothing left: a later start says nothing.
      const again: AnswersMoving[] = [];
      await new AnswerMove(db, () => true, (p) => again.push(p)).finishNow();
      expect(again).toEqual([]);
    } finally {
      db.close();
    }
  });
});
