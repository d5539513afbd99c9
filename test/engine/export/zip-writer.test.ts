import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZipTooLarge, ZipWriter } from '../../../electron/engine/export/zip-writer';
import { ZipDirectory } from '../../../electron/engine/sheets/zip-directory';
import { tempFolder } from './export-files';

describe('ZipWriter', () => {
  it('writes entries small and streamed that a zip reader finds whole', async () => {
    const path = join(tempFolder(), 'two.zip');
    const out = createWriteStream(path);
    const zip = new ZipWriter(out);
    await zip.add('a.txt', 'héllo');
    await zip.stream('b/big.txt', async (write) => {
      for (let i = 0; i < 50; i++) await write(Buffer.from(`line ${i} ${'x'.repeat(10_000)}\n`));
    });
    await zip.finish();
    out.end();
    await once(out, 'close');
    const read = await ZipDirectory.open(path);
    try {
      expect((await read.read('a.txt')).toString('utf8')).toBe('héllo');
      const big = (await read.read('b/big.txt')).toString('utf8');
      expect(big.split('\n')).toHaveLength(51);
      expect(big.startsWith('line 0 ')).toBe(true);
    } finally {
      await read.close();
    }
    expect(readFileSync(path).readUInt32LE(0)).toBe(0x04034b50);
  });

  it('takes parts compressed elsewhere between its own bytes, into one entry with the CRC of the whole', async () => {
    const folder = tempFolder();
    const path = join(folder, 'parts.zip');
    const text = (from: number, to: number) => Buffer.from(Array.from({ length: to - from }, (_, i) => `<row r="${from + i}"><c><v>${(from + i) * 7}</v></c></row>`).join(''));
    // Made as another thread makes its half: deflated a chunk at a time, each chunk ending on a full flush.
    const partOf = (name: string, chunks: Buffer[]) => {
      const deflated = chunks.map((chunk) => deflateRawSync(chunk, { level: 1, finishFlush: constants.Z_FULL_FLUSH }));
      const file = join(folder, name);
      writeFileSync(file, Buffer.concat(deflated));
      const size = chunks.reduce((n, c) => n + c.length, 0);
      return { path: file, crc: crc32(Buffer.concat(chunks)), size, compressed: deflated.reduce((n, c) => n + c.length, 0) };
    };
    const pieces = [text(0, 1000), text(1000, 5000), text(5000, 5001), text(5001, 20_000), text(20_000, 20_010)];
    const out = createWriteStream(path);
    const zip = new ZipWriter(out, { level: 1 });
    await zip.stream('sheet.xml', async (write, append) => {
      await write(pieces[0]!);
      await append(partOf('one.part', [pieces[1]!.subarray(0, 7000), pieces[1]!.subarray(7000)]));
      // Two parts in a row, then the producer's own bytes again, then a part last of all.
      await append(partOf('two.part', [pieces[2]!]));
      await write(pieces[3]!);
      await append(partOf('three.part', [pieces[4]!]));
    });
    await zip.add('after.txt', 'next entry');
    await zip.finish();
    out.end();
    await once(out, 'close');
    const whole = Buffer.concat(pieces);
    const read = await ZipDirectory.open(path);
    try {
      expect((await read.read('sheet.xml')).equals(whole)).toBe(true);
      expect((await read.read('after.txt')).toString('utf8')).toBe('next entry');
    } finally {
      await read.close();
    }
    expect(centralEntries(readFileSync(path)).get('sheet.xml')).toEqual({ crc: crc32(whole), size: whole.length });
  });

  it('makes an empty streamed entry, and one of parts alone', async () => {
    const folder = tempFolder();
    const path = join(folder, 'empty.zip');
    const bytes = Buffer.from('only a part');
    const part = join(folder, 'only.part');
    const deflated = deflateRawSync(bytes, { finishFlush: constants.Z_FULL_FLUSH });
    writeFileSync(part, deflated);
    const out = createWriteStream(path);
    const zip = new ZipWriter(out);
    await zip.stream('empty.txt', async () => undefined);
    await zip.stream('part.txt', (_write, append) => append({ path: part, crc: crc32(bytes), size: bytes.length, compressed: deflated.length }));
    await zip.finish();
    out.end();
    await once(out, 'close');
    const read = await ZipDirectory.open(path);
    try {
      expect((await read.read('empty.txt')).length).toBe(0);
      expect((await read.read('part.txt')).toString('utf8')).toBe('only a part');
    } finally {
      await read.close();
    }
    expect(centralEntries(readFileSync(path))).toEqual(
      new Map([
        ['empty.txt', { crc: 0, size: 0 }],
        ['part.txt', { crc: crc32(bytes), size: bytes.length }],
      ]),
    );
  });

  it('goes on making a streamed entry while it is compressed, and holds only a few MB when the disk stalls', async () => {
    const path = join(tempFolder(), 'stalled.zip');
    const file = createWriteStream(path);
    // A disk that takes nothing until it is let go: what the writer hands it waits in its buffer.
    let letGo: (() => void) | null = null;
    const stalled = new Promise<void>((resolve) => (letGo = resolve));
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        void stalled.then(() => file.write(chunk, callback));
      },
    });
    const zip = new ZipWriter(out);
    // Random bytes do not compress: what goes in comes out at its size, so the stall backs up into the compressor.
    const chunks = Array.from({ length: 40 }, () => randomBytes(1024 * 1024));
    let handed = 0;
    const streamed = zip.stream('random.bin', async (write) => {
      for (const chunk of chunks) {
        await write(chunk);
        handed++;
      }
    });
    // Until the count stops moving: the producer waits once a few MB are queued.
    for (let still = 0, last = -1; still < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      still = handed === last ? still + 1 : 0;
      last = handed;
    }
    // More than one chunk (it does not wait for each chunk's compression), far fewer than all of them.
    expect(handed).toBeGreaterThan(1);
    expect(handed).toBeLessThanOrEqual(10);
    letGo!();
    await streamed;
    await zip.finish();
    await new Promise<void>((resolve) => out.end(resolve));
    file.end();
    await once(file, 'close');
    const read = await ZipDirectory.open(path);
    try {
      expect((await read.read('random.bin')).equals(Buffer.concat(chunks))).toBe(true);
    } finally {
      await read.close();
    }
  });

  it('refuses an archive past its size limit (4 GB: zip without Zip64) instead of writing a wrong one', async () => {
    const out = createWriteStream(join(tempFolder(), 'large.zip'));
    await once(out, 'open');
    const zip = new ZipWriter(out, { maxBytes: 64_000 });
    await zip.add('small.txt', 'fits');
    const streamed = zip.stream('large.txt', async (write) => {
      for (let i = 0; i < 100; i++) await write(Buffer.alloc(1_000, 97));
    });
    await expect(streamed).rejects.toBeInstanceOf(ZipTooLarge);
    // Closed before the test's folder goes; the write the failure cut off fails then, as the export expects.
    out.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
    out.destroy();
    await closed;
  });
});

/** Each entry's CRC-32 and size as the archive's central directory lists them (no zip comment, no Zip64). */
function centralEntries(zip: Buffer): Map<string, { crc: number; size: number }> {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const entries = new Map<string, { crc: number; size: number }>();
  for (let at = zip.readUInt32LE(end + 16), n = zip.readUInt16LE(end + 10); n > 0; n--) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, { crc: zip.readUInt32LE(at + 16), size: zip.readUInt32LE(at + 24) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}
