import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
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
 * the other way round). A byte scan, about 0.1 s for 100 MB, so a sheet over the limit is refused before a row is
 * stored. `newline` is the sniffed record separator; its last character is counted.
 */
export async function textLineCount(path: string, encoding: TextEncoding, newline: string): Promise<number> {
  const code = newline.charCodeAt(newline.length - 1);
  // UTF-16 puts each code unit in two bytes: a line break is the byte pair at an even offset.
  const wide = encoding === 'utf-16le' ? [code, 0] : encoding === 'utf-16be' ? [0, code] : null;
  let lines = 1;
  let offset = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as Readable & AsyncIterable<Buffer>) {
      if (wide) {
        for (let i = (2 - (offset % 2)) % 2; i + 1 < chunk.length; i += 2) if (chunk[i] === wide[0] && chunk[i + 1] === wide[1]) lines++;
      } else {
        for (let i = chunk.indexOf(code); i !== -1; i = chunk.indexOf(code, i + 1)) lines++;
      }
      offset += chunk.length;
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
