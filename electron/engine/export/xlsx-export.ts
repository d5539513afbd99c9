import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { ExportCell, ExportResult, ExportRows, ExportTarget } from './export-target';
import { ExportError, exportLabel, writeFailed } from './export-error';
import { writeViaPartFile } from './part-file';
import { isFileError } from './csv-export';

export const XLSX_MAX_ROWS = 1_048_576;
export const XLSX_MAX_COLUMNS = 16_384;
export const XLSX_MAX_CELL_CHARS = 32_767;
const DEFAULT_SHEET_NAME = 'Sheet1';
/** Rows between looks at the compressor's queue (and turns of the event loop for the zip to work). */
const ROWS_PER_TURN = 500;

/**
 * An .xlsx through exceljs' streaming writer: header row bold and frozen, strings as inline strings (so a
 * formula-looking string stays text; exceljs only writes a formula for a {formula} value), numbers as numbers.
 * Inline strings keep memory flat, where a shared-strings table would hold every distinct value until the end.
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
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    styleEmptyCellsOnce(workbook);
    const zip = (workbook as unknown as { zip: NodeJS.EventEmitter & { abort(): void } }).zip;
    zip.on('error', (err: unknown) => (failure ??= err));
    let truncated = 0;
    const cellValue = (cell: ExportCell): string | number | null => {
      if (cell === null || cell === undefined) return null;
      if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
      // XML reads CR LF (and a lone CR) back as LF, which is also how Excel breaks lines inside a cell.
      const text = String(cell).replace(/\r\n?/g, '\n');
      if (text.length <= XLSX_MAX_CELL_CHARS) return text;
      truncated++;
      return text.slice(0, XLSX_MAX_CELL_CHARS);
    };
    try {
      const sheet = workbook.addWorksheet(sheetName(target.sheetName), { views: [{ state: 'frozen', ySplit: 1 }] });
      const header = sheet.addRow(headers.map(cellValue));
      header.font = { bold: true };
      header.commit();
      let count = 0;
      for await (const row of rows) {
        if (count + 1 >= XLSX_MAX_ROWS) {
          throw new ExportError(
            'too_many_rows',
            target.path,
            `Can't save ${exportLabel(target.path)}: an Excel sheet holds at most ${XLSX_MAX_ROWS.toLocaleString('en-US')} rows and this export has more. Export as CSV instead.`,
          );
        }
        sheet.addRow(row.map(cellValue)).commit();
        count++;
        if (count % ROWS_PER_TURN === 0) {
          await nextTurn();
          await compressorCaughtUp(sheet);
          if (failure) throw failure;
        }
      }
      sheet.commit();
      await workbook.commit();
      if (failure) throw failure;
      return truncated > 0 ? { rows: count, truncatedCells: truncated } : { rows: count };
    } catch (err) {
      await abandon(zip, stream);
      if (isFileError(err)) throw writeFailed(target.path, err);
      throw err;
    }
  }, target.together);
}

/**
 * exceljs gives every cell a new, empty style object and looks each one up in a WeakMap of the styles it has seen:
 * 19 million entries for a 1M-row export, whose upkeep made V8's collector slower the longer the export ran
 * (at 1M rows: 200 s of CPU against 12.4 s at 100k; addStyleModel 30 s and the collector 92 s of the profile).
 * An empty style gets the same style id every time for a given cell type, so it is worked out once per type.
 */
function styleEmptyCellsOnce(workbook: unknown): void {
  const styles = (workbook as { styles?: { addStyleModel?: (model: unknown, cellType?: unknown) => number } }).styles;
  const addStyleModel = styles?.addStyleModel?.bind(styles);
  if (!styles || !addStyleModel) return;
  const emptyIds = new Map<unknown, number>();
  styles.addStyleModel = (model, cellType) => {
    if (!model || typeof model !== 'object' || Object.keys(model).length > 0) return addStyleModel(model, cellType);
    let id = emptyIds.get(cellType);
    if (id === undefined) emptyIds.set(cellType, (id = addStyleModel({}, cellType)));
    return id;
  };
}

/**
 * exceljs' worksheet stream hands each 64 KB of XML to the zip's deflate stream without waiting for it, so rows came
 * in faster than they were compressed and the queue held the sheet: measured, 1,000,000 rows of the bench's export
 * peaked at 1.1 GB. Waiting here whenever the deflate stream says it is full keeps the queue at its high-water mark.
 */
async function compressorCaughtUp(sheet: unknown): Promise<void> {
  // The zip's streams come from readable-stream 2, which has no writableNeedDrain: its state says the same.
  type ZipInput = NodeJS.EventEmitter & { destroyed?: boolean; _writableState?: { needDrain?: boolean } };
  const pipes = (sheet as { stream?: { pipes?: ZipInput[] } }).stream?.pipes ?? [];
  for (const pipe of pipes) {
    if (pipe._writableState?.needDrain && !pipe.destroyed) await once(pipe, 'drain');
  }
}

async function abandon(zip: { abort(): void }, stream: WriteStream): Promise<void> {
  try {
    zip.abort();
  } catch {
    // Already finished or failed: nothing left to stop.
  }
  if (!stream.closed) {
    const closed = once(stream, 'close').catch(() => undefined);
    stream.destroy();
    await closed;
  }
}

/** Excel's rules: 1 to 31 characters, none of : \ / ? * [ ], not starting or ending with an apostrophe. */
function sheetName(wanted: string | undefined): string {
  const cleaned = (wanted ?? DEFAULT_SHEET_NAME).replace(/[:\\/?*[\]]/g, ' ').replace(/^'+|'+$/g, '').trim().slice(0, 31).trim();
  return cleaned || DEFAULT_SHEET_NAME;
}
