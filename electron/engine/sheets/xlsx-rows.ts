import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { RawRow } from './opened-sheet';
import { corruptWorkbook, type WorkbookOutline, type WorkbookSheet } from './xlsx-workbook';
import { streamPart, type PartLocation } from './zip-directory';
import { cellText, type CellLike } from './cell-text';
import { SheetError, columnLetter, fileLabel, formatBytes } from './sheet-error';
import { isFileError, unreadable } from './file-access';
import { SharedStrings, sharedStringText } from './shared-strings';
import { INFLATE_CAPS, InflateBudget, PartTooLarge } from './inflate-limits';
import { guardXmlText, type SharedStringsCut } from './xml-text-guard';
import { OversizedCell } from './oversized-cell';

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
 * straight from its place in the file. Every part is inflated within its limits (inflate-limits.ts), and the shared
 * strings and the worksheet pass through guardXmlText, so no cell reaches the XML parser much past the cell limit.
 */
export async function* xlsxRows(
  path: string,
  outline: WorkbookOutline,
  sheet: WorkbookSheet,
  /** Told the share of the worksheet's stored bytes read so far, as it is read. */
  onRead: ((fraction: number) => void) | undefined,
  maxCellBytes: number,
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
  const budget = new InflateBudget();
  const stream = (location: PartLocation, cap: number, onPartRead?: (fraction: number) => void): Readable => {
    const s = streamPart(path, location, onPartRead, { cap, budget });
    open.push(s);
    return s;
  };
  const labels = new Map<string, string>([[part.name, `the sheet “${sheet.name}”`]]);
  try {
    const shared = new SharedStrings();
    if (outline.sharedStrings) {
      labels.set(outline.sharedStrings.name, 'its shared strings');
      const cut: SharedStringsCut = { index: null };
      const guarded = Readable.from(guardXmlText(stream(outline.sharedStrings, INFLATE_CAPS.sharedStrings), 'sharedStrings', maxCellBytes, cut));
      open.push(guarded);
      for await (const entry of reader._parseSharedStrings(guarded)) shared.add(sharedStringText(entry.text));
      if (cut.index !== null) shared.endAt(cut.index);
    }
    if (outline.styles) {
      labels.set(outline.styles.name, 'its styles');
      await reader._parseStyles(stream(outline.styles, INFLATE_CAPS.other));
    }
    const [emitted] = [...reader._parseWorksheet(guardXmlText(stream(part, INFLATE_CAPS.worksheet, onRead), 'worksheet', maxCellBytes), '1')];
    // A parsed chunk's rows at a time, like csvRows.
    for await (const events of emitted.value.parse()) {
      const rows: RawRow[] = [];
      for (const { eventType, value } of events) {
        if (eventType !== 'row') continue;
        const row = value as WorksheetRow;
        const cells: string[] = [];
        let past: Error | null = null;
        row.eachCell((cell, column) => {
          const value = cell.value as { sharedString?: unknown } | null;
          if (typeof value?.sharedString === 'number' && shared.isPastEnd(value.sharedString)) {
            past ??= pastSharedEnd(path, sheet, shared, value.sharedString, row.number, column, maxCellBytes);
          }
          cells[column - 1] =
            typeof value?.sharedString === 'number' ? (shared.get(value.sharedString) ?? '') : cellText(cell, outline.date1904);
        });
        // The rows above go first, so that the header can name the cell's column.
        if (past) {
          if (rows.length > 0) yield rows;
          throw past;
        }
        for (let i = 0; i < cells.length; i++) cells[i] ??= '';
        rows.push({ cells, line: row.number });
      }
      if (rows.length > 0) yield rows;
    }
  } catch (err) {
    if (err instanceof SheetError || err instanceof OversizedCell) throw err;
    if (err instanceof PartTooLarge) throw tooLarge(path, labels.get(err.part) ?? `its part ${err.part}`, err);
    if (isFileError(err)) throw unreadable(path, err);
    throw corruptWorkbook(path, err);
  } finally {
    for (const s of open) s.destroy();
  }
}

/** A cell that uses the shared string over the limit, or one after it (the table was not read past that one). */
function pastSharedEnd(path: string, sheet: WorkbookSheet, shared: SharedStrings, index: number, line: number, column: number, maxCellBytes: number): Error {
  if (index === shared.end) return new OversizedCell(line, column, maxCellBytes, false, true);
  return new SheetError(
    'cell_too_large',
    path,
    `The cell in row ${line}, column ${columnLetter(column)} of the sheet “${sheet.name}” in ${fileLabel(path)} can't be read: ` +
      `a text stored before its own in the workbook is over ${formatBytes(maxCellBytes)}, and cells may hold at most ${formatBytes(maxCellBytes)}. ` +
      'Find and shorten the long cell, then try again.',
  );
}

function tooLarge(path: string, label: string, err: PartTooLarge): SheetError {
  const plural = label.startsWith('its ');
  const inflates = plural ? 'inflate' : 'inflates';
  const what =
    err.reason === 'ratio'
      ? `${label} ${inflates} to more than ${err.cap} times ${plural ? 'their' : 'its'} stored size, which no real workbook does: ` +
        'it looks made to exhaust memory (a “ZIP bomb”). If it came from a program you trust, open it in Excel, save it again, and retry.'
      : err.reason === 'total'
        ? `its parts inflate to more than ${formatBytes(err.cap)} together, more than Matchdesk reads from one workbook. Save the sheet as CSV, or split it, and try again.`
        : `${label} ${inflates} to more than ${formatBytes(err.cap)}, more than Matchdesk reads from a workbook. Save the sheet as CSV, or split it, and try again.`;
  return new SheetError('too_large', path, `${fileLabel(path)} can't be imported: ${what} Nothing was imported.`, { cause: err });
}
