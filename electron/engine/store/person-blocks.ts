import type { Database, Statement } from 'better-sqlite3';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { DigestMap } from './digest-map';
import { recordBytes, type PackedRecord } from './packed-record';

/**
 * Packed records compressed together (migration 30): a record alone compressed poorly and each call's setup cost more
 * than the record, while the new people of one find reply, about a hundred records that share names, companies and
 * key lists, compress to a fraction together. Uncompressed, a block is lines of text: its key lists (JSON, each
 * record's shape ids index them), then one line per record, `[[shape ids], values]` (JSON never holds a raw newline).
 */
export interface RecordBlock {
  /** The lines, zstd-compressed (level 1: level 6 was an eighth smaller for twice the time). */
  data: Uint8Array;
  /** How many records it holds. */
  count: number;
}

/** Where a new person's record is in a block made beside it (the verdict worker makes one for each reply it reads). */
export interface InBlock {
  block: RecordBlock;
  position: number;
}

/** Records a block holds at most: a reply's people (100 queries x 5). */
const MAX_BLOCK_RECORDS = 500;
/** Characters of records a block holds before another is begun: the bytes a find reply may hold (api/reply-limits.ts). */
const MAX_BLOCK_CHARS = 32 * 1024 * 1024;

/** The records compressed into blocks, in order: one unless there are more than a block holds. */
export function recordBlocks(records: readonly PackedRecord[]): { block: RecordBlock; records: number }[] {
  const blocks: { block: RecordBlock; records: number }[] = [];
  let from = 0;
  let chars = 0;
  for (let i = 0; i < records.length; i++) {
    chars += records[i]!.values.length;
    const last = i === records.length - 1;
    if (last || i + 1 - from >= MAX_BLOCK_RECORDS || chars >= MAX_BLOCK_CHARS) {
      blocks.push({ block: recordBlock(records.slice(from, i + 1)), records: i + 1 - from });
      from = i + 1;
      chars = 0;
    }
  }
  return blocks;
}

function recordBlock(records: readonly PackedRecord[]): RecordBlock {
  const shapeIds = new Map<string, number>();
  // Each record's line is its shape ids, then the end of its text as its digest was made of (recordBytes), copied.
  const heads: string[] = [];
  let size = 0;
  for (const record of records) {
    const ids = record.shapes.map((keys) => {
      let id = shapeIds.get(keys);
      if (id === undefined) shapeIds.set(keys, (id = shapeIds.size));
      return id;
    });
    const head = `\n[[${ids.join(',')}],`;
    const { utf8, valuesAt } = recordBytes(record);
    heads.push(head);
    size += head.length + utf8.length - valuesAt;
  }
  const keyLists = `[${[...shapeIds.keys()].join(',')}]`;
  const text = Buffer.allocUnsafe(Buffer.byteLength(keyLists) + size);
  let at = text.write(keyLists, 0);
  for (let i = 0; i < records.length; i++) {
    // A head is ASCII: digits, brackets, commas.
    at += text.write(heads[i]!, at, 'latin1');
    const { utf8, valuesAt } = recordBytes(records[i]!);
    text.set(utf8.subarray(valuesAt), at);
    at += utf8.length - valuesAt;
  }
  // The buffer is not cleared first: a byte left unwritten would store another allocation's.
  if (at !== text.length) throw new Error('a block of records was not written whole');
  return { data: ownBuffer(compressedBlock(text)), count: records.length };
}

/** A block's lines compressed as the store keeps them (bench/storage-floor.ts --blocks compresses its blocks so too). */
export function compressedBlock(text: string | Uint8Array): Buffer {
  return zstdCompressSync(text, { params: { [constants.ZSTD_c_compressionLevel]: 1 } });
}

/**
 * `bytes` in a buffer of their own. zlib hands a short result back as a view of its 64 kB output chunk: sent to the
 * engine's thread (a structured clone copies a view's whole buffer), each reply's block crossed as 64 kB, not 16.
 */
function ownBuffer(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** A block read back: its key lists, and its records' lines (the key lists' line first). */
export interface ReadBlock {
  shapes: readonly (readonly string[])[];
  lines: readonly string[];
}

