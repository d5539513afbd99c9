import { open, stat } from 'node:fs/promises';
import { SheetError, fileLabel } from './sheet-error';

/** Turns a file-system failure into the `unreadable` error a user can act on. */
export function unreadable(path: string, err: unknown): SheetError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const reason =
    code === 'ENOENT'
      ? 'the file does not exist (it may have been moved or deleted)'
      : code === 'EACCES' || code === 'EPERM'
        ? 'Matchdesk is not allowed to read it; check its permissions'
        : code === 'EISDIR'
          ? 'it is a folder, not a file'
          : code === 'EBUSY'
            ? 'another program has it locked; close it there and try again'
            : `the system said: ${err instanceof Error ? err.message : String(err)}`;
  return new SheetError('unreadable', path, `Can't read ${fileLabel(path)}: ${reason}.`, { cause: err });
}

/** The file's size and its first `bytes` bytes (fewer when the file is shorter). */
export async function readStart(path: string, bytes: number): Promise<{ size: number; start: Buffer }> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const handle = await open(path, 'r');
    try {
      const start = Buffer.alloc(Math.min(bytes, info.size));
      const { bytesRead } = await handle.read(start, 0, start.length, 0);
      return { size: info.size, start: start.subarray(0, bytesRead) };
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw unreadable(path, err);
  }
}

/** A Node file-system error (it names the system call), as opposed to a parse error from a library. */
export function isFileError(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string';
}
