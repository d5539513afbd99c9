import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ExportResult, ExportRows, ExportTarget } from './export-target';
import { ExportError, exportLabel, writeFailed } from './export-error';
import { writeViaPartFile } from './part-file';
import { pagesOf } from './row-pages';
import { isFileError } from './csv-export';
import { SHEET_HEAD, columnLetters, rowXml, sheetTail, workbookParts } from './xlsx-parts';
import { DEFLATE_LEVEL, XlsxCells, XmlChunks } from './xlsx-rows';
import { ZipTooLarge, ZipWriter } from './zip-writer';

export const XLSX_MAX_ROWS = 1_048_576;
export const XLSX_MAX_COLUMNS = 16_384;
const DEFAULT_SHEET_NAME = 'Sheet1';
/** Rows between turns of the event loop: other calls are answered while a large export is written. */
const ROWS_PER_TURN = 500;

/**
 * An .xlsx written as it goes (xlsx-parts.ts, zip-writer.ts): header row bold, frozen and filtered, strings as inline
 * strings (so a formula-looking string stays text: no cell is ever a formula), numbers as numbers. Inline strings keep
 * memory flat, where a shared-strings table would hold every distinct value until the end. Written with exceljs'
 * streaming writer before: its cell, row and style objects made a large export slow, most of it spent building
 * objects and collecting them again.
 */
export async function writeXlsx(target: ExportTarget, headers: string[], rows: ExportRows): Promise<ExportResult> {
  if (headers.length > XLSX_MAX_COLUMNS) {
    throw new ExportError(
      'too_many_columns',
      target.path,
      `Can't save ${exportLabel(target.path)}: an Excel sheet holds at most ${XLSX_MAX_COLUMNS.toLocaleString('en-US')} columns and this export has ${headers.length.toLocaleString('en-US')}. Export as CSV instead.`,
    );
  }
  return writeViaPartFile(target.path, async (partPath) => {
    const stream = createWriteStream(partPath, { flush: true });
    let failure: unknown = null;
    stream.on('error', (err) => (failure ??= err));
    const cells = new XlsxCells();
    const tooManyRows = () =>
      new ExportError(
        'too_many_rows',
        target.path,
        `Can't save ${exportLabel(target.path)}: an Excel sheet holds at most ${XLSX_MAX_ROWS.toLocaleString('en-US')} rows and this export has more. Export as CSV instead.`,
      );
    let count = 0;
    try {
      const zip = new ZipWriter(stream, { level: DEFLATE_LEVEL });
      for (const [path, xml] of workbookParts(sheetName(target.sheetName))) await zip.add(path, xml);
      const letters = columnLetters(headers.length);
      await zip.stream('xl/worksheets/sheet1.xml', async (write, append) => {
        const chunks = new XmlChunks(write);
        // Every header is a cell, an empty one too: a reader takes the sheet's width from the header row.
        await chunks.put(SHEET_HEAD + rowXml(1, headers.map((header) => cells.value(header) ?? ''), letters, 1));
        for await (const page of pagesOf(rows)) {
          for (const row of page) {
            if (count + 1 >= XLSX_MAX_ROWS) throw tooManyRows();
            count++;
            await chunks.put(rowXml(count + 1, row.map(cells.value), letters));
            if (count % ROWS_PER_TURN === 0) {
              await nextTurn();
              if (failure) throw failure;
            }
          }
        }
        // The rows after these, written and compressed on another thread (runs/export-halves.ts), numbered on from them.
        const after = 'pages' in rows ? await rows.sheetAfter?.() : null;
        if (after) {
          count += after.rows;
          if (count >= XLSX_MAX_ROWS) throw tooManyRows();
          cells.truncated += after.truncatedCells;
          await chunks.flush();
          await append(after);
        }
        await chunks.put(sheetTail(headers.length, count + 1));
        await chunks.flush();
      });
      await zip.finish();
      stream.end();
      await once(stream, 'close');
      if (failure) throw failure;
      return cells.truncated > 0 ? { rows: count, truncatedCells: cells.truncated } : { rows: count };
    } catch (err) {
      await abandon(stream);
      if (err instanceof ZipTooLarge) {
        throw new ExportError('too_large', target.path, `Can't save ${exportLabel(target.path)}: the Excel file would pass 4 GB, more than it can hold. Export as CSV instead.`);
      }
      if (isFileError(err)) throw writeFailed(target.path, err);
      throw err;
    }
  }, target.together, target.unfinished);
}

/** Closes the part file at once (before it is removed); a write cut off then fails, and `failure` took it already. */
async function abandon(stream: WriteStream): Promise<void> {
  if (!stream.closed) {
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
    stream.destroy();
    await closed;
  }
}

/** Excel's rules: 1 to 31 characters, none of : \ / ? * [ ], not starting or ending with an apostrophe. */
function sheetName(wanted: string | undefined): string {
  const cleaned = (wanted ?? DEFAULT_SHEET_NAME).replace(/[:\\/?*[\]]/g, ' ').replace(/^'+|'+$/g, '').trim().slice(0, 31).trim();
  return cleaned || DEFAULT_SHEET_NAME;
}