/** A block's data read back; throws (saying what is wrong) when it does not read. */
export function readBlock(data: Uint8Array): ReadBlock {
  let text: string;
  try {
    // Well past the most a block is made with (its characters at up to 3 bytes each, and the record that crossed the
    // mark): damaged data that claims more is refused before it is made.
    text = zstdDecompressSync(data, { maxOutputLength: 8 * MAX_BLOCK_CHARS }).toString('utf8');
  } catch (error) {
    throw new Error(`its compressed data is damaged (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const lines = text.split('\n');
  const shapes = JSON.parse(lines[0]!) as unknown;
  if (!Array.isArray(shapes) || !shapes.every((keys) => Array.isArray(keys))) throw new Error('its key lists do not read');
  return { shapes: shapes as string[][], lines };
}

/** The line of the record at `position` of a block read back (`[[shape ids],values]`). Throws when there is none. */
export function recordLine(read: ReadBlock, position: number): string {
  const line = position >= 0 ? read.lines[position + 1] : undefined;
  if (line === undefined) throw new Error(`it holds no record ${position}`);
  return line;
}

/** The packed record at `position` of a block, as recordBlock took it (its key lists as JSON, in the record's order). */
export function packedRecordAt(read: ReadBlock, position: number): PackedRecord {
  const line = recordLine(read, position);
  // `[[shape ids],values]`: the ids are numbers, so the first "]," ends them.
  const end = line.indexOf('],');
  const ids = JSON.parse(line.slice(1, end + 1)) as number[];
  return { values: line.slice(end + 2, -1), shapes: ids.map((id) => JSON.stringify(read.shapes[id])) };
}

/**
 * The blocks read lately, per connection: the review reads neighbouring rows, whose people mostly came in the same
 * replies. A block's id is never given again (the largest block is emptied, never deleted: store/lookups.ts
 * clearCache) and a block never changes but for that emptying of one nothing names, so what is held stays true; a block
 * read inside a transaction is not held, as that transaction may yet be rolled back and its id given again.
 */
export class BlockCache {
  private readonly held = new Map<number, ReadBlock>();
  private readonly dataOf: Statement;

  private constructor(db: Database) {
    this.dataOf = db.prepare('SELECT data FROM person_blocks WHERE id = ?').pluck();
  }

  static of(db: Database): BlockCache {
    let cache = byDatabase.get(db);
    if (!cache) byDatabase.set(db, (cache = new BlockCache(db)));
    return cache;
  }

  /** Block `id` read back; throws when it is not stored or does not read. */
  read(db: Database, id: number): ReadBlock {
    const held = this.held.get(id);
    if (held) {
      // Most recently used last.
      this.held.delete(id);
      this.held.set(id, held);
      return held;
    }
    const stored = this.dataOf.get(id) as Buffer | undefined;
    if (stored === undefined) throw new Error('it is not stored');
    const read = readBlock(stored);
    if (!db.inTransaction) {
      if (this.held.size >= BLOCKS_HELD) this.held.delete(this.held.keys().next().value!);
      this.held.set(id, read);
    }
    return read;
  }
}

/** Blocks held per connection: a review page's candidates, a few hundred kB. */
const BLOCKS_HELD = 16;

const byDatabase = new WeakMap<Database, BlockCache>();

/** A person version as a reply's reading makes it: found by its digest, its record packed, put in a block here. */
interface BlockedPerson {
  digest: bigint;
  record: PackedRecord;
  inBlock?: InBlock;
}

/**
 * Puts the records of these people (a reply's, in order) into blocks, each once: every person not put in a block by
 * this thread before. The engine's thread stores a block with the people it finds new in it (store/lookups.ts), or
 * makes one of its own for those it finds new outside any (put in a block before, whose commit then failed): so
 * compressing is the reading thread's work (the verdict worker's), and the run's thread only writes.
 */
export function blockNewPeople(people: Iterable<BlockedPerson>): void {
  const positions = new Map<bigint, number>();
  const records: PackedRecord[] = [];
  const placed: [BlockedPerson, number][] = [];
  for (const person of people) {
    let at = positions.get(person.digest);
    if (at === undefined) {
      if (blocked.get(person.digest) !== undefined) continue;
      positions.set(person.digest, (at = records.length));
      records.push(person.record);
    }
    placed.push([person, at]);
  }
  if (records.length === 0) return;
  const starts: { block: RecordBlock; from: number }[] = [];
  let from = 0;
  for (const { block, records: count } of recordBlocks(records)) {
    starts.push({ block, from });
    from += count;
  }
  for (const [person, at] of placed) {
    const { block, from: first } = starts.findLast((s) => s.from <= at)!;
    person.inBlock = { block, position: at - first };
  }
  if (blocked.size + positions.size > MAX_BLOCKED) blocked.clear();
  for (const digest of positions.keys()) blocked.set(digest, 1);
}

/** People a thread remembers having blocked: a 1M-row first run finds fewer. */
const MAX_BLOCKED = 1 << 20;

/**
 * Digests of the people this thread has put in blocks (a digest's id is 1). Forgotten past MAX_BLOCKED: the engine's
 * thread then finds the people it holds stored already, or blocks them itself.
 */
const blocked = new DigestMap();
