/**
 * A row's cells as stored (a JSON array of strings: rows/row-cells.ts) made CSV text for `delimiter`, padded to `width`
 * cells, straight from the JSON when none of them needs quoting or a formula guard; null otherwise (parse them and
 * escape each, csv-export.ts). A sheet's cells mostly need neither, and parsing and escaping each row's took more
 * than the rest of its line.
 */
export function storedCellsCsv(delimiter: string, width: number): (json: string) => string | null {
  const escaped = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Once the separators are a bare quote: a cell holding the delimiter or a comma (a comma outside `","` is not one of
  // the strings' separators), any escape (a quote, a control character), leading or trailing whitespace, or a first
  // character neutralizeFormula would guard. Quoting and the guard are csvEscaper's and neutralizeFormula's, so
  // rows needing either are left to them.
  const needsWork = new RegExp(`[,${escaped}]|\\\\|(?:^|")[\\s=+\\-@]|\\s(?:"|$)`);
  return (json) => {
    if (!json.startsWith('["') || !json.endsWith('"]')) return null;
    const inner = json.slice(2, -2);
    // With no backslash, every quote is one of the strings' own: `","` between two cells, none inside one.
    const plain = inner.replaceAll('","', '"');
    if (needsWork.test(plain)) return null;
    const cells = (inner.length - plain.length) / 2 + 1;
    // Each quote left is a separator: a stray one means the text was not an array of strings.
    let quotes = 0;
    for (let at = plain.indexOf('"'); at !== -1; at = plain.indexOf('"', at + 1)) quotes++;
    if (quotes !== cells - 1 || cells > width) return null;
    const text = plain.replaceAll('"', delimiter);
    return cells === width ? text : text + delimiter.repeat(width - cells);
  };
}
