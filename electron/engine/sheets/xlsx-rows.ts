import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { RawRow } from './opened-sheet';
import { corruptWorkbook, type WorkbookOutline, type WorkbookSheet } from './xlsx-workbook';
import { streamPart, type PartLocation } from './zip-directory';
import { cellText, type CellLike } from './cell-text';
import { SheetError } from './sheet-error';
import { isFileError, unreadable } from './file-access';
import { SharedStrings, sharedStringText } from './shared-strings';

/** The parts of exceljs' WorkbookReader used here: its own part parsers, fed one part at a time. */
interface ReaderInternals {
  properties?: { model: { date1904: boolean } };
  /** With sharedStrings 'emit': each entry as parsed, kept by nobody but the caller. */
  _parseSharedStrings(entry: Readable): AsyncGenerator<{ index: number; text: unknown }>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<Buffer>, sheetNo: string): Generator<{ eventType: string; value: WorksheetParser }>;
}
interface WorksheetParser {
  /** The worksheet's events a parsed chunk at a time (its own async iterator yields them one row at a time). */
  parse(): AsyncGenerator<{ eventType: string; value: unknown }[]>;
}
interface WorksheetRow {
  number: number;
  eachCell(callback: (cell: CellLike, column: number) => void): void;
}

/**
 * Rows of one worksheet, parsed by exceljs' streaming reader. Its own ZIP walk is not used: it can drop the
 * last ZIP entry (exceljs issues #683, PR #2915), which loses every shared string when Excel stores
 * sharedStrings.xml last, and it has to inflate every sheet before the wanted one to temp files. Instead the
 * shared strings and styles are fed to exceljs' part parsers first, then the one worksheet part is streamed
 * straight from its place in the file.
 */
export async function* xlsxRows(
  path: string,
  outline: WorkbookOutline,
  sheet: WorkbookSheet,
  /** Told the share of the worksheet's stored bytes read so far, as it is read. */
  onRead?: (fraction: number) => void,
): AsyncGenerator<RawRow[]> {
  const part = outline.parts.get(sheet.part);
  if (!part) throw corruptWorkbook(path, new Error(`${sheet.part} is missing`));
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    // Emitted, not cached: the table goes into SharedStrings, and a cell that uses it comes as {sharedString: index}.
    sharedStrings: 'emit',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as ReaderInternals;
  // exceljs reads the date system from here when it turns date-formatted numbers into Dates.
  reader.properties = { model: { date1904: outline.date1904 } };
  const open: Readable[] = [];
  const stream = (location: PartLocation, onPartRead?: (fraction: number) => void): Readable => {
    const s = streamPart(path, location, onPartRead);
    open.push(s);
    return s;
  };
  try {
    const shared = new SharedStrings();
    if (outline.sharedStrings) for await (const entry of reader._parseSharedStrings(stream(outline.sharedStrings))) shared.add(sharedStringText(entry.text));
    if (outline.styles) await reader._parseStyles(stream(outline.styles));
    const [emitted] = [...reader._parseWorksheet(stream(part, onRead), '1')];
    // A parsed chunk's rows at a time, like csvRows.
    for await (const events of emitted.value.parse()) {
      const rows: RawRow[] = [];
      for (const { eventType, value } of events) {
        if (eventType !== 'row') continue;
        const row = value as WorksheetRow;
        const cells: string[] = [];
        row.eachCell((cell, column) => {
          const value = cell.value as { sharedString?: unknown } | null;
          cells[column - 1] =
            typeof value?.sharedString === 'number' ? (shared.get(value.sharedString) ?? '') : cellText(cell, outline.date1904);
        });
        for (let i = 0; i < cells.length; i++) cells[i] ??= '';
        rows.push({ cells, line: row.number });
      }
      if (rows.length > 0) yield rows;
    }
  } catch (err) {
    if (err instanceof SheetError) throw err;
    if (isFileError(err)) throw unreadable(path, err);
    throw corruptWorkbook(path, err);
  } finally {
    for (const s of open) s.destroy();
  }
}
