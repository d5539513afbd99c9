// Files the browser sends in: streamed to a temp folder under the data folder and named by a random reference,
// so the engine only ever opens files the user uploaded, never a path the page made up.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeFileName } from '../engine/file-names';

export const UPLOAD_PREFIX = 'upload:';
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
const REF_PATTERN = /^upload:[A-Za-z0-9_-]{22}$/;

export class UploadTooLarge extends Error {
  constructor(limit: number) {
    super(`The file is larger than ${Math.round(limit / 1024 ** 2)} MB, the most the browser host accepts. Split it, or use the desktop app.`);
    this.name = 'UploadTooLarge';
  }
}

export class Uploads {
  private readonly files = new Map<string, string>();

  constructor(
    readonly dir: string,
    readonly maxBytes = MAX_UPLOAD_BYTES,
  ) {}

  /** Streams `body` to disk and returns its reference; a partial file is removed if anything goes wrong. */
  async receive(body: Readable, fileName: string, declaredBytes?: number): Promise<string> {
    if (declaredBytes !== undefined && declaredBytes > this.maxBytes) throw new UploadTooLarge(this.maxBytes);
    const id = randomBytes(16).toString('base64url');
    const folder = join(this.dir, id);
    // Owner-only, as everything in the data folder: an upload is the user's sheet of people.
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // The original name is kept (made safe) because the engine reads the format and the project name from it.
    const path = join(folder, safeFileName(fileName, { fallback: 'upload', maxLength: 200 }));
    let received = 0;
    const limit = this.maxBytes;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(received > limit ? new UploadTooLarge(limit) : null, chunk);
      },
    });
    try {
      await pipeline(body, counter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      await rm(folder, { recursive: true, force: true });
      throw err;
    }
    const ref = `${UPLOAD_PREFIX}${id}`;
    this.files.set(ref, path);
    return ref;
  }

  /** The temp path of an uploaded file, or null when the reference is malformed or unknown. */
  pathOf(ref: string): string | null {
    if (!REF_PATTERN.test(ref)) return null;
    return this.files.get(ref) ?? null;
  }

  /** Uploads are copies the engine has already read into its database: nothing is lost by removing them. */
  async clear(): Promise<void> {
    this.files.clear();
    await rm(this.dir, { recursive: true, force: true });
  }
}
