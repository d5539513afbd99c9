import { basename } from 'node:path';

export type ExportErrorCode = 'too_many_rows' | 'too_many_columns' | 'too_large' | 'invalid_target' | 'write_failed';

/** An export that could not be written; no partial file is left behind when this is thrown. */
export class ExportError extends Error {
  override readonly name = 'ExportError';

  constructor(
    readonly code: ExportErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function exportLabel(path: string): string {
  return `“${basename(path)}”`;
}

/** File-system failures in words a user can act on. */
export function writeFailed(path: string, err: unknown): ExportError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const reason =
    code === 'ENOENT'
      ? 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? 'Matchdesk is not allowed to write there; choose another folder'
        : code === 'ENOSPC'
          ? 'the disk is full'
          : code === 'EROFS'
            ? 'the disk is read-only'
            : code === 'EISDIR'
              ? 'a folder has that name'
              : code === 'EBUSY'
                ? 'another program has the file open; close it there and try again'
                : `the system said: ${err instanceof Error ? err.message : String(err)}`;
  return new ExportError('write_failed', path, `Couldn't save ${exportLabel(path)}: ${reason}.`, { cause: err });
}
