import { open } from 'node:fs/promises';
import { isFileError, unreadable } from './file-access';
import { SheetError, fileLabel } from './sheet-error';
import type { TextEncoding } from './sniff-file';

/**
 * Data rows a sheet may have: an Excel worksheet's 1,048,576 rows less the header row. The same for CSV, so every
 * project can be exported to .xlsx as well as to .csv, and because the memory and time Matchdesk promises are
 * measured at a million rows (npm run bench -- --rows 1000000): a larger CSV is split into sheets first.
 */
export const MAX_DATA_ROWS = 1_048_575;

export function tooManyRows(path: string, where: string, rows: number | null, maxRows: number): SheetError {
  const has = rows === null ? `more than ${maxRows.toLocaleString('en-US')} rows` : `${rows.toLocaleString('en-US')} rows`;
  const excel = maxRows === MAX_DATA_ROWS ? " (an Excel sheet's 1,048,576 rows less the header row)" : '';
  return new SheetError(
    'too_many_rows',
    path,
    `${capitalize(where)}${fileLabel(path)} has ${has} below its header; Matchdesk takes at most ${maxRows.toLocaleString('en-US')} rows a sheet${excel}. ` +
      `Split it into sheets of at most ${maxRows.toLocaleString('en-US')} rows and import each. Nothing was imported.`,
  );
}

/**
 * An upper bound on a text file's records: its line breaks plus one (a record may span lines inside quotes, never
 * the other way round). A byte scan, so a sheet over the limit is refused before a row is stored. Every LF counts,
 * and every CR not followed by an LF: CRLF, LF and CR all end a record, in any mix.
 */
export async function textLineCount(path: string, encoding: TextEncoding): Promise<number> {
  // One buffer read into again and again: a stream's new megabyte a chunk lay dead until V8 collected, up to tens of
  // megabytes of them at a million rows, and the memory malloc gave them was not all given back.
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  // UTF-16 puts each code unit in two bytes: a line break is the byte pair at an even offset.
  const wide = encoding === 'utf-16le' || encoding === 'utf-16be';
  const low = encoding === 'utf-16be' ? 1 : 0;
  let lines = 1;
  // The code unit before this chunk's first was a CR: an LF first in the chunk ends the same CRLF.
  let afterCr = false;
  let carry: Buffer | null = null;
  try {
    const file = await open(path, 'r');
    try {
      for (let bytes = (await file.read(buffer, 0, buffer.length)).bytesRead; bytes > 0; bytes = (await file.read(buffer, 0, buffer.length)).bytesRead) {
        const read = buffer.subarray(0, bytes);
        if (!wide) {
          for (let i = read.indexOf(10); i !== -1; i = read.indexOf(10, i + 1)) if (i > 0 || !afterCr) lines++;
          for (let i = read.indexOf(13); i !== -1; i = read.indexOf(13, i + 1)) if (read[i + 1] !== 10) lines++;
          // A CR last in the chunk was counted; the LF that may begin the next chunk is then not.
          afterCr = read[read.length - 1] === 13;
          continue;
        }
        // A code unit cut in two by a chunk is read whole with the next one (copied: the buffer is read into again).
        const chunk: Buffer = carry ? Buffer.concat([carry, read]) : read;
        const usable = chunk.length - (chunk.length % 2);
        carry = usable < chunk.length ? Buffer.from(chunk.subarray(usable)) : null;
        for (let i = 0; i < usable; i += 2) {
          const unit = chunk[i + low]! | (chunk[i + 1 - low]! << 8);
          if (unit === 10 && !afterCr) lines++;
          else if (unit === 13) lines++;
          afterCr = unit === 13;
        }
      }
    } finally {
      await file.close();
    }
  } catch (err) {
    if (isFileError(err)) throw unreadable(path, err);
    throw err;
  }
  return lines;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
