import iconv from 'iconv-lite';
import type { OpenSheetOptions, OpenedSheet, RawRow, SheetInfo, SheetWarning } from './opened-sheet';
import { SheetError, fileLabel } from './sheet-error';
import { readStart } from './file-access';
import { SAMPLE_BYTES, sniffFile } from './sniff-file';
import { explainOfficeContainer } from './office-container';
import { readWorkbookOutline, type WorkbookOutline, type WorkbookSheet } from './xlsx-workbook';
import { sniffLayout } from './sniff-delimiter';
import { csvRows } from './csv-rows';
import { xlsxRows } from './xlsx-rows';
import { scanTable, type TableContext } from './table-scan';
import { uniqueHeaders } from './unique-headers';
import { MAX_DATA_ROWS, textLineCount, tooManyRows } from './row-limit';
import { worksheetLastRow } from './worksheet-dimension';

const DEFAULT_MAX_COLUMNS = 1000;
const DEFAULT_MAX_CELL_BYTES = 1024 * 1024;
/** Enough text for the 200 records the delimiter sniffer looks at in any sane file. */
const SNIFF_BYTES = 256 * 1024;

/**
 * Opens a CSV/TSV or XLSX file for streaming import. The format is decided by content, not by name. Reads up to
 * the first data row, so an empty, header-only, unreadable or oversized start fails here with a SheetError.
 */
export async function openSheet(path: string, opts: OpenSheetOptions = {}): Promise<OpenedSheet> {
  const limits = { maxColumns: opts.maxColumns ?? DEFAULT_MAX_COLUMNS, maxCellBytes: opts.maxCellBytes ?? DEFAULT_MAX_CELL_BYTES };
  const maxRows = opts.maxRows ?? MAX_DATA_ROWS;
  const { size, start } = await readStart(path, SAMPLE_BYTES);
  if (size === 0) throw emptyFile(path, '');
  const kind = sniffFile(path, start, size);
  const warnings: SheetWarning[] = [];
  let info: SheetInfo;
  let where = '';
  let source: () => AsyncIterable<RawRow[]>;
  let fractionRead: (rowsRead: number) => number;
  if (kind.kind === 'cfb') throw await explainOfficeContainer(path);
  if (kind.kind === 'zip') {
    const outline = await readWorkbookOutline(path);
    const sheet = chooseSheet(path, outline, opts.sheet);
    info = { format: 'xlsx', sheetName: sheet.name, sheetNames: visibleNames(outline) };
    where = `the sheet “${sheet.name}” in `;
    // How far the latest pass through the worksheet's stored bytes is: for an xlsx without its dimension.
    let partRead = 0;
    source = () => xlsxRows(path, outline, sheet, (fraction) => (partRead = fraction), limits.maxCellBytes);
    const lastRow = await worksheetLastRow(path, outline, sheet);
    // The dimension Excel writes at the top of a worksheet gives its size before any row is read; the rows below
    // the header are the last row less the header's (usually row 1).
    if (lastRow !== null && lastRow - 1 > maxRows) throw tooManyRows(path, where, lastRow - 1, maxRows);
    fractionRead = (rowsRead) => (lastRow !== null && lastRow > 1 ? Math.min(1, rowsRead / (lastRow - 1)) : partRead);
  } else {
    const sniffed = iconv.getDecoder(kind.encoding).write(start.subarray(0, SNIFF_BYTES));
    const layout = { encoding: kind.encoding, ...sniffLayout(sniffed, size <= SNIFF_BYTES) };
    info = { format: 'csv', delimiter: layout.delimiter, encoding: kind.encoding };
    // The bytes read by the latest pass: the import's is the last one made.
    let bytesRead = 0;
    source = () => csvRows(path, layout, limits.maxCellBytes, (w) => warnings.push(w), (bytes) => (bytesRead = bytes));
    fractionRead = () => Math.min(1, bytesRead / size);
    // A file whose first 256 KB put it well under the limit is not counted (the importer still stops at the limit);
    // others get a cheap bound (line breaks), and only one that may be over is parsed through to count its rows.
    const sampleLines = sniffed.split(/\r\n|\r|\n/).length;
    const likelyRows = (size / Math.max(1, Math.min(start.length, SNIFF_BYTES))) * sampleLines;
    if (likelyRows * 2 > maxRows && (await textLineCount(path, kind.encoding)) - 1 > maxRows) {
      const rows = await countDataRows(scanTable(source(), { path, where, limits, padShortRows: false, warnings: [] }));
      if (rows > maxRows) throw tooManyRows(path, where, rows, maxRows);
    }
  }
  const ctx: TableContext = { path, where, limits, padShortRows: info.format === 'xlsx', warnings };
  let firstPass: AsyncGenerator<string[][]> | null = scanTable(source(), ctx);
  const header = await firstPass.next();
  if (header.done) throw emptyFile(path, where);
  const named = uniqueHeaders(header.value[0]!);
  ctx.headers = named.headers;
  const firstRows = await firstPass.next();
  if (firstRows.done) throw new SheetError('header_only', path, `${capitalize(where)}${fileLabel(path)} has a header row but no data rows below it.`);
  warnings.unshift(...named.warnings);

  async function* rowBatches(): AsyncGenerator<string[][]> {
    if (firstPass) {
      const pass = firstPass;
      firstPass = null;
      yield firstRows.value as string[][];
      yield* pass;
      return;
    }
    const pass = scanTable(source(), ctx);
    if ((await pass.next()).done) return;
    yield* pass;
  }

  async function* rows(): AsyncGenerator<string[]> {
    for await (const batch of rowBatches()) yield* batch;
  }

  return {
    info,
    headers: named.headers,
    warnings,
    firstRow: ctx.headerLine! + 1,
    rows,
    rowBatches,
    maxRows,
    tooManyRows: (count) => tooManyRows(path, where, count, maxRows),
    fractionRead,
    async close() {
      const pass = firstPass;
      firstPass = null;
      await pass?.return(undefined);
    },
  };
}

