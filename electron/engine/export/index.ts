export { writeTable } from './write-table';
export { neutralizeFormula } from './neutralize-formula';
export { csvEscaper } from './csv-escape';
export { ExportError, exportLabel, type ExportErrorCode } from './export-error';
export { XLSX_MAX_ROWS } from './xlsx-export';
export type { ExportTarget, ExportCell, ExportRows, ExportResult, LinesFile, RowPages } from './export-target';
export { writeCsvLines } from './csv-export';
export { PartFiles } from './part-file';
export { UnfinishedExports } from './unfinished-exports';
