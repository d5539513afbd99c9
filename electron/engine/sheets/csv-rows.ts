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
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      onBytes(stream.bytesRead);
      pending += decoder.write(chunk);
      if (pending.length < parseAt) continue;
      const result = parseCsvText(pending, delimiter, false);
      pending = pending.slice(result.cursor);
      if (result.records.length > 0) yield result.records.map((cells) => ({ cells, line: ++line }));
      parseAt = pending.length + Math.max(PARSE_CHARS, pending.length);
      if (pending.length > inspectAt) {
        inspectTail(parseCsvText(pending, delimiter, true).records[0] ?? [], maxCellBytes, line + 1);
        inspectAt = pending.length * 2;
      }
    }
    pending += decoder.end() ?? '';
    const { records, unclosed } = parseCsvText(pending, delimiter, true);
    // The unclosed quote ran to the end of the file: if that made a cell too large, say that it is why.
    if (unclosed && records.length > 0) inspectTail(records[records.length - 1]!, maxCellBytes, line + records.length);
    if (records.length > 0) yield records.map((cells) => ({ cells, line: ++line }));
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
function inspectTail(cells: string[], maxCellBytes: number, line: number): void {
  let widest = 0;
  cells.forEach((cell, i) => {
    if (cell.length > cells[widest].length) widest = i;
  });
  const bytes = cells.length > 0 ? Buffer.byteLength(cells[widest]) : 0;
  if (bytes > maxCellBytes) throw new OversizedCell(line, widest + 1, bytes, true);
}
