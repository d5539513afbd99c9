export interface SheetInfo {
  format: 'csv' | 'xlsx';
  delimiter?: string;
  encoding?: string;
  sheetName?: string;
  /** Visible sheets of an xlsx, in tab order. */
  sheetNames?: string[];
}

export interface SheetWarning {
  code: string;
  message: string;
  count?: number;
}

export interface OpenedSheet {
  info: SheetInfo;
  /** Made unique and non-empty ("Email", "Email (2)", "Column 3"). */
  headers: string[];
  /** Filled while reading: renamed headers, ragged rows (count), blank rows kept (count), ... */
  warnings: SheetWarning[];
  /** The sheet's row number (as a spreadsheet app shows it) of the first row below the header: the header's plus one. */
  firstRow: number;
  /**
   * The rows below the header in file order, down to the last data row: cells exactly as in the file (strings), ragged
   * rows kept as they are, a blank row as [] at its place, so the k-th (from 0) is the sheet's row firstRow + k.
   * Each call reads the file again from the top; the first call continues the read openSheet started.
   */
  rows(): AsyncGenerator<string[]>;
  /** The same rows as rows(), a batch at a time as the reader parsed them (never an empty batch): for bulk readers. */
  rowBatches(): AsyncGenerator<string[][]>;
  /** Releases the file when rows() is never read to its end. Safe to call more than once. */
  close(): Promise<void>;
  /** At most this many data rows: the sheet was checked against it before any was read, where the format allows. */
  maxRows: number;
  /** The error for a sheet found to have more rows than maxRows while reading (null: the count is not known). */
  tooManyRows(rows: number | null): Error;
  /**
   * How far reading is, 0 to 1, once `rowsRead` data rows are read: an xlsx's rows of those its dimension gives, else
   * the share of the file's (a CSV's) or the worksheet's (an xlsx's) bytes read.
   */
  fractionRead(rowsRead: number): number;
}

export interface OpenSheetOptions {
  /** Worksheet name of an xlsx; the first visible sheet when absent. Ignored for CSV. */
  sheet?: string;
  /** Default 1000. */
  maxColumns?: number;
  /** Default 1 MiB. */
  maxCellBytes?: number;
  /** Data rows below the header; default MAX_DATA_ROWS (Excel's sheet less its header). */
  maxRows?: number;
}

/** One record as a format reader sees it, before headers and blank rows are dealt with. */
export interface RawRow {
  cells: string[];
  /** 1-based row number as a spreadsheet app shows it (CSV: record number, header = 1). */
  line: number;
}