/** Visible worksheet names of an xlsx in tab order; [] for a text sheet, which has no worksheets. */
export async function listSheets(path: string): Promise<string[]> {
  const { size, start } = await readStart(path, 64 * 1024);
  if (size === 0) throw emptyFile(path, '');
  const kind = sniffFile(path, start, size);
  if (kind.kind === 'cfb') throw await explainOfficeContainer(path);
  if (kind.kind === 'text') return [];
  return visibleNames(await readWorkbookOutline(path));
}

async function countDataRows(pass: AsyncGenerator<string[][]>): Promise<number> {
  let rows = -1;
  for await (const batch of pass) rows += batch.length;
  return Math.max(0, rows);
}

function visibleNames(outline: WorkbookOutline): string[] {
  return outline.sheets.filter((s) => s.visible).map((s) => s.name);
}

/** By name when asked (hidden sheets included: the user named it), else the first visible sheet in tab order. */
function chooseSheet(path: string, outline: WorkbookOutline, wanted: string | undefined): WorkbookSheet {
  if (wanted !== undefined) {
    const exact = outline.sheets.find((s) => s.name === wanted);
    const loose = outline.sheets.find((s) => s.name.trim().toLowerCase() === wanted.trim().toLowerCase());
    const sheet = exact ?? loose;
    if (sheet) return sheet;
    const names = visibleNames(outline);
    throw new SheetError(
      'sheet_not_found',
      path,
      `${fileLabel(path)} has no sheet named “${wanted}”. ` +
        (names.length > 0 ? `Its sheets are: ${names.map((n) => `“${n}”`).join(', ')}.` : 'It has no visible sheets.'),
    );
  }
  const sheet = outline.sheets.find((s) => s.visible);
  if (!sheet) throw new SheetError('empty', path, `${fileLabel(path)} has no visible worksheets: there is nothing to import.`);
  return sheet;
}

function emptyFile(path: string, where: string): SheetError {
  return new SheetError('empty', path, `${capitalize(where)}${fileLabel(path)} is empty: there is nothing to import.`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
