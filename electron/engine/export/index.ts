export { writeTable } from './write-table';
export { neutralizeFormula } from './neutralize-formula';
export { csvEscape } from './csv-escape';
export { ExportError, type ExportErrorCode } from './export-error';
export type { ExportTarget, ExportCell, ExportRows, ExportResult } from './export-target';
export { PartFiles } from './part-file';
