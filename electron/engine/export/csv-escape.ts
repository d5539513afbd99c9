const patterns = new Map<string, RegExp>();

function needsQuotesPattern(delimiter: string): RegExp {
  let pattern = patterns.get(delimiter);
  if (!pattern) {
    const escaped = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Leading or trailing spaces are quoted because several apps trim unquoted fields.
    pattern = new RegExp(`${escaped}|["\\r\\n]|^\\s|\\s$`);
    patterns.set(delimiter, pattern);
  }
  return pattern;
}

/** RFC 4180 quoting, only when needed: the delimiter, a quote, CR/LF, or leading/trailing whitespace. */
export function csvEscape(cell: string, delimiter: string): string {
  if (cell.length === 0 || !needsQuotesPattern(delimiter).test(cell)) return cell;
  return `"${cell.replace(/"/g, '""')}"`;
}
