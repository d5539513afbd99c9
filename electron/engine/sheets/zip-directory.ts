import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable, Transform, pipeline } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { INFLATE_CAPS, checkInflated, type InflateLimit } from './inflate-limits';

export interface PartLocation {
  name: string;
  start: number;
  length: number;
  deflated: boolean;
}

/** Bytes zlib hands on at a time (its own default is 16 KB). */
const INFLATE_CHUNK_BYTES = 64 * 1024;

/**
 * An entry's bytes, inflated as they are read: large worksheets never sit whole in memory. `onRead` is told the share
 * of the entry's stored bytes read so far (0 to 1), as they are read. The stream fails with PartTooLarge as soon as
 * the entry inflates past `limit`, and stops inflating there. The size the ZIP directory states is not trusted, nor
 * used to refuse early: a part stating 1 GiB may be a bomb, or hold one cell over the limit that should be named.
 */
export function streamPart(
  path: string,
  part: PartLocation,
  onRead?: (fraction: number) => void,
  limit: InflateLimit = { cap: INFLATE_CAPS.other },
): Readable {
  if (part.length === 0) return Readable.from([]);
  // Small reads, so that the bytes read say closely how much has been inflated from them (the ratio check).
  const raw = createReadStream(path, { start: part.start, end: part.start + part.length - 1, highWaterMark: 16 * 1024 });
  if (onRead) raw.on('data', () => onRead(raw.bytesRead / part.length));
  let inflated = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      try {
        checkInflated(part.name, limit, inflated, raw.bytesRead, chunk.length);
      } catch (err) {
        done(err as Error);
        return;
      }
      done(null, chunk);
    },
  });
  // pipeline destroys every stage when one fails or the reader destroys the last, so the inflate stops at once.
  // Each inflated chunk costs a turn through the streams' machinery: at zlib's 16 KB, a share of a worksheet's read.
  const stages = part.deflated ? [raw, createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES }), counted] : [raw, counted];
  pipeline(stages, () => undefined);
  return counted;
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** Why a ZIP's directory could not be read: both mean the file is damaged or cut short. */
export class ZipDamaged extends Error {
  override readonly name = 'ZipDamaged';
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_COMMENT = 0xffff;
/** The small XML parts read here (workbook.xml, its rels) are kilobytes; a bigger one is not worth inflating. */
const MAX_INFLATED = INFLATE_CAPS.other;

/**
 * Reads a ZIP's central directory, which sits at the end of the file: a file cut short loses it, which is how
 * a truncated workbook is told apart from a good one before any streaming starts.
 */
export class ZipDirectory {
  private constructor(
    private readonly handle: FileHandle,
    readonly entries: Map<string, ZipEntry>,
  ) {}

  static async open(path: string): Promise<ZipDirectory> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      return new ZipDirectory(handle, await readDirectory(handle, size));
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Where an entry's (compressed) bytes are in the file, for streaming it without reading the rest. */
  async locate(name: string): Promise<PartLocation> {
    const entry = this.entries.get(name);
    if (!entry) throw new ZipDamaged(`${name} is missing`);
    if (entry.method !== 0 && entry.method !== 8) throw new ZipDamaged(`${name} uses an unsupported compression method (${entry.method})`);
    const header = await readAt(this.handle, entry.localHeaderOffset, 30);
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipDamaged(`${name} has no local header`);
    const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    return { name, start, length: entry.compressedSize, deflated: entry.method === 8 };
  }

  async read(name: string): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (entry && entry.size > MAX_INFLATED) throw new ZipDamaged(`${name} is unreasonably large`);
    const part = await this.locate(name);
    const data = await readAt(this.handle, part.start, part.length);
    if (!part.deflated) return data;
    try {
      return inflateRawSync(data, { maxOutputLength: MAX_INFLATED });
    } catch (err) {
      throw new ZipDamaged(`${name} cannot be decompressed`, { cause: err });
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipDamaged('the file ends early');
  return buffer;
}

async function readDirectory(handle: FileHandle, size: number): Promise<Map<string, ZipEntry>> {
  const tailLength = Math.min(size, MAX_COMMENT + 22);
  const tail = await readAt(handle, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipDamaged('the end of the ZIP directory is missing (the file ends early)');
  let count = tail.readUInt16LE(eocd + 10);
  let directorySize = tail.readUInt32LE(eocd + 12);
  let directoryOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locatorAt = size - tailLength + eocd - 20;
    const locator = locatorAt >= 0 ? await readAt(handle, locatorAt, 20) : null;
    if (!locator || locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE) throw new ZipDamaged('the ZIP64 directory is missing');
    const record = await readAt(handle, Number(locator.readBigUInt64LE(8)), 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw new ZipDamaged('the ZIP64 directory is damaged');
    count = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  if (directoryOffset + directorySize > size) throw new ZipDamaged('the ZIP directory points past the end of the file');
  const directory = await readAt(handle, directoryOffset, directorySize);
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipDamaged('the ZIP directory is damaged');
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const entry: ZipEntry = {
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
    };
    applyZip64Extra(entry, directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    if (entry.localHeaderOffset + entry.compressedSize > directoryOffset) throw new ZipDamaged(`${entry.name} points past its data`);
    entries.set(entry.name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes and offsets of 0xFFFFFFFF are stored in the ZIP64 extra field, in this order, only when overflowing. */
function applyZip64Extra(entry: ZipEntry, extra: Buffer): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = (): number => {
        const value = field + 8 <= at + 4 + length ? Number(extra.readBigUInt64LE(field)) : NaN;
        field += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = next();
      return;
    }
    at += 4 + length;
  }
}
