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
/** Each line's end, put into the chunk as bytes after the line's text. */
const CR = 0x0d;
const LF = 0x0a;

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
      const rowsWritten = await writeLines(partPath, `${target.bom ?? true ? '\uFEFF' : ''}${line(headers)}\r\n`, rows, line, true);
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

/** `head`, then each row's line and CRLF, into the file at `path` (made anew); then the lines of `linesAfter`, when given. */
async function writeLines(path: string, head: string, rows: ExportRows, line: (row: readonly ExportCell[]) => string, flush: boolean): Promise<number> {
  let count = 0;
  const file = await open(path, 'w');
  const flushes = flush ? new EarlyFlushes(file) : null;
  try {
    let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    const write = async (bytes: Buffer, length: number) => {
      await writeAll(file, bytes, length);
      flushes?.wrote(length);
    };
    /** Writes the chunk out when `text` and CRLF may not fit in what is left of it (a UTF-16 code unit is at most 3 bytes). */
    const room = async (text: string) => {
      await write(chunk, used);
      used = 0;
      if (text.length * 3 + 2 > chunk.length) chunk = Buffer.allocUnsafe(text.length * 3 + 2);
    };
    await room(head);
    used += chunk.write(head, used);
    for await (const page of pagesOf(rows)) {
      for (const row of page) {
        const text = line(row);
        if (used + text.length * 3 + 2 > chunk.length) await room(text);
        used += chunk.write(text, used);
        chunk[used++] = CR;
        chunk[used++] = LF;
        count++;
      }
    }
    await write(chunk, used);
    const after = 'pages' in rows ? await rows.linesAfter?.() : null;
    if (after) {
      await appendFile(after.path, chunk, write);
      count += after.rows;
    }
    await flushes?.end();
  } finally {
    await flushes?.settled();
    await file.close();
  }
  return count;
}

/** The bytes of the file at `path`, read into `buffer` and handed to `write` a buffer at a time. */
async function appendFile(path: string, buffer: Buffer, write: (bytes: Buffer, length: number) => Promise<void>): Promise<void> {
  const from = await open(path, 'r');
  try {
    for (let read; (read = (await from.read(buffer, 0, buffer.length, null)).bytesRead) > 0; ) await write(buffer, read);
  } finally {
    await from.close();
  }
}

/** Bytes written to a file between two of the flushes EarlyFlushes begins. */
const FLUSH_EVERY_BYTES = 32 * 1024 * 1024;

/**
 * A file flushed to the disk as it is written: a flush of its data begun after every FLUSH_EVERY_BYTES written (one at
 * a time, not waited for), so that the flush before the file is renamed waits only for what came after the last, not
 * for the whole file while the threads that made it stand idle.
 */
class EarlyFlushes {
  private since = 0;
  private going: Promise<void> | null = null;
  /** A flush's failure, kept for end(): the file's next flush may not report the same failure again. */
  private failure: unknown = null;

  constructor(private readonly file: FileHandle) {}

  wrote(bytes: number): void {
    this.since += bytes;
    if (this.since < FLUSH_EVERY_BYTES || this.going) return;
    this.since = 0;
    this.going = this.file.datasync().then(
      () => {
        this.going = null;
      },
      (error: unknown) => {
        this.failure ??= error;
        this.going = null;
      },
    );
  }

  /** The whole file flushed to the disk; throws what any flush met. */
  async end(): Promise<void> {
    await this.settled();
    if (this.failure) throw this.failure;
    await this.file.sync();
  }

  /** Resolves once no flush is under way (before the file is closed). */
  async settled(): Promise<void> {
    await this.going;
  }
}

/**
 * A row's line, without its end (writeLines adds CRLF as bytes), for this delimiter. Its cells are escaped into one
 * array kept for every line and joined: a line built by `+=` was a string of ~26 pieces, copied flat again to be
 * turned into bytes.
 */
function csvLineWriter(delimiter: string): (row: readonly ExportCell[]) => string {
  const escape = csvEscaper(delimiter);
  // A number's text (digits, '.', '-', 'e', '+') holds no quote, line break or space: only a delimiter made of those
  // characters could make it need quotes.
  const escapeNumber = /[\d.e+-]/.test(delimiter) ? (text: string) => escape(text) : (text: string) => text;
  const texts: string[] = [];
  return (row) => {
    texts.length = row.length;
    for (let i = 0; i < row.length; i++) {
      const cell = row[i];
      // Numbers typed as numbers are data the engine made, never formulas: only strings are neutralized.
      texts[i] = cell === null || cell === undefined ? '' : typeof cell === 'number' ? escapeNumber(numberText(cell)) : escape(neutralizeFormula(String(cell)));
    }
    return texts.join(delimiter);
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
