import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import type { RawRow, SheetWarning } from './opened-sheet';
import type { TextEncoding } from './sniff-file';
import { parseCsvText } from './csv-records';
import { isFileError, unreadable } from './file-access';
import { OversizedCell } from './oversized-cell';

export interface CsvLayout {
  encoding: TextEncoding;
  delimiter: string;
}

const READ_BYTES = 256 * 1024;
const PARSE_CHARS = 64 * 1024;

/**
 * Records of a text sheet, decoded and parsed as the consumer pulls them, so only a chunk or so of the file
 * is ever in memory. They come a parsed chunk at a time: an async generator's step per record (promises and
 * results at each of the reader's stages) was half of what a CSV import allocated. The unparsed tail of a chunk (a record
 * cut in two) is carried over to the next (csv-records.ts), and the pull loop gives backpressure without pause/resume.
 */
export async function* csvRows(
  path: string,
  layout: CsvLayout,
  maxCellBytes: number,
  warn: (warning: SheetWarning) => void,
  /** Told the bytes read so far after each chunk. */
  onBytes: (bytesRead: number) => void = () => undefined,
): AsyncGenerator<RawRow[]> {
  const stream = createReadStream(path, { highWaterMark: READ_BYTES });
  const decoder = iconv.getDecoder(layout.encoding);
  const { delimiter } = layout;
  let pending = '';
  // A record is parsed again from its start each time more text arrives; waiting until the new text is as long
  // as the carried tail keeps a long quoted cell linear instead of quadratic.
  let parseAt = PARSE_CHARS;
  // Past this the tail is inspected: a cell over the limit (or a quote never closed) must not fill memory.
  let inspectAt = maxCellBytes + PARSE_CHARS;
  let line = 0;
  // The encoding was chosen from the file's first MiB (sniff-file.ts): bytes past it that are not UTF-8 read as �.
  const notUtf8 = layout.encoding === 'utf-8' ? new NotUtf8Bytes(warn) : null;
  const rows = (records: string[][]): RawRow[] => {
    const read = records.map((cells) => ({ cells, line: ++line }));
    notUtf8?.check(read);
    return read;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      onBytes(stream.bytesRead);
      const text = decoder.write(chunk);
      notUtf8?.read(chunk, text);
      pending += text;
      if (pending.length < parseAt) continue;
      const result = parseCsvText(pending, delimiter, false);
      pending = pending.slice(result.cursor);
      if (result.records.length > 0) yield rows(result.records);
      parseAt = pending.length + Math.max(PARSE_CHARS, pending.length);
      if (pending.length > inspectAt) {
        const tail = parseCsvText(pending, delimiter, true);
        // Read to the end of the text, the record is still in a quote only if that quote is never closed in it.
        inspectTail(tail.records[0] ?? [], maxCellBytes, line + 1, tail.unclosed && tail.records.length === 1);
        inspectAt = pending.length * 2;
      }
    }
    const last = decoder.end() ?? '';
    notUtf8?.read(Buffer.alloc(0), last);
    pending += last;
    const { records, unclosed } = parseCsvText(pending, delimiter, true);
    // The unclosed quote ran to the end of the file: if that made a cell too large, say that it is why.
    if (unclosed && records.length > 0) inspectTail(records[records.length - 1]!, maxCellBytes, line + records.length, true);
    if (records.length > 0) yield rows(records);
    if (unclosed) {
      warn({
        code: 'unclosed_quote',
        message: `A quote opened in row ${line} is never closed, so that row runs to the end of the file. Check the last rows after import.`,
      });
    }
  } catch (err) {
    if (err instanceof OversizedCell || !isFileError(err)) throw err;
    throw unreadable(path, err);
  } finally {
    stream.destroy();
  }
}

/** Throws when the widest cell of an unfinished record is over the limit. */
function inspectTail(cells: string[], maxCellBytes: number, line: number, inOpenQuote: boolean): void {
  let widest = 0;
  cells.forEach((cell, i) => {
    if (cell.length > cells[widest].length) widest = i;
  });
  const bytes = cells.length > 0 ? Buffer.byteLength(cells[widest]) : 0;
  if (bytes > maxCellBytes) throw new OversizedCell(line, widest + 1, bytes, true, false, inOpenQuote);
}

/** U+FFFD as UTF-8: a file may hold the character itself, which is no sign of bytes that are not UTF-8. */
const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');

/**
 * Bytes past the sampled start of a file read as UTF-8 that are not UTF-8: the decoder reads each as �. Told each
 * chunk and its text, then each batch of rows, it warns once, naming the first row that holds one.
 */
class NotUtf8Bytes {
  private seen = false;
  private warned = false;
  /** The last bytes of the chunk before: the character itself may be cut in two by the chunks. */
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly warn: (warning: SheetWarning) => void) {}

  read(chunk: Buffer, text: string): void {
    if (!this.seen && !this.warned && text.includes('\uFFFD')) {
      const bytes = Buffer.concat([this.tail, chunk]);
      // Each � the text holds that the bytes do not: not UTF-8.
      this.seen = count(text, '\uFFFD') > countBytes(bytes, REPLACEMENT);
    }
    this.tail = chunk.subarray(Math.max(0, chunk.length - (REPLACEMENT.length - 1)));
  }

  check(rows: readonly RawRow[]): void {
    if (!this.seen || this.warned) return;
    const row = rows.find(({ cells }) => cells.some((cell) => cell.includes('\uFFFD')));
    if (!row) return;
    this.warned = true;
    this.warn({
      code: 'not_utf8',
      message:
        `Row ${row.line} holds bytes that are not UTF-8, though the file's first megabyte is: they read as “\uFFFD”. ` +
        'Save the file as UTF-8 (CSV UTF-8 in Excel) and import it again.',
    });
  }
}

function count(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

function countBytes(bytes: Buffer, part: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(part); at !== -1; at = bytes.indexOf(part, at + part.length)) n++;
  return n;
}
