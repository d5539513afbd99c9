import type { RawRow, SheetWarning } from './opened-sheet';
import { OversizedCell } from './oversized-cell';
import { SheetError, columnLetter, fileLabel, formatBytes } from './sheet-error';

export interface TableLimits {
  maxColumns: number;
  maxCellBytes: number;
}

/** What one read of a sheet shares with the OpenedSheet: limits, names for messages, and the warnings list. */
export interface TableContext {
  path: string;
  /** "the sheet “People” in" for an xlsx, so messages say where; empty for CSV. */
  where: string;
  limits: TableLimits;
  /** An xlsx row ends at its last filled cell, so a short row is not ragged there: it is padded to the header. */
  padShortRows: boolean;
  warnings: SheetWarning[];
  headers?: string[];
  /** The header row's number, once it is read. */
  headerLine?: number;
}

/** Blank rows yielded at most at a time, so a long run of them (an xlsx's gap of rows) is never in memory at once. */
const BLANK_BATCH = 2500;

/**
 * One pass over a sheet: yields the header row (the first non-empty row) alone, then every row below it down to the
 * last data row, each at its place: the first data row alone (after any blank rows above it), then the others in
 * batches as the reader gave them (never an empty one). A blank row (no cell with more than spaces, or a row an xlsx
 * leaves out) comes as [], so row k below the header is the sheet's row headerLine + k; blank rows after the last
 * data row are dropped, as nothing after them can shift. Enforces the column and cell-size limits and counts ragged
 * and blank rows into the warnings, replacing the counts of any earlier pass. The header and the first data row come
 * on their own so that opening a sheet reads no further than them, and the caller names the columns (ctx.headers)
 * before any data row is checked.
 */
export async function* scanTable(raw: AsyncIterable<RawRow[]>, ctx: TableContext): AsyncGenerator<string[][]> {
  const counters = new PassCounters(ctx.warnings);
  const maxCellChars = Math.floor(ctx.limits.maxCellBytes / 3);
  let width = -1;
  let previousLine = 0;
  let pendingBlank = 0;
  let firstDataRow = false;
  try {
    for await (const batch of raw) {
      let out: string[][] = [];
      for (const { cells, line } of batch) {
        if (width >= 0) pendingBlank += Math.max(0, line - previousLine - 1);
        previousLine = line;
        if (isEmptyRow(cells)) {
          if (width >= 0) pendingBlank++;
          continue;
        }
        if (cells.length > ctx.limits.maxColumns) {
          checkColumnCount(cells, line, ctx);
          // Within the limit but for empty cells at its end (a line ending in a long run of delimiters): those are
          // dropped down to the header's width, or every row would be stored and exported that wide.
          trimTrailingEmpty(cells, Math.max(width, 0));
        }
        for (let c = 0; c < cells.length; c++) {
          const cell = cells[c];
          if (cell.length > maxCellChars) {
            const bytes = Buffer.byteLength(cell);
            if (bytes > ctx.limits.maxCellBytes) throw cellTooLarge(ctx, new OversizedCell(line, c + 1, bytes));
          }
        }
        if (width < 0) {
          width = cells.length;
          ctx.headerLine = line;
          yield [cells];
          continue;
        }
        if (pendingBlank > 0) {
          counters.blankRows(pendingBlank);
          if (pendingBlank > BLANK_BATCH && out.length > 0) {
            yield out;
            out = [];
          }
          for (; pendingBlank > BLANK_BATCH; pendingBlank -= BLANK_BATCH) yield blankRows(BLANK_BATCH);
          out.push(...blankRows(pendingBlank));
          pendingBlank = 0;
        }
        if (ctx.padShortRows) {
          while (cells.length > width && cells[cells.length - 1] === '') cells.pop();
          while (cells.length < width) cells.push('');
        }
        if (cells.length !== width) counters.raggedRow();
        if (!firstDataRow) {
          firstDataRow = true;
          out.push(cells);
          yield out;
          out = [];
          continue;
        }
        out.push(cells);
      }
      if (out.length > 0) yield out;
    }
  } catch (err) {
    if (err instanceof OversizedCell) throw cellTooLarge(ctx, err);
    throw err;
  } finally {
    counters.finish();
  }
}

