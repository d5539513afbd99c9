import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { constants, createDeflateRaw, crc32, deflateRawSync, type DeflateRaw } from 'node:zlib';
import { crc32Combine } from './crc32-combine';

/** Zip's 32-bit sizes and offsets (no Zip64 here): an archive past them is refused, not written wrong. */
const MAX_ZIP32 = 0xffff_ffff;
/** General purpose flags: sizes in a data descriptor after the data (bit 3), names in UTF-8 (bit 11). */
const FLAGS = 0x0808;
const DEFLATED = 8;
const VERSION = 20;
/**
 * A streamed entry is compressed on libuv's threads while its producer (the engine's thread) makes the next bytes.
 * The compressor hands back its output a buffer of this size at a time, each time through a turn of the producer's
 * event loop: with zlib's 16 KB, a busy producer let it go on only 16 KB at a time, and it fell behind.
 */
const DEFLATED_CHUNK_BYTES = 1024 * 1024;
/**
 * Bytes the producer may have queued for the compressor before it waits for it. Waiting whenever the compressor's
 * 16 KB buffer was full made it wait for each chunk's compression: the sheet XML of a 1M-row export (its thread
 * busy 23 s) and its compression (5 s) took their sum, not the longer of them.
 */
const PENDING_BYTES = 4 * 1024 * 1024;

/**
 * A deflate stream's last block, empty: BFINAL set, fixed codes, the end-of-block code (10 bits). A streamed entry's
 * segments each end byte-aligned on a full flush, so that compressed data made elsewhere may come between them; this
 * ends the entry's data.
 */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** Bytes of an appended part read and written at a time. */
const COPY_BYTES = 1024 * 1024;

/**
 * Part of an entry's data compressed elsewhere (another thread): raw deflate blocks in a file, none of them final, the
 * last ending on a full flush (byte-aligned, referring to nothing before it), with the CRC-32 and length of the bytes
 * they hold. A streamed entry takes it between its own bytes (ZipWriter.stream's `append`).
 */
export interface DeflatedPart {
  path: string;
  crc: number;
  /** Bytes it inflates to. */
  size: number;
  /** Bytes of the file. */
  compressed: number;
}

/** An entry as the central directory lists it. */
interface Written {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** The archive would pass zip's 4 GB limits (an entry, or the whole file). */
export class ZipTooLarge extends Error {
  constructor() {
    super('The file would pass the 4 GB a zip file without Zip64 holds.');
    this.name = 'ZipTooLarge';
  }
}

/**
 * A zip archive written as it goes to a stream, its entries deflated: what an .xlsx is. Each entry's sizes and CRC
 * follow its data (a data descriptor), so a large entry is compressed as it is made, never held. The stream's
 * backpressure is kept: every write waits while the stream is full. `finish` writes the central directory; the
 * stream is the caller's to end.
 */
export class ZipWriter {
  private offset = 0;
  private readonly entries: Written[] = [];
  private readonly level: number;
  /** Zip's limit, or a lower one for a test. */
  private readonly maxBytes: number;
  /** When the archive was made, as MS-DOS time and date (local time, as zip tools read it). */
  private readonly time: number;
  private readonly date: number;

