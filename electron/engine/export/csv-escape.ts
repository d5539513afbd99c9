/**
 * RFC 4180 quoting for one delimiter, only when needed: the delimiter, a quote, CR/LF, or leading/trailing whitespace.
 * Its pattern is made once: a writer escapes every cell of a file with it.
 */
export function csvEscaper(delimiter: string): (cell: string) => string {
  const escaped = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Leading or trailing spaces are quoted because several apps trim unquoted fields.
  const needsQuotes = new RegExp(`${escaped}|["\\r\\n]|^\\s|\\s$`);
  return (cell) => (cell.length === 0 || !needsQuotes.test(cell) ? cell : `"${cell.replace(/"/g, '""')}"`);
}
