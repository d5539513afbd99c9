const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Spreadsheet (CSV) injection guard after OWASP: a cell starting with = + - @ TAB or CR gets a leading ' so
 * spreadsheet apps keep it as text instead of running it as a formula.
 */
export function neutralizeFormula(cell: string): string {
  if (cell.length === 0) return cell;
  const first = cell.charCodeAt(0);
  if (first !== 0x3d && first !== 0x2b && first !== 0x2d && first !== 0x40 && first !== 0x09 && first !== 0x0d) return cell;
  // A plain number like "-5" or "+3.2" runs nothing, and a quote in front would change the data; "+1 555 0100" is not one.
  if (PLAIN_NUMBER.test(cell)) return cell;
  return `'${cell}`;
}
