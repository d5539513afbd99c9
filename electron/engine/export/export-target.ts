import type { PartFiles } from './part-file';
import type { UnfinishedExports } from './unfinished-exports';
import type { DeflatedPart } from './zip-writer';

export interface ExportTarget {
  path: string;
  format: 'csv' | 'xlsx';
  /** CSV only; default true, so Excel reads the file as UTF-8. */
  bom?: boolean;
  /** CSV only; default ','. */
  delimiter?: string;
  /** XLSX only; default "Sheet1". */
  sheetName?: string;
  /** Hold the finished file back until the other files of the same export are whole too. */
  together?: PartFiles;
  /** Records the part file while it is written (a kill leaves none behind), when not written `together`. */
  unfinished?: UnfinishedExports;
}

export type ExportCell = string | number | null;
export type ExportRows = AsyncIterable<ExportCell[]> | Iterable<ExportCell[]> | RowPages;

/**
 * Rows handed over a page at a time: a writer goes through a page's rows without a step of the async iteration per
 * row, which cost more than writing many a row (a promise and its turn each).
 */
export interface RowPages {
  pages: AsyncIterable<readonly ExportCell[][]>;
  /**
   * CSV only: asked once the pages are written, the lines of the rows after them, made elsewhere (another thread) into
   * a file of their own, whose bytes the file takes next; null when the pages were all the rows.
   */
  linesAfter?: () => Promise<LinesFile | null>;
  /**
   * XLSX only: asked once the pages are written, the sheet rows after them, made and compressed elsewhere (another
   * thread) into a file of their own, numbered on from the pages' rows; null when the pages were all the rows.
   */
  sheetAfter?: () => Promise<DeflatedRows | null>;
}

/** CSV lines, UTF-8 with CRLF ends and no header, written to a file of their own (export/csv-export.ts writeCsvLines). */
export interface LinesFile {
  path: string;
  /** The lines it holds. */
  rows: number;
}

export interface ExportResult {
  /** Data rows written (the header row not counted). */
  rows: number;
  /** XLSX only: cells cut to Excel's 32,767-character limit, when any were. */
  truncatedCells?: number;
}

/** A sheet's rows compressed elsewhere (DeflatedPart), with how many rows they are and cells cut among them. */
export interface DeflatedRows extends DeflatedPart {
  rows: number;
  truncatedCells: number;
}
