export { openSheet, listSheets } from './open-sheet';
export { SheetError, SHEET_ERROR_CODES, type SheetErrorCode } from './sheet-error';
export type { OpenedSheet, OpenSheetOptions, SheetInfo, SheetWarning } from './opened-sheet';
