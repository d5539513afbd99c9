/**
 * RFC 4180 quoting for one delimiter, only when needed: the delimiter, a quote, CR/LF, or leading/trailing whitespace.
 * Its pattern is made once: a writer escapes every cell of a file with it.
 */
export function csvEscaper(delimiter: string): (cell: string) => string {
  const escaped = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Whitespace is looked for at the ends only: a pattern with `^\s|\s$` tried `\s$` at every position of every cell.
  const special = new RegExp(`${escaped}|["\\r\\n]`);
  return (cell) => {
    const last = cell.length - 1;
    if (last === -1) return cell;
    // Leading or trailing spaces are quoted because several apps trim unquoted fields.
    if (!special.test(cell) && !isSpace(cell.charCodeAt(0)) && !isSpace(cell.charCodeAt(last))) return cell;
    return `"${cell.replace(/"/g, '""')}"`;
  };
}

/** Whether a UTF-16 code unit is whitespace as a regular expression's `\s` means it. */
function isSpace(code: number): boolean {
  if (code < 0xa0) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
