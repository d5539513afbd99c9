import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, readStoredFacts, storedFacts, rankedFacts } from '../../../../electron/engine/matching';
import { ALL_MIGRATIONS, getAnswerFacts, getLookups, migrate, putLookups } from '../../../../electron/engine/store';
import type { Candidate } from '../../../../shared/model';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

const candidates: Candidate[] = [
  { rank: 1, score: null, person: { name: 'Ada Lovelace', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' } }] } },
  { rank: 2, score: null, person: { name: 'Ada Byron', jobs: [] } },
];

describe('migration 23: people stored once, answers as their ids', () => {
  it('adds the people table and the answers\' ids beside the answers stored before, which read as they did', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(22));
      const insert = db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates, error) VALUES (?, '{\"fields\":[]}', 1000, ?, ?, ?, ?, ?)");
      insert.run('found', 'ok', 2, storedFacts(rankedFacts(candidates)), JSON.stringify(candidates), null);
      insert.run('failed', 'error', null, null, null, '{"kind":"server","message":"Service Unavailable"}');

      expect(migrate(db, upTo(23)).applied).toEqual([23]);
      const columns = db.prepare("SELECT name FROM pragma_table_info('lookups')").pluck().all();
      expect(columns.slice(-2)).toEqual(['people', 'ranks']);
      expect(db.prepare("SELECT name FROM pragma_table_info('people')").pluck().all()).toEqual(['id', 'digest', 'facts_version', 'facts', 'person']);

      // The answers stored before read as they were stored.
      expect(getLookups(db, ['found'], 0).get('found')?.candidates).toEqual(candidates);
      expect(readStoredFacts(getAnswerFacts(db, ['found'], 0).get('found')!.facts)).toEqual(rankedFacts(candidates));
      expect(getLookups(db, ['failed'], 0).get('failed')?.error?.message).toBe('Service Unavailable');

      // An answer stored now keeps its people's ids, and its people are stored once.
      putLookups(db, [{ queryKey: 'again', query: { fields: [] }, fetchedAt: 2000, status: 'ok', candidates, error: null, stored: answerPeople(candidates) }]);
      expect(db.prepare("SELECT candidates, facts, people, ranks FROM lookups WHERE query_key = 'again'").get()).toEqual({
        candidates: null,
        facts: null,
        people: '[1,2]',
        ranks: '[[1,null],[2,null]]',
      });
      expect(getLookups(db, ['again'], 0).get('again')?.candidates).toEqual(candidates);
    } finally {
      db.close();
    }
  });
});
