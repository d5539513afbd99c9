export { writeTable } from './write-table';
export { neutralizeFormula } from './neutralize-formula';
export { csvEscaper } from './csv-escape';
export { ExportError, exportLabel, type ExportErrorCode } from './export-error';
export { XLSX_MAX_ROWS } from './xlsx-export';
export type { ExportTarget, ExportCell, ExportRows, ExportResult, RowPages } from './export-target';
export { PartFiles } from './part-file';
export { UnfinishedExports } from './unfinished-exports';
