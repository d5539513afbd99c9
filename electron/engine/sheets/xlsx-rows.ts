import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { RawRow } from './opened-sheet';
import { corruptWorkbook, type WorkbookOutline, type WorkbookSheet } from './xlsx-workbook';
import { streamPart, type PartLocation } from './zip-directory';
import { cellText } from './cell-text';
import { SheetError, columnLetter, fileLabel, formatBytes } from './sheet-error';
import { isFileError, unreadable } from './file-access';
import { SharedStrings, readSharedStrings } from './shared-strings';
import { INFLATE_CAPS, InflateBudget, PartTooLarge } from './inflate-limits';
import { guardXmlText, type SharedStringsCut } from './xml-text-guard';
import { OversizedCell } from './oversized-cell';
import { numberFormats } from './xlsx-styles';
import { C, IS, NeedsGuard, ROW, RPH, SHEET_DATA, T, V, XmlTags, forEachAttribute, type XmlHandler } from './xml-tags';
import { decodeXml } from './xml-elements';

/** Excel's last column, XFD: a cell said to be past it is damage, and would make a row of billions of cells. */
const MAX_COLUMN = 16_384;
/** Excel's last row. */
const MAX_ROW = 1_048_576;

/**
 * Rows of one worksheet, read by a scan of its XML as it is inflated (xml-tags.ts): the shared strings go into
 * SharedStrings first, the styles' number formats are read, then the one worksheet part is streamed straight from its
 * place in the file, without inflating the others. Every part is inflated within its limits (inflate-limits.ts).
 * A row keeps its number (`r`) and each cell its column letters, so rows and cells a sheet leaves out stay blank at
 * their place; cells and rows without `r` follow the one before.
 * Each part is scanned first without guardXmlText, whose byte-by-byte count cost as much as the scan itself: while
 * every text run, cell and tag stays under a third of its limit in characters, no limit can be at stake (a character
 * is at most 3 bytes). The first that does not (NeedsGuard) has the part read again from its start through the guard,
 * which counts exactly, names a cell over the limit and ends the shared strings at one; the rows already given are
 * not given again.
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
  const open: Readable[] = [];
  let budget = new InflateBudget();
  const stream = (location: PartLocation, cap: number, onPartRead?: (fraction: number) => void): Readable => {
    const s = streamPart(path, location, onPartRead, { cap, budget });
    open.push(s);
    return s;
  };
  const labels = new Map<string, string>([[part.name, `the sheet “${sheet.name}”`]]);
  const maxChars = Math.floor(maxCellBytes / 3);
  try {
    let shared = new SharedStrings();
    const sharedStrings = outline.sharedStrings;
    if (sharedStrings) {
      labels.set(sharedStrings.name, 'its shared strings');
      try {
        await readSharedStrings(stream(sharedStrings, INFLATE_CAPS.sharedStrings), shared, maxChars);
      } catch (err) {
        if (!(err instanceof NeedsGuard)) throw err;
        // The first part read: counted again from nothing.
        budget = new InflateBudget();
        shared = new SharedStrings();
        const cut: SharedStringsCut = { index: null };
        await readSharedStrings(guardXmlText(stream(sharedStrings, INFLATE_CAPS.sharedStrings), 'sharedStrings', maxCellBytes, cut), shared);
        if (cut.index !== null) shared.endAt(cut.index);
      }
    }
    let formats: (string | undefined)[] = [];
    if (outline.styles) {
      labels.set(outline.styles.name, 'its styles');
      const decoder = new StringDecoder('utf8');
      let xml = '';
      for await (const chunk of stream(outline.styles, INFLATE_CAPS.other) as AsyncIterable<Buffer>) xml += decoder.write(chunk);
      formats = numberFormats(xml + decoder.end());
    }
    const table = shared;
    const beforeSheet = budget.used;
    const pass = (guarded: boolean): AsyncGenerator<RawRow[]> => {
      const inflated = stream(part, INFLATE_CAPS.worksheet, onRead) as AsyncIterable<Buffer>;
      const source = guarded ? guardXmlText(inflated, 'worksheet', maxCellBytes) : inflated;
      const pastEnd = (index: number, line: number, column: number) => pastSharedEnd(path, sheet, table, index, line, column, maxCellBytes);
      return worksheetRows(source, new WorksheetReader(table, formats, outline.date1904, pastEnd, guarded ? Infinity : maxChars), guarded ? Infinity : maxChars);
    };
    let given = 0;
    try {
      for await (const rows of pass(false)) {
        given += rows.length;
        yield rows;
      }
    } catch (err) {
      if (!(err instanceof NeedsGuard)) throw err;
      // The worksheet's first read is not counted twice: the other parts' bytes, then this read's.
      budget = new InflateBudget();
      budget.take(part.name, beforeSheet);
      for await (const rows of pass(true)) {
        const skipped = Math.min(given, rows.length);
        given -= skipped;
        if (skipped < rows.length) yield skipped > 0 ? rows.slice(skipped) : rows;
      }
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

/** One read of the worksheet's XML through `reader`: a chunk's rows at a time, like csvRows. */
async function* worksheetRows(source: AsyncIterable<Buffer>, reader: WorksheetReader, maxChars: number): AsyncGenerator<RawRow[]> {
  const tags = new XmlTags(reader, maxChars);
  const decoder = new StringDecoder('utf8');
  for await (const chunk of source) {
    tags.feed(decoder.write(chunk));
    // The rows above go first, so that the header can name the cell's column.
    if (reader.rows.length > 0) yield reader.take();
    if (reader.failure) throw reader.failure;
    if (reader.done) return;
  }
  tags.feed(decoder.end());
  if (reader.rows.length > 0) yield reader.take();
  if (reader.failure) throw reader.failure;
  if (reader.done) return;
  tags.end();
  if (reader.inRow) throw new Error('the worksheet ends inside a row');
}

