import { open, type FileHandle } from 'node:fs/promises';
import type { ExportCell, ExportResult, ExportRows, ExportTarget } from './export-target';
import { csvEscaper } from './csv-escape';
import { neutralizeFormula } from './neutralize-formula';
import { ExportError, exportLabel, writeFailed } from './export-error';
import { writeViaPartFile } from './part-file';
import { pagesOf } from './row-pages';

/**
 * Bytes of CSV gathered before a write: each line goes into the chunk as UTF-8 as soon as it is made. Lines joined
 * into long strings first cost more to turn into bytes (a string of many pieces is copied flat first) than to make.
 */
const CHUNK_BYTES = 256 * 1024;

/**
 * UTF-8 CSV with CRLF line ends, written as it goes: rows are pulled only as fast as the disk takes them (each
 * chunk's write is awaited before the next rows are read), and the file is flushed to the disk before it is renamed.
 */
export async function writeCsv(target: ExportTarget, headers: string[], rows: ExportRows): Promise<ExportResult> {
  const delimiter = target.delimiter ?? ',';
  if (delimiter.length === 0 || /["\r\n]/.test(delimiter)) {
    throw new ExportError('invalid_target', target.path, `Can't save ${exportLabel(target.path)} with ${JSON.stringify(delimiter)} as the delimiter; choose a comma, semicolon, tab or pipe.`);
  }
  const line = csvLineWriter(delimiter);
  return writeViaPartFile(target.path, async (partPath) => {
    try {
      const rowsWritten = await writeLines(partPath, (target.bom ?? true ? '\uFEFF' : '') + line(headers), rows, line, true);
      return { rows: rowsWritten };
    } catch (err) {
      if (isFileError(err)) throw writeFailed(target.path, err);
      throw err;
    }
  }, target.together, target.unfinished);
}

/**
 * The rows' lines alone (no header, no byte order mark) into `path`, as writeCsv writes them, for a file whose bytes
 * another's take after its own lines (RowPages.linesAfter); how many there were. Not flushed: the file it goes into is.
 */
export async function writeCsvLines(path: string, delimiter: string, rows: ExportRows): Promise<number> {
  return writeLines(path, '', rows, csvLineWriter(delimiter), false);
}

/** `head`, then the rows' lines, into the file at `path` (made anew); then the lines of `linesAfter`, when given. */
async function writeLines(path: string, head: string, rows: ExportRows, line: (row: readonly ExportCell[]) => string, flush: boolean): Promise<number> {
  let count = 0;
  const file = await open(path, 'w');
  try {
    let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    /** Writes the chunk out when `text` may not fit in what is left of it (a UTF-16 code unit is at most 3 bytes). */
    const room = async (text: string) => {
      await writeAll(file, chunk, used);
      used = 0;
      if (text.length * 3 > chunk.length) chunk = Buffer.allocUnsafe(text.length * 3);
    };
    await room(head);
    used += chunk.write(head, used);
    for await (const page of pagesOf(rows)) {
      for (const row of page) {
        const text = line(row);
        if (used + text.length * 3 > chunk.length) await room(text);
        used += chunk.write(text, used);
        count++;
      }
    }
    await writeAll(file, chunk, used);
    const after = 'pages' in rows ? await rows.linesAfter?.() : null;
    if (after) {
      await appendFile(file, after.path, chunk);
      count += after.rows;
    }
    if (flush) await file.sync();
  } finally {
    await file.close();
  }
  return count;
}

/** The bytes of the file at `path` written after what `file` holds, through `buffer`. */
async function appendFile(file: FileHandle, path: string, buffer: Buffer): Promise<void> {
  const from = await open(path, 'r');
  try {
    for (let read; (read = (await from.read(buffer, 0, buffer.length, null)).bytesRead) > 0; ) await writeAll(file, buffer, read);
  } finally {
    await from.close();
  }
}

/** A row's line, its end included, for this delimiter. */
function csvLineWriter(delimiter: string): (row: readonly ExportCell[]) => string {
  const escape = csvEscaper(delimiter);
  // A number's text (digits, '.', '-', 'e', '+') holds no quote, line break or space: only a delimiter made of those
  // characters could make it need quotes.
  const escapeNumber = /[\d.e+-]/.test(delimiter) ? (text: string) => escape(text) : (text: string) => text;
  return (row) => {
    let line = '';
    for (let i = 0; i < row.length; i++) {
      if (i > 0) line += delimiter;
      const cell = row[i];
      if (cell === null || cell === undefined) continue;
      // Numbers typed as numbers are data the engine made, never formulas: only strings are neutralized.
      line += typeof cell === 'number' ? escapeNumber(numberText(cell)) : escape(neutralizeFormula(String(cell)));
    }
    return `${line}\r\n`;
  };
}

/** The first `length` bytes of `chunk`, however many writes the file takes them in. */
async function writeAll(file: FileHandle, chunk: Buffer, length: number): Promise<void> {
  for (let done = 0; done < length; ) done += (await file.write(chunk, done, length - done)).bytesWritten;
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Object.is(value, -0) ? '0' : String(value);
}

export function isFileError(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string';
}
