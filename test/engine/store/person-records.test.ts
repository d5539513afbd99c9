import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MalformedReplyError } from '../../../electron/engine/api';
import { answerPeople } from '../../../electron/engine/matching';
import { packRecord } from '../../../electron/engine/store/packed-record';
import { PersonShapes, blockRecordAt, personRecord, readRecord, recordOf, recordSql, storedRecord } from '../../../electron/engine/store/person-records';
import { blockNewPeople, readBlock, recordBlocks } from '../../../electron/engine/store/person-blocks';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { preparedReply } from '../../../electron/engine/runs/row-verdict';
import { getLookups, openDatabase, putLookups, type Database } from '../../../electron/engine/store';
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

  it("refuse a record nesting deeper than a person's could, as the reply's fault, where it is read", () => {
    const nested = (depth: number) => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    // The person is one level: 63 more are read back whole, 64 more refused, and 100,000 (which overflowed the stack).
    expect(roundTrip({ ...ada, location: nested(63) })).toEqual({ ...ada, location: nested(63) });
    for (const depth of [64, 100_000]) {
      // Written as text: a value this deep is beyond JSON.stringify too.
      for (const location of [`${'['.repeat(depth)}1${']'.repeat(depth)}`, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`]) {
        const read = () =>
          preparedReply({
            bytes: Buffer.from(`[{"people":[{"id":"p_9","full_name":"Deep Person","location":${location}}]}]`),
            strategies: ['name'],
            cells: [[JSON.stringify(['Deep Person'])]],
            context: { mapping: { fullName: 0 }, rule: { enabled: true, minConfidence: 0.95, minLead: 0.5 }, at: new Date(1).toISOString() },
          });
        expect(read).toThrow(MalformedReplyError);
        expect(read).toThrow('The service sent a reply Matchdesk cannot read: a person record nests objects and lists more than 64 levels deep.');
      }
    }
  });

  it('give an object the key list of its own keys in their order, not one met before with the same keys in another order, fewer or more', () => {
    for (const keys of [['a', 'b'], ['b', 'a'], ['a'], ['a', 'b', 'c'], ['a', 'b']]) {
      const person = Object.fromEntries(keys.map((key, i) => [key, i])) as PersonJson;
      const packed = packRecord(person);
      expect(packed.shapes).toEqual([JSON.stringify(keys)]);
      expect(JSON.stringify(roundTrip(person))).toBe(JSON.stringify(person));
    }
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
      // A block names its own key lists; one holds at most 500 records.
      expect(db.prepare('SELECT count(*) FROM person_shapes').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(3);
      const read = getLookups(db, answers.map((a) => a.queryId), 0);
      for (const a of answers) expect(read.get(a.queryId)?.candidates).toEqual(a.candidates);
    } finally {
      db.close();
    }
  });

  it('read whole, in a block beside records stored before as text or packed in their row', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const candidates: Candidate[] = [{ rank: 1, score: 0.9, person: ada }];
      const k = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId: k, query: { fields: [] }, fetchedAt: 1, status: 'ok', candidates, error: null, stored: answerPeople(candidates) }]);
      db.prepare("INSERT INTO people (facts_version, facts, person) VALUES (3, '[]', ?)").run(JSON.stringify({ name: 'Stored Before' }));
      const packed = packRecord({ name: 'Packed Before', jobs: [{ title: 'Clerk' }] });
      db.prepare("INSERT INTO people (facts_version, facts, person) VALUES (3, '[]', CAST(? AS BLOB))").run(storedRecord(packed, PersonShapes.of(db).idsOf(packed.shapes, new Set())));
      expect(db.prepare('SELECT typeof(person), length(person), block FROM people ORDER BY id').raw().all()).toEqual([
        ['blob', 0, 1],
        ['text', 24, null],
        ['blob', expect.any(Number), null],
      ]);
      // SQL reads the records stored before; one in a block is read by personRecord alone.
      const read = db.prepare(`SELECT ${recordSql('p')} FROM people AS p ORDER BY id`).pluck().all() as (string | null)[];
      expect(read.map((r) => (r === null ? null : recordOf(r)))).toEqual([null, { name: 'Stored Before' }, { name: 'Packed Before', jobs: [{ title: 'Clerk' }] }]);
      expect([1, 2, 3].map((id) => personRecord(db, id))).toEqual([ada, { name: 'Stored Before' }, { name: 'Packed Before', jobs: [{ title: 'Clerk' }] }]);
      expect(getLookups(db, [k], 0).get(k)?.candidates).toEqual(candidates);
    } finally {
      db.close();
    }
  });
});

/** People as a reply's reading makes them, for putLookups. */
function answers(db: Database, records: PersonJson[][], from = 0) {
  return records.map((people, i) => {
    const candidates: Candidate[] = people.map((person, rank) => ({ rank: rank + 1, score: null, person }));
    const queryId = storedQueryId(db, BigInt(from + i + 1), { fields: [] });
    return { queryId, query: { fields: [] }, fetchedAt: 1, status: 'ok' as const, candidates, error: null, stored: answerPeople(candidates) };
  });
}

const person = (i: number): PersonJson => ({ id: `p_${i}`, name: `Person ${i}`, jobs: [{ title: 'Engineer', company: { id: `c_${i % 7}`, name: `Company ${i % 7}` } }] });

describe("people's records in blocks", () => {
  it('read back as the very JSON the service sent, for any records, however many a block holds', () => {
    const odd = JSON.parse('{"b":1,"2":"two","__proto__":{"x":1},"":[-1,[-1]],"é":"\\u2028","new\\nline":"a\\nb\\r"}') as PersonJson;
    const records = [ada, odd, ...Array.from({ length: 1_200 }, (_, i) => person(i))];
    const blocks = recordBlocks(records.map(packRecord));
    expect(blocks.map((b) => b.records)).toEqual([500, 500, 202]);
    const back = blocks.flatMap(({ block, records: count }) => Array.from({ length: count }, (_, i) => blockRecordAt(readBlock(block.data), i)));
    expect(back.map((r) => JSON.stringify(r))).toEqual(records.map((r) => JSON.stringify(r)));
    expect(Object.getPrototypeOf(back[1])).toBe(Object.prototype);
    // Each block's bytes in a buffer of their own: a structured clone (the verdict worker sends blocks) copies a
    // view's whole buffer, and zlib hands a short result back as a view of its 64 kB chunk.
    for (const { block } of [...blocks, ...recordBlocks([ada].map(packRecord))]) expect(block.data.buffer.byteLength).toBe(block.data.length);
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 12 }), (values) => {
        const people = values.map((value, i) => (i % 2 === 0 ? ({ value } as PersonJson) : ({ id: i, nested: { value, list: [value] } } as PersonJson)));
        const read = readBlock(recordBlocks(people.map(packRecord))[0]!.block.data);
        people.forEach((p, i) => expect(JSON.stringify(blockRecordAt(read, i))).toBe(JSON.stringify(p)));
      }),
      { numRuns: 300 },
    );
  });

  it('are the text their digests were always made of, each line its shape ids and the values the digest hashed, in UTF-8', () => {
    // As the digest and the block were made before they shared the record's bytes: folders stored then find the same people.
    const digestOf = (p: PersonJson) => {
      const { shapes, values } = packRecord(p);
      return createHash('sha256').update(`[[${shapes.join(',')}],${values}]`).digest().readBigInt64BE(0);
    };
    const textOf = (people: PersonJson[]) => {
      const records = people.map(packRecord);
      const ids = new Map<string, number>();
      const lines = records.map(({ shapes, values }) => `[[${shapes.map((k) => ids.get(k) ?? ids.set(k, ids.size).get(k)!).join(',')}],${values}]`);
      return [`[${[...ids.keys()].join(',')}]`, ...lines].join('\n');
    };
    const odd = { é: 'Łódź 😀', ключ: ['\u2028', { 日本: '東京' }], a: 'x\\"' } as PersonJson;
    const people = [ada, odd, person(1), { ...odd, a: 'ÿ' } as PersonJson];
    expect(answerPeople(people.map((p, i) => ({ rank: i + 1, score: null, person: p }))).people.map((p) => p.digest)).toEqual(people.map(digestOf));
    expect(zstdDecompressSync(recordBlocks(people.map(packRecord))[0]!.block.data).toString('utf8')).toBe(textOf(people));
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 8 }), (values) => {
        const some = values.map((value, i) => ({ [`k${i % 3}é`]: value, list: [value] }) as PersonJson);
        expect(answerPeople(some.slice(0, 5).map((p, i) => ({ rank: i + 1, score: null, person: p }))).people.map((p) => p.digest)).toEqual(some.slice(0, 5).map(digestOf));
        expect(zstdDecompressSync(recordBlocks(some.map(packRecord))[0]!.block.data).toString('utf8')).toBe(textOf(some));
      }),
      { numRuns: 200 },
    );
  });

  it("are stored in the block their reply's reading made, each person once, and in one made on storing for the rest", () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      // A reply whose answers share people: its reading blocks each new person once.
      const first = answers(db, [[person(1), person(2)], [person(2), person(3)], [person(1)]]);
      blockNewPeople(first.flatMap((a) => a.stored.people));
      const block = first[0]!.stored.people[0]!.inBlock!.block;
      expect(block.count).toBe(3);
      expect(first[1]!.stored.people[0]!.inBlock).toEqual(first[0]!.stored.people[1]!.inBlock);
      putLookups(db, first);
      expect(db.prepare('SELECT id, block, position FROM people ORDER BY id').raw().all()).toEqual([[1, 1, 0], [2, 1, 1], [3, 1, 2]]);
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(1);

      // The next reply's reading leaves out the people it blocked before; the one new person goes into its block.
      const second = answers(db, [[person(3), person(4)]], 10);
      blockNewPeople(second.flatMap((a) => a.stored.people));
      expect(second[0]!.stored.people[0]!.inBlock).toBeUndefined();
      expect(second[0]!.stored.people[1]!.inBlock?.block.count).toBe(1);
      putLookups(db, second);
      expect(db.prepare('SELECT block, position FROM people WHERE id = 4').raw().get()).toEqual([2, 0]);

      // A reply's block mostly of people stored already (made by another thread, or before its commit failed) is not
      // stored: its new people go into a block made on storing, as do the new people the reading left out.
      const third = answers(db, [[person(1), person(2), person(3), person(5)]], 20);
      for (const p of third[0]!.stored.people) p.inBlock = { block: { data: new Uint8Array([1, 2, 3]), count: 4 }, position: 0 };
      const fourth = answers(db, [[person(6)]], 30);
      putLookups(db, [...third, ...fourth]);
      expect(db.prepare('SELECT id, block, position FROM people WHERE id > 4 ORDER BY id').raw().all()).toEqual([[5, 3, 0], [6, 3, 1]]);
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(3);

      const read = getLookups(db, [...first, ...second, ...third, ...fourth].map((a) => a.queryId), 0);
      for (const a of [...first, ...second, ...third, ...fourth]) expect(read.get(a.queryId)?.candidates).toEqual(a.candidates);
    } finally {
      db.close();
    }
  });

  it("store a person their reply's reading sent without a record from the reading's block, when that block is not kept", () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      // Three people stored by another reading (here: none, the engine blocked them on storing).
      putLookups(db, answers(db, [[person(40), person(41), person(42)]], 100));
      const odd = JSON.parse('{"b":1,"2":"two","__proto__":{"x":1},"":[-1,[-1]],"é":"\\u2028","new\\nline":"a\\nb\\r","jobs":[]}') as PersonJson;
      const reply = [[person(40), odd, person(41), person(42)]];
      const prepared = preparedReply({
        bytes: Buffer.from(JSON.stringify(reply)),
        strategies: ['name'],
        cells: [[JSON.stringify(['Person 40'])]],
        context: { mapping: { fullName: 0 }, rule: { enabled: true, minConfidence: 0.95, minLead: 0.5 }, at: new Date(1).toISOString() },
      });
      // This thread's reading blocks all four (it had blocked none of them) and sends none of their records.
      const sent = prepared.stored[0]!;
      expect(sent.people.map((p) => [p.record, p.inBlock?.block.count, p.inBlock?.position])).toEqual([0, 1, 2, 3].map((i) => [undefined, 4, i]));
      expect(prepared.values[0]).toHaveLength(1);

      // Three of its four are stored: the block is not kept, and the new person goes into one made on storing, their
      // record taken from the reading's block.
      const queryId = storedQueryId(db, 200n, { fields: [] });
      putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1, status: 'ok', candidates: null, error: null, stored: sent }]);
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(2);
      expect(db.prepare('SELECT id, block, position FROM people WHERE id > 3').raw().all()).toEqual([[4, 2, 0]]);
      const read = getLookups(db, [queryId], 0).get(queryId)?.candidates?.map((c) => c.person);
      expect(JSON.stringify(read)).toBe(JSON.stringify(reply[0]));
      expect(personRecord(db, 4)).toEqual(odd);
    } finally {
      db.close();
    }
  });

  it('say which person a damaged block holds, and leave the rest readable', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const stored = answers(db, [[person(1), person(2)]]);
      putLookups(db, stored);
      const later = answers(db, [[person(3)]], 10);
      putLookups(db, later);
      const data = db.prepare('SELECT data FROM person_blocks WHERE id = 1').pluck().get() as Buffer;
      // Bytes flipped past the frame's header: zstd's checksum, or its decoding, finds them.
      const damaged = Buffer.from(data);
      for (let i = 8; i < damaged.length; i++) damaged[i] = damaged[i]! ^ 0x5a;
      db.prepare('UPDATE person_blocks SET data = ? WHERE id = 1').run(damaged);
      expect(() => personRecord(db, 2)).toThrow(/^The stored record of person 2 does not read \(block 1: its compressed data is damaged \(.+\)\); their facts still read, but the record as the service sent it is lost\.$/);
      db.prepare("UPDATE person_blocks SET data = x'' WHERE id = 1").run();
      expect(() => personRecord(db, 1)).toThrow(/person 1 does not read \(block 1: its compressed data is damaged/);
      db.prepare('UPDATE people SET position = 7 WHERE id = 3').run();
      expect(() => personRecord(db, 3)).toThrow('The stored record of person 3 does not read (block 2: it holds no record 7); their facts still read, but the record as the service sent it is lost.');
      db.prepare('UPDATE people SET position = 0 WHERE id = 3').run();
      expect(() => personRecord(db, 99)).toThrow('Person 99 is not stored.');

      // Reading answers: the damaged one is a miss (a run asks for it again), the other reads.
      const read = getLookups(db, [stored[0]!.queryId, later[0]!.queryId], 0);
      expect([...read.keys()]).toEqual([later[0]!.queryId]);
    } finally {
      db.close();
    }
  });
});
