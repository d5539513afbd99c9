// Files the browser takes out: an export written into the data folder, handed out by a random reference so a
// download URL can name nothing but the files this host wrote.
import { randomBytes } from 'node:crypto';

export interface Download {
  path: string;
  fileName: string;
}

const REF_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export class Downloads {
  private readonly files = new Map<string, Download>();

  register(path: string, fileName: string): string {
    const ref = randomBytes(16).toString('base64url');
    this.files.set(ref, { path, fileName });
    return ref;
  }

  get(ref: string): Download | null {
    if (!REF_PATTERN.test(ref)) return null;
    return this.files.get(ref) ?? null;
  }
}

/** A Content-Disposition that keeps any file name intact (RFC 6266 filename*) with an ASCII fallback. */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}

function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
