import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople } from '../../../electron/engine/matching';
import { PersonShapes, packRecord, readRecord, recordOf, recordSql, storedRecord } from '../../../electron/engine/store/person-records';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { getLookups, openDatabase, putLookups } from '../../../electron/engine/store';
import type { Candidate, PersonJson } from '../../../shared/model';
import { tempFolder } from './temp-folder';

const ada: PersonJson = {
  id: 'p_1',
  name: 'Ada Lovelace',
  location_details: { locality: 'London', region: null, country: 'United Kingdom' },
  jobs: [
    { title: 'Analyst', started_at: '1843-01-01', ended_at: null, company: { id: 'c_1', name: 'Engines Ltd', employee_count: 12 } },
    { title: 'Translator', started_at: '1842-01-01', ended_at: '1843-01-01', company: { id: 'c_2', name: 'Taylor', employee_count: 3 } },
  ],
  education: [],
  tags: [['a', 1], [], [{}]],
  verified: true,
};

/** A record packed with local shape ids standing for themselves, read back. */
function roundTrip(person: PersonJson): PersonJson {
  const packed = packRecord(person);
  const shapes = packed.shapes.map((keys) => JSON.parse(keys) as string[]);
  return readRecord(Buffer.from(storedRecord(packed, shapes.map((_, i) => i))), (id) => shapes[id]!);
}

describe('packed person records', () => {
  it('read back as the very JSON the service sent, for any JSON', () => {
    expect(JSON.stringify(roundTrip(ada))).toBe(JSON.stringify(ada));
    // Keys a record could carry that an object's assignment would mistake: numbers first, as JSON.parse orders them.
    const odd = JSON.parse('{"b":1,"2":"two","__proto__":{"x":1},"":[-1,[-1]],"é":"\\u2028"}') as PersonJson;
    const back = roundTrip(odd);
    expect(JSON.stringify(back)).toBe(JSON.stringify(odd));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const person = { value } as PersonJson;
        expect(JSON.stringify(roundTrip(person))).toBe(JSON.stringify(person));
      }),
      { numRuns: 300 },
    );
  });

  it('name each key list once: a record with many jobs costs their values, not their keys again', () => {
    const packed = packRecord(ada);
    expect(packed.shapes.map((keys) => JSON.parse(keys))).toEqual([
      ['id', 'name', 'location_details', 'jobs', 'education', 'tags', 'verified'],
      ['locality', 'region', 'country'],
      ['title', 'started_at', 'ended_at', 'company'],
      ['id', 'name', 'employee_count'],
      [],
    ]);
    expect(packed.values).not.toContain('started_at');
    expect(Buffer.byteLength(storedRecord(packed, [1, 2, 3, 4, 5]))).toBeLessThan(Buffer.byteLength(JSON.stringify(ada)) * 0.8);
  });

  it('are stored with the folder\'s key lists, each once, and a rolled-back key list is never named', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const shapes = PersonShapes.of(db);
      const first = shapes.idsOf(packRecord(ada).shapes, new Set());
      expect(new Set(first).size).toBe(5);
      expect(shapes.idsOf(packRecord({ ...ada, name: 'Ada Byron' }).shapes, new Set())).toEqual(first);
      expect(db.prepare('SELECT count(*) FROM person_shapes').pluck().get()).toBe(5);

      // A key list added in a transaction that rolls back is taken back: the id it had is not named for it again.
      const lost = '["only","in","a","rollback"]';
      expect(() =>
        db.transaction(() => {
          shapes.idsOf([lost], new Set());
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      const other = shapes.idsOf(['["another"]'], new Set())[0]!;
      const again = shapes.idsOf([lost], new Set())[0]!;
      expect(again).not.toBe(other);
      expect(shapes.keysOf(other)).toEqual(['another']);
      expect(shapes.keysOf(again)).toEqual(['only', 'in', 'a', 'rollback']);
      expect(() => shapes.keysOf(999)).toThrow('key list 999');
    } finally {
      db.close();
    }
  });

  it('still read back when every record has keys of its own (more key lists than are held in memory)', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const answers = Array.from({ length: 1_100 }, (_, i) => {
        const candidates: Candidate[] = [{ rank: 1, score: null, person: { [`field_${i}`]: i, name: `Person ${i}` } }];
        return { queryId: storedQueryId(db, BigInt(i + 1), { fields: [] }), query: { fields: [] }, fetchedAt: 1, status: 'ok' as const, candidates, error: null, stored: answerPeople(candidates) };
      });
      putLookups(db, answers.slice(0, 600));
      putLookups(db, answers.slice(600));
      expect(db.prepare('SELECT count(*) FROM person_shapes').pluck().get()).toBe(1_100);
      const read = getLookups(db, answers.map((a) => a.queryId), 0);
      for (const a of answers) expect(read.get(a.queryId)?.candidates).toEqual(a.candidates);
    } finally {
      db.close();
    }
  });

  it('read whole in SQL too, beside records stored before as text', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const candidates: Candidate[] = [{ rank: 1, score: 0.9, person: ada }];
      const k = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId: k, query: { fields: [] }, fetchedAt: 1, status: 'ok', candidates, error: null, stored: answerPeople(candidates) }]);
      db.prepare("INSERT INTO people (facts_version, facts, person) VALUES (3, '[]', ?)").run(JSON.stringify({ name: 'Stored Before' }));
      expect(db.prepare('SELECT typeof(person) FROM people ORDER BY id').pluck().all()).toEqual(['blob', 'text']);
      const read = db.prepare(`SELECT ${recordSql('p')} FROM people AS p ORDER BY id`).pluck().all() as string[];
      expect(read.map(recordOf)).toEqual([ada, { name: 'Stored Before' }]);
      expect(getLookups(db, [k], 0).get(k)?.candidates).toEqual(candidates);
    } finally {
      db.close();
    }
  });
});
