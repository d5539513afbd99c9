import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { join } from 'node:path';
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
