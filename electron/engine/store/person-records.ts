import type { Database, Statement } from 'better-sqlite3';
import type { PersonJson } from '../../../shared/model';
import { unpack, type PackedRecord } from './packed-record';
import { BlockCache, recordLine, type ReadBlock } from './person-blocks';
import { statement } from './statements';

/**
 * A packed record as migration 29's code stored it in its `people` row, its local shapes given these `person_shapes`
 * ids (as text, made a BLOB by `CAST(? AS BLOB)`). Nothing is stored so since migration 30: for tests that make a
 * folder of that time.
 */
export function storedRecord(record: PackedRecord, shapeIds: readonly number[]): string {
  return `[${JSON.stringify(shapeIds)},${record.values}]`;
}

/**
 * A `people.person` value as the record it holds: JSON text stored whole (before migration 29), or a packed record
 * read with `keysOf` (a shape id's key list). Throws when it does not read.
 */
export function readRecord(stored: string | Buffer, keysOf: (shapeId: number) => readonly string[]): PersonJson {
  if (typeof stored === 'string') return JSON.parse(stored) as PersonJson;
  const [ids, values] = JSON.parse(stored.toString('utf8')) as [number[], unknown];
  return unpack(values, ids.map(keysOf)) as PersonJson;
}

/**
 * The record of person `id`, however it is stored: JSON text (before migration 29), packed in its `people` row (before
 * migration 30), or in a block (store/person-blocks.ts). Every read of a record whole comes here. Throws, naming the
 * person, when it is not stored or does not read.
 */
export function personRecord(db: Database, id: number): PersonJson {
  const row = statement(db, 'SELECT person, block, position FROM people WHERE id = ?').get(id) as { person: string | Buffer; block: number | null; position: number | null } | undefined;
  if (row === undefined) throw new Error(`Person ${id} is not stored.`);
  const { person, block, position } = row;
  return block === null ? readRecord(person, (shape) => PersonShapes.of(db).keysOf(shape)) : blockRecord(db, id, block, position ?? -1);
}

/** Person `id`'s record, at `position` of `block`. Throws, naming the person, when it does not read. */
function blockRecord(db: Database, id: number, block: number, position: number): PersonJson {
  try {
    return blockRecordAt(BlockCache.of(db).read(db, block), position);
  } catch (error) {
    throw new Error(`The stored record of person ${id} does not read (block ${block}: ${error instanceof Error ? error.message : String(error)}); their facts still read, but the record as the service sent it is lost.`, { cause: error });
  }
}

/** The record at `position` of a block read back. Throws when there is none, or it does not read. */
export function blockRecordAt(read: ReadBlock, position: number): PersonJson {
  const [ids, values] = JSON.parse(recordLine(read, position)) as [number[], unknown];
  return unpack(values, ids.map((shape) => read.shapes[shape] ?? [])) as PersonJson;
}

/**
 * A `people` row's record (its row called `alias`) as self-contained JSON for recordOf: `{"person": ...}`, or a
 * packed record with the key lists it names beside it. For the rare reads in SQL that need a record whole (facts
 * made by another version). NULL for a record in a block, which SQL cannot read: its facts are always of the
 * version that stored it (matching/candidate-facts.ts FACTS_VERSION says what changing it takes).
 */
export function recordSql(alias: string): string {
  const packed = `CAST(${alias}.person AS TEXT)`;
  const shapes = `(SELECT json_group_object(s.id, json(s.keys)) FROM json_each(${packed}, '$[0]') AS h JOIN person_shapes AS s ON s.id = h.value)`;
  return `CASE WHEN typeof(${alias}.person) = 'text' THEN '{"person":' || ${alias}.person || '}'
    WHEN ${alias}.block IS NOT NULL THEN NULL
    ELSE '{"packed":' || ${packed} || ',"shapes":' || coalesce(${shapes}, '{}') || '}' END`;
}

/** The record recordSql read. Throws when it does not read. */
export function recordOf(json: string): PersonJson {
  const read = JSON.parse(json) as { person?: PersonJson; packed?: [number[], unknown]; shapes?: Record<string, string[]> };
  if (!read.packed) return read.person as PersonJson;
  const shapes = read.shapes ?? {};
  return unpack(read.packed[1], read.packed[0].map((id) => shapes[id] ?? [])) as PersonJson;
}

/**
 * The folder's key lists (`person_shapes`) per connection, for the records packed in their `people` rows before
 * migration 30: a shape's id by its keys as a record was stored (idsOf: tests make such folders with it), its keys
 * by id as one is read. What is held in memory is only a guess checked against the table by id (a rolled-back write
 * may have taken an id back, or another process given it again), and the keys parsed once.
 */
export class PersonShapes {
  private readonly ids = new Map<string, number>();
  private readonly parsed = new Map<string, readonly string[]>();
  private readonly keysById: Statement;
  private readonly idByKeys: Statement;
  private readonly add: Statement;

  private constructor(db: Database) {
    this.keysById = db.prepare('SELECT keys FROM person_shapes WHERE id = ?').pluck();
    this.idByKeys = db.prepare('SELECT id FROM person_shapes WHERE keys = ?').pluck();
    this.add = db.prepare('INSERT INTO person_shapes (keys) VALUES (?)');
  }

  static of(db: Database): PersonShapes {
    let shapes = byDatabase.get(db);
    if (!shapes) byDatabase.set(db, (shapes = new PersonShapes(db)));
    return shapes;
  }

  /**
   * The ids of these key lists (JSON), each added where the folder has none yet, in the caller's transaction.
   * `checked` holds the key lists already found in the folder in that transaction: each is checked once a
   * transaction, not once a record.
   */
  idsOf(keyLists: readonly string[], checked: Set<string>): number[] {
    return keyLists.map((keys) => {
      const known = this.ids.get(keys);
      if (known !== undefined && (checked.has(keys) || this.keysById.get(known) === keys)) {
        checked.add(keys);
        return known;
      }
      const id = (this.idByKeys.get(keys) as number | undefined) ?? Number(this.add.run(keys).lastInsertRowid);
      if (this.ids.size >= MAX_HELD) this.ids.clear();
      this.ids.set(keys, id);
      checked.add(keys);
      return id;
    });
  }

  /** The key list of shape `id`; throws when the folder has none. */
  keysOf(id: number): readonly string[] {
    const keys = this.keysById.get(id) as string | undefined;
    if (keys === undefined) throw new Error(`a packed record names key list ${id}, which is not stored`);
    let list = this.parsed.get(keys);
    if (!list) {
      if (this.parsed.size >= MAX_HELD) this.parsed.clear();
      this.parsed.set(keys, (list = JSON.parse(keys) as string[]));
    }
    return list;
  }
}

const byDatabase = new WeakMap<Database, PersonShapes>();

/** Key lists held in memory at most: a service whose records each had keys of their own would otherwise fill it. */
const MAX_HELD = 1_000;