/** The rows of `<sheetData>` as its tags come: each cell's text worked out when the cell closes. */
class WorksheetReader implements XmlHandler {
  collecting = false;
  done = false;
  rows: RawRow[] = [];
  /** A cell that uses a shared string the table does not hold (one over the limit, or after it): thrown once the rows above are out. */
  failure: Error | null = null;
  private inSheetData = false;
  private line = 0;
  private cells: string[] | null = null;
  private column = 0;
  private inCell = false;
  private type = '';
  private style = 0;
  private value: string | null = null;
  private inline: string | null = null;
  private inInline = false;
  private phonetic = 0;
  private raw = '';
  readonly quickCode = 0x63;

  constructor(
    private readonly shared: SharedStrings,
    private readonly formats: (string | undefined)[],
    private readonly date1904: boolean,
    private readonly pastEnd: (index: number, line: number, column: number) => Error,
    /** Longer cell text than this throws NeedsGuard. */
    private readonly maxChars: number,
  ) {}

  get inRow(): boolean {
    return this.cells !== null;
  }

  take(): RawRow[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  open(tag: number, xml: string, from: number, to: number, empty: boolean): void {
    if (!this.inSheetData) {
      this.inSheetData = tag === SHEET_DATA && !empty;
      return;
    }
    if (tag === C) {
      if (this.cells === null) return;
      let column = 0;
      let type = '';
      let style = 0;
      forEachAttribute(xml, from, to, (name, value) => {
        if (name === 'r') column = columnNumber(value, 0, value.length);
        else if (name === 't') type = cellType(value, 0, value.length);
        else if (name === 's') style = parseInt(value, 10) || 0;
      });
      this.column = column > 0 ? column : this.column + 1;
      if (this.column > MAX_COLUMN) throw new Error(`a cell in row ${this.line} is past Excel's last column`);
      this.type = type;
      this.style = style;
      this.value = null;
      this.inline = null;
      this.inCell = !empty;
    } else if (tag === ROW) {
      let line = 0;
      forEachAttribute(xml, from, to, (name, value) => {
        if (name === 'r') line = parseInt(value, 10);
      });
      const next = line > 0 ? line : this.line + 1;
      // Rows are kept at their numbers: one out of order or repeated would put the rows after it out of place, and
      // one past Excel's last row would be reached through a million blank ones (Excel repairs such a file on saving).
      if (next <= this.line) throw new Error(`row ${next} comes after row ${this.line}: the worksheet's rows are out of order or repeated`);
      if (next > MAX_ROW) throw new Error(`row ${next} is past Excel's last row`);
      this.line = next;
      this.column = 0;
      if (empty) this.rows.push({ cells: [], line: this.line });
      else this.cells = [];
    } else if (!this.inCell || empty) {
      // An empty <v/> is a cell with no value, as an empty <v></v> is.
    } else if (tag === V) {
      this.collecting = true;
      this.raw = '';
    } else if (tag === IS) {
      this.inInline = true;
      this.inline = '';
    } else if (tag === RPH) {
      this.phonetic++;
    } else if (tag === T && this.inInline && this.phonetic === 0) {
      this.collecting = true;
      this.raw = '';
    }
  }

  /**
   * A whole `<c>` in a shape writers use for a plain value, read with a few string searches rather than tag by tag:
   * `<c .../>`, `<c ...><v>…</v></c>` (Excel's, a shared string's index included) and `<c ...><is><t>…</t></is></c>`
   * (ours). Anything else (a formula, rich text, a prefix, a cell cut by the chunk's end) is left to the tags: -1.
   */
  quick(xml: string, lt: number): number {
    if (!this.inSheetData || this.cells === null) return -1;
    let i = lt + 2;
    let code = xml.charCodeAt(i);
    if (code !== 0x20) return -1;
    let column = 0;
    let type = '';
    let style = 0;
    for (;;) {
      while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = xml.charCodeAt(++i);
      if (code === 0x3e || code === 0x2f) break;
      const eq = xml.indexOf('=', i);
      if (eq < 0) return -1;
      const quote = xml.charCodeAt(eq + 1);
      if (quote !== 0x22 && quote !== 0x27) return -1;
      const close = xml.indexOf(quote === 0x22 ? '"' : "'", eq + 2);
      if (close < 0) return -1;
      if (eq - i === 1) {
        const name = xml.charCodeAt(i);
        if (name === 0x72) column = columnNumber(xml, eq + 2, close);
        else if (name === 0x74) type = cellType(xml, eq + 2, close);
        else if (name === 0x73) style = parseInt(xml.slice(eq + 2, close), 10) || 0;
      }
      i = close + 1;
      code = xml.charCodeAt(i);
    }
    let end: number;
    let value: string | null = null;
    let inline: string | null = null;
    if (code === 0x2f) {
      if (xml.charCodeAt(i + 1) !== 0x3e) return -1;
      end = i + 2;
    } else if (xml.startsWith('<v>', i + 1)) {
      const stop = xml.indexOf('<', i + 4);
      if (stop < 0 || !xml.startsWith('</v></c>', stop)) return -1;
      if (stop - i - 4 > this.maxChars) throw new NeedsGuard();
      value = xml.slice(i + 4, stop);
      end = stop + 8;
    } else if (xml.startsWith('<is><t>', i + 1)) {
      const stop = xml.indexOf('<', i + 8);
      if (stop < 0 || !xml.startsWith('</t></is></c>', stop)) return -1;
      if (stop - i - 8 > this.maxChars) throw new NeedsGuard();
      inline = decodeXml(xml.slice(i + 8, stop));
      end = stop + 13;
    } else {
      return -1;
    }
    this.column = column > 0 ? column : this.column + 1;
    if (this.column > MAX_COLUMN) throw new Error(`a cell in row ${this.line} is past Excel's last column`);
    this.type = type;
    this.style = style;
    this.value = value;
    this.inline = inline;
    this.closeCell(this.cells);
    return end;
  }

  text(raw: string): void {
    this.raw += raw;
  }

  close(tag: number): void {
    if (tag === V) {
      if (this.collecting) this.value = this.raw;
      this.collecting = false;
      if (this.raw.length > this.maxChars) throw new NeedsGuard();
    } else if (tag === T) {
      if (this.collecting) this.inline += decodeXml(this.raw);
      this.collecting = false;
      if (this.inline !== null && this.inline.length > this.maxChars) throw new NeedsGuard();
    } else if (tag === C) {
      if (this.inCell && this.cells !== null) this.closeCell(this.cells);
      this.inCell = false;
      this.inInline = false;
      this.phonetic = 0;
    } else if (tag === ROW) {
      const cells = this.cells;
      if (cells === null) return;
      this.cells = null;
      if (this.failure) {
        this.done = true;
        return;
      }
      for (let i = 0; i < cells.length; i++) cells[i] ??= '';
      this.rows.push({ cells, line: this.line });
    } else if (tag === IS) {
      this.inInline = false;
    } else if (tag === RPH) {
      this.phonetic = Math.max(0, this.phonetic - 1);
    } else if (tag === SHEET_DATA) {
      this.done = true;
    }
  }

  private closeCell(cells: string[]): void {
    if (this.type === 's') {
      if (this.value === null) return;
      const index = parseInt(this.value, 10);
      if (this.shared.isPastEnd(index)) {
        this.failure ??= this.pastEnd(index, this.line, this.column);
        return;
      }
      const text = this.shared.get(index);
      // A text the workbook does not hold (its shared strings cut short or missing) is damage, not an empty cell.
      if (text === undefined) this.failure ??= new Error(`the cell in row ${this.line}, column ${this.column} names shared string ${this.value}, which the workbook does not hold`);
      else cells[this.column - 1] = text;
      return;
    }
    const text = cellText(this.type, this.value, this.inline, this.formats[this.style], this.date1904);
    if (text !== undefined) cells[this.column - 1] = text;
  }
}

/** A cell's type (`t`) in text[from, to], as one of the strings cellText knows (no string made per cell); '' for a number. */
function cellType(text: string, from: number, to: number): string {
  const length = to - from;
  const first = text.charCodeAt(from);
  if (length === 1) return first === 0x73 ? 's' : first === 0x62 ? 'b' : first === 0x65 ? 'e' : first === 0x64 ? 'd' : '';
  if (length === 3 && text.startsWith('str', from)) return 'str';
  if (length === 9 && text.startsWith('inlineStr', from)) return 'inlineStr';
  return '';
}

/** The column of the cell reference in text[from, to] by its letters (`AB12` is 28), 0 when it has none. */
function columnNumber(text: string, from: number, to: number): number {
  let column = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i) | 0x20;
    if (code < 0x61 || code > 0x7a) break;
    column = column * 26 + (code - 0x60);
  }
  return column;
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