function blankRows(n: number): string[][] {
  return Array.from({ length: n }, () => []);
}

function isEmptyRow(cells: string[]): boolean {
  for (const cell of cells) if (cell.length > 0 && cell.trim() !== '') return false;
  return true;
}

/** Drops the blank cells at the end of `cells` past the first `keep`. */
function trimTrailingEmpty(cells: string[], keep: number): void {
  let used = cells.length;
  while (used > keep && cells[used - 1]!.trim() === '') used--;
  cells.length = used;
}

/** Trailing empty cells (a run of delimiters at the end of a line) do not count as columns. */
function checkColumnCount(cells: string[], line: number, ctx: TableContext): void {
  let used = cells.length;
  while (used > 0 && cells[used - 1].trim() === '') used--;
  if (used <= ctx.limits.maxColumns) return;
  throw new SheetError(
    'too_many_columns',
    ctx.path,
    `${capitalize(ctx.where)}${fileLabel(ctx.path)} has ${used.toLocaleString('en-US')} columns in row ${line}; ` +
      `Matchdesk reads at most ${ctx.limits.maxColumns.toLocaleString('en-US')}. Remove the columns you don't need and try again.`,
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function cellTooLarge(ctx: TableContext, cell: OversizedCell): SheetError {
  const name = ctx.headers?.[cell.column - 1];
  const column = `column ${columnLetter(cell.column)}${name ? ` (“${name}”)` : ''}`;
  const size = cell.unfinished ? `over ${formatBytes(cell.bytes)} and still going` : cell.atLeast ? `over ${formatBytes(cell.bytes)}` : formatBytes(cell.bytes);
  const hint = cell.inOpenQuote ? ' This often means a quote (") that is never closed.' : '';
  return new SheetError(
    'cell_too_large',
    ctx.path,
    `The cell in row ${cell.line}, ${column} of ${ctx.where}${fileLabel(ctx.path)} is ${size}; ` +
      `cells may hold at most ${formatBytes(ctx.limits.maxCellBytes)}.${hint} Shorten it and try again.`,
  );
}

/** Warnings that describe one read of the rows, so each pass replaces them. */
const PASS_WARNINGS = new Set(['ragged_rows', 'blank_rows_kept', 'unclosed_quote', 'not_utf8']);

/** Ragged and blank-row counts of one pass; the warning objects are created on first need and kept up to date. */
class PassCounters {
  private ragged: SheetWarning | null = null;
  private blank: SheetWarning | null = null;

  constructor(private readonly warnings: SheetWarning[]) {
    for (let i = warnings.length - 1; i >= 0; i--) if (PASS_WARNINGS.has(warnings[i].code)) warnings.splice(i, 1);
  }

  raggedRow(): void {
    if (!this.ragged) {
      this.ragged = { code: 'ragged_rows', message: '', count: 0 };
      this.warnings.push(this.ragged);
    }
    this.ragged.count!++;
    if (this.ragged.count === 1) this.describe();
  }

  blankRows(n: number): void {
    if (!this.blank) {
      this.blank = { code: 'blank_rows_kept', message: '', count: 0 };
      this.warnings.push(this.blank);
    }
    this.blank.count! += n;
    this.describe();
  }

  finish(): void {
    this.describe();
  }

  private describe(): void {
    if (this.ragged) {
      const n = this.ragged.count!;
      this.ragged.message = `${n.toLocaleString('en-US')} ${n === 1 ? 'row has' : 'rows have'} more or fewer cells than the header row; ${n === 1 ? 'it was' : 'they were'} kept as ${n === 1 ? 'it is' : 'they are'}.`;
    }
    if (this.blank) {
      const n = this.blank.count!;
      this.blank.message = `${n.toLocaleString('en-US')} blank ${n === 1 ? 'row' : 'rows'} between the data rows ${n === 1 ? 'was' : 'were'} kept in place, so the rows keep their numbers; ${n === 1 ? 'it is' : 'they are'} not looked up.`;
    }
  }
}
