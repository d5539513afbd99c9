import type { PersonJson } from '../../../shared/model';

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

/**
 * Levels of objects and lists a record may nest: a real one nests three or four (the person, their jobs, a job). A
 * reply whose record nests 100,000 deep parses, and then overflowed the stack of every function that walks it.
 */
export const MAX_RECORD_DEPTH = 64;

/** A record nesting deeper than MAX_RECORD_DEPTH: the service's fault, which its reader says as such. */
export class RecordTooDeep extends Error {
  constructor() {
    super(`a person record nests objects and lists more than ${MAX_RECORD_DEPTH} levels deep`);
    this.name = 'RecordTooDeep';
  }
}

/**
 * A record packed (PackedRecord), stored as `[[shape ids], values]` in a block (before migration 30, as a BLOB in its
 * `people` row). Throws RecordTooDeep for a record nesting deeper than MAX_RECORD_DEPTH.
 */
export function packRecord(person: PersonJson): PackedRecord {
  const packing: Packing = { local: [], shapes: [] };
  return { values: JSON.stringify(pack(person, packing, 0)) ?? 'null', shapes: packing.shapes };
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

function pack(value: unknown, packing: Packing, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth === MAX_RECORD_DEPTH) throw new RecordTooDeep();
  if (Array.isArray(value)) {
    const list: unknown[] = new Array(value.length + 1);
    list[0] = -1;
    for (let i = 0; i < value.length; i++) list[i + 1] = pack(value[i], packing, depth + 1);
    return list;
  }
  const shape = localShape(value, packing);
  const { keys } = packing.local[shape]!;
  const packed: unknown[] = new Array(keys.length + 1);
  packed[0] = shape;
  for (let i = 0; i < keys.length; i++) packed[i + 1] = pack((value as Record<string, unknown>)[keys[i]!], packing, depth + 1);
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

/** A packed record's values (PackedRecord) as the record, each object's keys from `shapes` by its shape index. */
export function unpack(value: unknown, shapes: readonly (readonly string[])[]): unknown {
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
 * Whether the object's keys are these, in this order: read by for-in, which walks a parsed object's keys without
 * making the list Object.keys makes for every object. It also walks inherited enumerable keys, which a parsed object
 * has none of; an object that had some would match no list Object.keys made, and be given its own.
 */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (keys[i++] !== key) return false;
  return i === keys.length;
}
