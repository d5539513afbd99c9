import { formatDateSerial, formatNumber } from './number-format';
import { decodeXml } from './xml-elements';

const MS_PER_DAY = 86400000;
const UNIX_EPOCH_SERIAL = 25569;

/**
 * A string as Excel shows it: Excel writes a character XML cannot hold (a carriage return, a tab in some files) as
 * `_xHHHH_`, and a literal `_x` escape with its underscore as `_x005F_`, in every string of the file.
 */
export function excelString(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

/**
 * A worksheet cell (other than a shared string) as the user sees it in the sheet, from its type (`t`), what its `<v>`
 * holds as written (a formula's cached result included), its inline string's text (decoded) and its number format:
 * numbers and dates through the format, booleans and errors as Excel prints them. Undefined for a cell with no value.
 */
export function cellText(type: string, value: string | null, inline: string | null, numFmt: string | undefined, date1904: boolean): string | undefined {
  switch (type) {
    case 'inlineStr':
      return inline !== null ? excelString(inline) : value !== null ? excelString(decodeXml(value)) : undefined;
    case 'str':
      return value === null ? undefined : excelString(decodeXml(value));
    case 'b':
      return value === null ? undefined : parseInt(value, 10) !== 0 ? 'TRUE' : 'FALSE';
    case 'e':
      return value === null ? undefined : decodeXml(value);
    case 'd': {
      if (value === null) return undefined;
      // An ISO 8601 date, which Excel can read though it writes serial numbers: a time without a zone is the sheet's own.
      const iso = decodeXml(value).trim();
      const zoned = !iso.includes('T') || /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`;
      const serial = Date.parse(zoned) / MS_PER_DAY + UNIX_EPOCH_SERIAL;
      return Number.isFinite(serial) ? formatDateSerial(serial, numFmt ?? (iso.includes('T') ? 'yyyy-mm-dd hh:mm:ss' : 'yyyy-mm-dd')) : '';
    }
    default: {
      if (value === null) return undefined;
      const number = parseFloat(value);
      return Number.isNaN(number) ? '' : formatNumber(number, numFmt, date1904);
    }
  }
}
