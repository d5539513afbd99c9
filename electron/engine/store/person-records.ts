import type { Database, Statement } from 'better-sqlite3';
import type { PersonJson } from '../../../shared/model';
import { BlockCache, recordLine, type ReadBlock } from './person-blocks';
import { statement } from './statements';

/**
 * A person's record with its objects' keys taken out (migration 29): the keys were over a third of a record, and
 * the same few key lists come back in every record. Made where the reply is read (the verdict worker), so the key lists
 * are numbered locally here; a block of records (store/person-blocks.ts) numbers them again among its own.
 */
export interface PackedRecord {
  /** The record's values, JSON: an object as `[shape, ...its values]` (shape: an index into `shapes`), a list as `[-1, ...its items]`. */
  values: string;
  /** The key lists of the record's objects, each as JSON (`["id","name",...]`), in the order first met. */
  shapes: string[];
  /** recordBytes, once made: the digest and the block are made of the same bytes. */
  bytes?: RecordBytes;
}

/** A packed record as one text, `[[key lists],values]`, in UTF-8: what its digest hashes. */
export interface RecordBytes {
  utf8: Uint8Array;
  /** Where its values begin: from there on it is the end of the record's line in a block (`values]`). */
  valuesAt: number;
}

/**
 * The record's text in UTF-8, encoded once for its digest and its block (store/person-blocks.ts), each piece written
 * straight into the buffer: the text joined first made a copy of it, twice that when it holds a letter beyond Latin-1.
 */
export function recordBytes(record: PackedRecord): RecordBytes {
  if (record.bytes) return record.bytes;
  const { shapes, values } = record;
  // `[[`, the key lists between commas, `],`: written piece by piece, not joined into a text first.
  let valuesAt = 2 + Math.max(shapes.length - 1, 0) + 2;
  for (const keys of shapes) valuesAt += Buffer.byteLength(keys);
  const utf8 = Buffer.allocUnsafe(valuesAt + Buffer.byteLength(values) + 1);
  utf8[0] = OPEN;
  utf8[1] = OPEN;
  let at = 2;
  for (let i = 0; i < shapes.length; i++) {
    if (i > 0) utf8[at++] = COMMA;
    at += utf8.write(shapes[i]!, at);
  }
  utf8[at++] = CLOSE;
  utf8[at++] = COMMA;
  // Every byte is written (the buffer is not cleared first): none of another allocation's may be hashed or stored.
  if (at !== valuesAt || at + utf8.write(values, at) !== utf8.length - 1) throw new Error('a packed record was not encoded whole');
  utf8[utf8.length - 1] = CLOSE;
  return (record.bytes = { utf8, valuesAt });
}

const OPEN = '['.charCodeAt(0);
const CLOSE = ']'.charCodeAt(0);
const COMMA = ','.charCodeAt(0);

/** A record packed (PackedRecord), stored as `[[shape ids], values]` in a block (before migration 30, as a BLOB in its `people` row). */
export function packRecord(person: PersonJson): PackedRecord {
  const packing: Packing = { local: [], shapes: [] };
  return { values: JSON.stringify(pack(person, packing)) ?? 'null', shapes: packing.shapes };
}

interface Packing {
  /** The key lists met in this record, by local index. */
  local: KeyList[];
  /** Their JSON, by local index. */
  shapes: string[];
}

interface KeyList {
  keys: string[];
  json: string;
}

function pack(value: unknown, packing: Packing): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const list: unknown[] = new Array(value.length + 1);
    list[0] = -1;
    for (let i = 0; i < value.length; i++) list[i + 1] = pack(value[i], packing);
    return list;
  }
  const shape = localShape(value, packing);
  const { keys } = packing.local[shape]!;
  const packed: unknown[] = new Array(keys.length + 1);
  packed[0] = shape;
  for (let i = 0; i < keys.length; i++) packed[i + 1] = pack((value as Record<string, unknown>)[keys[i]!], packing);
  return packed;
}

/** Key lists met before, in this thread: a record's few are found without making their JSON again. */
const knownKeyLists: KeyList[] = [];
const MAX_KNOWN_KEY_LISTS = 64;

/** The local index of the object's key list, added to the record's when it is new there. */
function localShape(value: object, packing: Packing): number {
  const { local } = packing;
  for (let i = 0; i < local.length; i++) if (hasKeys(value, local[i]!.keys)) return i;
  let known: KeyList | undefined;
  for (let i = 0; i < knownKeyLists.length && !known; i++) if (hasKeys(value, knownKeyLists[i]!.keys)) known = knownKeyLists[i];
  if (!known) {
    const keys = Object.keys(value);
    known = { keys, json: JSON.stringify(keys) };
    if (knownKeyLists.length < MAX_KNOWN_KEY_LISTS) knownKeyLists.push(known);
  }
  local.push(known);
  return packing.shapes.push(known.json) - 1;
}

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

function unpack(value: unknown, shapes: readonly (readonly string[])[]): unknown {
  if (!Array.isArray(value)) return value;
  if (value[0] === -1) {
    const list: unknown[] = [];
    for (let i = 1; i < value.length; i++) list.push(unpack(value[i], shapes));
    return list;
  }
  const keys = shapes[value[0] as number];
  if (!keys || keys.length !== value.length - 1) throw new Error('a packed record does not match its key lists');
  const record: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    // JSON.parse makes "__proto__" an own key; an assignment would set the prototype instead.
    if (key === '__proto__') Object.defineProperty(record, key, { value: unpack(value[i + 1], shapes), enumerable: true, writable: true, configurable: true });
    else record[key] = unpack(value[i + 1], shapes);
  }
  return record;
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

/**
 * Whether the object's keys are these, in this order: read by for-in, which walks a parsed object's keys without
 * making the list Object.keys makes for every object. It also walks inherited enumerable keys, which a parsed object
 * has none of; an object that had some would match no list Object.keys made, and be given its own.
 */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (keys[i++] !== key) return false;
  return i === keys.length;
}
