import type { Database, Statement } from 'better-sqlite3';
import type { PersonJson } from '../../../shared/model';

/**
 * A person's record with its objects' keys taken out (migration 28): the keys were two fifths of a record, and the
 * same few key lists come back in every record. Made where the reply is read (the verdict worker), so the key lists
 * are numbered locally here; store/lookups.ts maps them to the folder's `person_shapes` ids as the record is stored.
 */
export interface PackedRecord {
  /** The record's values, JSON: an object as `[shape, ...its values]` (shape: an index into `shapes`), a list as `[-1, ...its items]`. */
  values: string;
  /** The key lists of the record's objects, each as JSON (`["id","name",...]`), in the order first met. */
  shapes: string[];
}

/** The record as packRecord packs it: `[[shape ids], values]`, stored as a BLOB, so it is never taken for a record stored whole (TEXT). */
export function packRecord(person: PersonJson): PackedRecord {
  const keyLists: string[][] = [];
  const shapes: string[] = [];
  const shapeOf = (keys: string[]): number => {
    for (let i = 0; i < keyLists.length; i++) if (sameKeys(keyLists[i]!, keys)) return i;
    keyLists.push(keys);
    return shapes.push(JSON.stringify(keys)) - 1;
  };
  const pack = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const list: unknown[] = [-1];
      for (const item of value) list.push(pack(item));
      return list;
    }
    const keys = Object.keys(value);
    const packed: unknown[] = [shapeOf(keys)];
    for (const key of keys) packed.push(pack((value as Record<string, unknown>)[key]));
    return packed;
  };
  return { values: JSON.stringify(pack(person)) ?? 'null', shapes };
}

/** The stored form of a packed record whose local shapes have these `person_shapes` ids. */
export function storedRecord(record: PackedRecord, shapeIds: readonly number[]): Buffer {
  return Buffer.from(`[${JSON.stringify(shapeIds)},${record.values}]`);
}

/**
 * A `people.person` value as the record it holds: JSON text stored whole (before migration 28), or a packed record
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
 * A `people` row's record (its row called `alias`) as self-contained JSON for recordOf: `{"person": ...}`, or a
 * packed record with every key list of the folder (a handful) beside it. For the rare reads in SQL that need a
 * record whole (facts made by another version).
 */
export function recordSql(alias: string): string {
  return `CASE WHEN typeof(${alias}.person) = 'text' THEN '{"person":' || ${alias}.person || '}'
    ELSE '{"packed":' || CAST(${alias}.person AS TEXT) || ',"shapes":' || (SELECT json_group_object(id, json(keys)) FROM person_shapes) || '}' END`;
}

/** The record recordSql read. Throws when it does not read. */
export function recordOf(json: string): PersonJson {
  const read = JSON.parse(json) as { person?: PersonJson; packed?: [number[], unknown]; shapes?: Record<string, string[]> };
  if (!read.packed) return read.person as PersonJson;
  const shapes = read.shapes ?? {};
  return readRecord(Buffer.from(JSON.stringify(read.packed)), (id) => shapes[id] ?? []);
}

/**
 * The folder's key lists (`person_shapes`) per connection: a shape's id by its keys as a record is stored, its keys
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

  /** The ids of these key lists (JSON), each added where the folder has none yet; in the caller's transaction. */
  idsOf(keyLists: readonly string[]): number[] {
    return keyLists.map((keys) => {
      const known = this.ids.get(keys);
      if (known !== undefined && this.keysById.get(known) === keys) return known;
      const id = (this.idByKeys.get(keys) as number | undefined) ?? Number(this.add.run(keys).lastInsertRowid);
      this.ids.set(keys, id);
      return id;
    });
  }

  /** The key list of shape `id`; throws when the folder has none. */
  keysOf(id: number): readonly string[] {
    const keys = this.keysById.get(id) as string | undefined;
    if (keys === undefined) throw new Error(`a packed record names key list ${id}, which is not stored`);
    let list = this.parsed.get(keys);
    if (!list) this.parsed.set(keys, (list = JSON.parse(keys) as string[]));
    return list;
  }
}

const byDatabase = new WeakMap<Database, PersonShapes>();

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
