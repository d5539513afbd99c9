import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
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

/**
 * What a path is when it is not a regular file, in words; null for a file. A named pipe would block the first read
 * until some program writes to it, and a device such as /dev/zero never ends (and says its size is 0).
 */
function notAFile(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function refuseNonFile(path: string, info: Stats): void {
  const what = notAFile(info);
  if (what === null) return;
  // On a Mac a Numbers document is a folder (a package) named .numbers.
  if (info.isDirectory() && extname(path).toLowerCase() === '.numbers') {
    throw new SheetError(
      'not_a_spreadsheet',
      path,
      `${fileLabel(path)} is an Apple Numbers document, which Matchdesk can't read. In Numbers, choose File > Export To > CSV (or Excel), then import that file.`,
    );
  }
  throw new SheetError(
    'unreadable',
    path,
    `Can't read ${fileLabel(path)}: it is ${what}, not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.`,
  );
}

/**
 * The file's size and its first `bytes` bytes (fewer when the file is shorter). Only a regular file gets this far:
 * the path is looked at before it is opened, and the opened handle again, since the path may change in between
 * (non-blocking, so a named pipe put there meanwhile cannot hang the open).
 */
export async function readStart(path: string, bytes: number): Promise<{ size: number; start: Buffer }> {
  try {
    refuseNonFile(path, await stat(path));
    // O_NONBLOCK does not exist on Windows, which has no named pipes in its file system.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const info = await handle.stat();
      refuseNonFile(path, info);
      const start = Buffer.alloc(Math.min(bytes, info.size));
      const { bytesRead } = await handle.read(start, 0, start.length, 0);
      return { size: info.size, start: start.subarray(0, bytesRead) };
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err instanceof SheetError) throw err;
    throw unreadable(path, err);
  }
}

/** A Node file-system error (it names the system call), as opposed to a parse error from a library. */
export function isFileError(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string';
}