  constructor(
    private readonly out: Writable,
    { level = 6, now = new Date(), maxBytes = MAX_ZIP32 }: { level?: number; now?: Date; maxBytes?: number } = {},
  ) {
    this.level = level;
    this.maxBytes = Math.min(maxBytes, MAX_ZIP32);
    this.time = (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1);
    this.date = ((Math.max(1980, now.getFullYear()) - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  }

  /** A small entry, made whole in memory. */
  async add(name: string, text: string): Promise<void> {
    const data = Buffer.from(text, 'utf8');
    const compressed = deflateRawSync(data, { level: this.level });
    const entry = this.begin(name);
    await this.write(this.localHeader(entry.name));
    await this.write(compressed);
    await this.end(entry, crc32(data), compressed.length, data.length);
  }

  /**
   * A large entry, compressed as `produce` writes its bytes (handed over: not to be changed after): each write waits
   * while the compressor or the stream behind it is full, so memory holds a chunk or two whatever the entry's size.
   * `append` puts a part compressed elsewhere (DeflatedPart) after the bytes written so far: the compressor's segment
   * ends on a full flush, the part's bytes follow as they are, and the next write begins a new segment.
   */
  async stream(name: string, produce: (write: (data: Buffer) => Promise<void>, append: (part: DeflatedPart) => Promise<void>) => Promise<void>): Promise<void> {
    const entry = this.begin(name);
    await this.write(this.localHeader(entry.name));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    let segment: Segment | null = null;
    const grow = (bytes: number) => {
      size += bytes;
      if (size > this.maxBytes) throw new ZipTooLarge();
    };
    const endSegment = async () => {
      if (!segment) return;
      const ending = segment;
      segment = null;
      compressed += await ending.end();
    };
    try {
      await produce(
        async (data) => {
          crc = crc32(data, crc);
          grow(data.length);
          segment ??= this.segment();
          await segment.write(data);
        },
        async (part) => {
          grow(part.size);
          await endSegment();
          compressed += await this.copy(part);
          crc = crc32Combine(crc, part.crc, part.size);
        },
      );
      await endSegment();
      await this.write(FINAL_EMPTY_BLOCK);
      compressed += FINAL_EMPTY_BLOCK.length;
    } catch (err) {
      (segment as Segment | null)?.abort();
      throw err;
    }
    await this.end(entry, crc, compressed, size);
  }

  /**
   * A run of the entry's data compressed here, on libuv's threads while the producer makes the next bytes; ended on a
   * full flush, not as the last block (FINAL_EMPTY_BLOCK ends the entry).
   */
  private segment(): Segment {
    const deflate = createDeflateRaw({ level: this.level, chunkSize: DEFLATED_CHUNK_BYTES, finishFlush: constants.Z_FULL_FLUSH });
    let compressed = 0;
    deflate.on('data', (chunk: Buffer) => (compressed += chunk.length));
    // The stream gets the compressed data in order, before anything written after this segment.
    deflate.pipe(this.out, { end: false });
    const done = ended(deflate, this.out);
    // Awaited once the segment ends; left when the producer fails, its rejection is not the failure to report.
    done.catch(() => undefined);
    return {
      // Past its small buffer the compressor queues what it is handed: the producer makes the next chunk while the
      // compressor works through the last, and waits only once PENDING_BYTES are queued.
      write: async (data) => {
        if (!deflate.write(data) && deflate.writableLength >= PENDING_BYTES) await drained(deflate, this.out);
      },
      end: async () => {
        deflate.end();
        await done;
        // The compressed data reached the stream through the pipe, not through write(): counted here.
        this.offset += compressed;
        if (this.offset > this.maxBytes) throw new ZipTooLarge();
        return compressed;
      },
      abort: () => {
        deflate.unpipe(this.out);
        deflate.destroy();
      },
    };
  }

  /** The part's file into the stream as it is; its length, which must be what the part says. */
  private async copy(part: DeflatedPart): Promise<number> {
    const file = await open(part.path, 'r');
    let copied = 0;
    try {
      for (;;) {
        const buffer = Buffer.allocUnsafe(COPY_BYTES);
        const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        copied += bytesRead;
        await this.write(buffer.subarray(0, bytesRead));
      }
    } finally {
      await file.close();
    }
    if (copied !== part.compressed) throw new Error(`A compressed part of the file held ${copied} bytes, not the ${part.compressed} it was said to.`);
    return copied;
  }

  /** The central directory and its end record: the archive is whole once the stream has taken them. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.entries) await this.write(this.centralHeader(entry));
    const size = this.offset - start;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x0605_4b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }

  private begin(name: string): Written {
    return { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, compressed: 0, size: 0 };
  }

  private async end(entry: Written, crc: number, compressed: number, size: number): Promise<void> {
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x0807_4b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.write(descriptor);
    this.entries.push({ ...entry, crc: crc >>> 0, compressed, size });
  }

  private localHeader(name: Buffer): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x0403_4b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATED, 8);
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    // CRC and sizes are 0 here: the data descriptor after the data has them.
    header.writeUInt16LE(name.length, 26);
    return Buffer.concat([header, name]);
  }

  private centralHeader(entry: Written): Buffer {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x0201_4b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(FLAGS, 8);
    header.writeUInt16LE(DEFLATED, 10);
    header.writeUInt16LE(this.time, 12);
    header.writeUInt16LE(this.date, 14);
    header.writeUInt32LE(entry.crc, 16);
    header.writeUInt32LE(entry.compressed, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(entry.name.length, 28);
    header.writeUInt32LE(entry.offset, 42);
    return Buffer.concat([header, entry.name]);
  }

  private async write(data: Buffer): Promise<void> {
    if (this.offset + data.length > this.maxBytes) throw new ZipTooLarge();
    this.offset += data.length;
    if (!this.out.write(data)) await drained(this.out, this.out);
  }
}

/** A streamed entry's data compressed here between parts appended from elsewhere (ZipWriter.segment). */
interface Segment {
  write(data: Buffer): Promise<void>;
  /** Ends it on a full flush once all it was given is in the stream; its compressed bytes. */
  end(): Promise<number>;
  abort(): void;
}

/** Resolves once `stream` drains; rejects if the output fails or closes first (a drain that never comes). */
function drained(stream: Writable | DeflateRaw, out: Writable): Promise<void> {
  return settled(stream, 'drain', out);
}

/** Resolves once the compressor has handed on all its data; rejects if it or the output fails first. */
function ended(deflate: DeflateRaw, out: Writable): Promise<void> {
  return settled(deflate, 'end', out);
}

function settled(emitter: Writable | DeflateRaw, event: 'drain' | 'end', out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      emitter.off(event, onEvent);
      for (const source of new Set([emitter, out])) {
        source.off('error', onError);
        source.off('close', onClose);
      }
    };
    const onEvent = () => {
      cleanup();
      resolve();
    };
    const onError = (err: unknown) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('The file was closed while the export was writing it.'));
    };
    emitter.on(event, onEvent);
    for (const source of new Set([emitter, out])) {
      source.on('error', onError);
      source.on('close', onClose);
    }
  });
}
