import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../shared/model';
import { answerPeople } from '../../../electron/engine/matching';
import { QueryIds } from '../../../electron/engine/runs/query-ids';
import { storedQuery } from '../../../electron/engine/runs/query-records';
import { cacheStats, getLookups, openDatabase, putLookups, queryDigest, type Lookup } from '../../../electron/engine/store';
import { tempFolder } from './temp-folder';

// Twenty statements' worth of keys each way (store/lookups.ts reads 500 keys a statement); the bench stores far more.
const COUNT = 10_000;

function person(i: number, rank: number): Candidate {
  return {
    rank,
    score: null,
    person: {
      id: `person-${i}-${rank}`,
      name: `Person ${i} ${rank}`,
      linkedin: `person-${i}-${rank}`,
      location: 'Berlin, Germany',
      jobs: [{ title: 'Senior Engineer', level: 'Senior Staff', function: 'Engineering', started_at: '2021-03-01', company: { id: `c${i % 997}`, name: `Company ${i % 997}`, domain: `company${i % 997}.example` } }],
    },
  };
}

describe('lookups cache at volume', () => {
  it(`stores and reads back ${COUNT.toLocaleString('en')} lookups`, () => {
    const file = join(tempFolder(), 'matchdesk.db');
    const db = openDatabase(file);
    try {
      const fetchedAt = Date.UTC(2026, 0, 1);
      const rows: Lookup[] = [];
      const ids = QueryIds.of(db).catchUp();
      for (let i = 0; i < COUNT; i++) {
        const query = { fields: [{ field_name: 'email_address', search_term: `person${i}@example.com` }] };
        const candidates = i % 3 === 0 ? [] : [person(i, 1), person(i, 2), person(i, 3)];
        rows.push({ queryId: ids.idOf(queryDigest('https://gotlivedata.io', 'org', query), storedQuery(query)), query, fetchedAt, status: 'ok', candidates, error: null, stored: answerPeople(candidates) });
      }

      let t = performance.now();
      putLookups(db, rows);
      const putMs = performance.now() - t;

      t = performance.now();
      const got = getLookups(db, rows.map((r) => r.queryId), fetchedAt);
      const getMs = performance.now() - t;

      const stats = cacheStats(db, fetchedAt);
      console.log(
        `lookups volume: put ${COUNT} in ${putMs.toFixed(0)} ms, get ${got.size} in ${getMs.toFixed(0)} ms, ` +
          `${(stats.bytes / 1e6).toFixed(1)} MB of JSON, file ${(statSync(file).size / 1e6).toFixed(1)} MB (+ WAL)`,
      );
      expect(got.size).toBe(COUNT);
      const { stored: _stored, ...last } = rows[COUNT - 1]!;
      expect(got.get(last.queryId)).toEqual(last);
      expect(stats.fresh).toBe(COUNT);
    } finally {
      db.close();
    }
  });
});
