import { formatDateSerial, formatNumber } from './number-format';

/** The parts of an exceljs cell that decide what the user sees. */
export interface CellLike {
  value: unknown;
  numFmt?: string;
}

const MS_PER_DAY = 86400000;
const UNIX_EPOCH_SERIAL = 25569;

/**
 * A cell as the user sees it in the sheet: numbers and dates through the cell's number format, rich text
 * flattened, a formula's cached result, a hyperlink's text, booleans and errors as Excel prints them.
 */
export function cellText(cell: CellLike, date1904: boolean): string {
  return valueText(cell.value, cell.numFmt, date1904);
}

/**
 * A string as Excel shows it: Excel writes a character XML cannot hold (a carriage return, a tab in some files) as
 * `_xHHHH_`, and a literal `_x` escape with its underscore as `_x005F_`, in every string of the file; exceljs gives
 * them as they are written.
 */
export function excelString(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

function valueText(value: unknown, numFmt: string | undefined, date1904: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return excelString(value);
  if (typeof value === 'number') return Number.isNaN(value) ? '' : formatNumber(value, numFmt, date1904);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  // exceljs has already turned date-formatted numbers into Dates, 1904 system included.
  if (value instanceof Date) {
    const serial = value.getTime() / MS_PER_DAY + UNIX_EPOCH_SERIAL;
    return Number.isFinite(serial) ? formatDateSerial(serial, numFmt ?? 'yyyy-mm-dd') : '';
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return excelString(v.richText.map((run: { text?: unknown }) => (typeof run?.text === 'string' ? run.text : '')).join(''));
    if ('formula' in v || 'sharedFormula' in v) return valueText(v.result, numFmt, date1904);
    if (typeof v.error === 'string') return v.error;
    if ('text' in v) return valueText(v.text, numFmt, date1904);
  }
  return '';
}
