import { basename } from 'node:path';

export const SHEET_ERROR_CODES = [
  'empty',
  'header_only',
  'not_a_spreadsheet',
  'encrypted',
  'corrupt',
  'too_many_columns',
  'cell_too_large',
  'too_large',
  'too_many_rows',
  'sheet_not_found',
  'unreadable',
] as const;
export type SheetErrorCode = (typeof SHEET_ERROR_CODES)[number];

/** A spreadsheet that cannot be imported; the message names the file and says what the user can do. */
export class SheetError extends Error {
  override readonly name = 'SheetError';

  constructor(
    readonly code: SheetErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How messages name a file: its name only, since the folder is the user's own business and can be long. */
export function fileLabel(path: string): string {
  return `“${basename(path)}”`;
}

/** Spreadsheet column letters as Excel shows them: 1 -> A, 27 -> AA. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, '')} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${bytes} bytes`;
}
