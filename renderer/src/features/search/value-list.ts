// A list of values as people type or paste it: a column copied from a sheet arrives one per line (or tab
// separated), a list typed by hand arrives "acme, globex". Both become the filter's `string_values`.

export interface ValueList {
  values: string[];
  /** Values given more than once (kept once). */
  duplicates: number;
}

/**
 * One value per line when there are several lines (tabs split too: a row pasted from a sheet); otherwise the one
 * line split on commas and semicolons. Blanks are dropped and repeats kept once, in first-seen order.
 */
export function parseValueList(text: string): ValueList {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const pieces = lines.length > 1 || text.includes('\t') ? lines.flatMap((line) => line.split('\t')) : text.split(/[,;]/);
  const values: string[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const piece of pieces) {
    const value = piece.replace(/\s+/g, ' ').trim();
    if (value === '') continue;
    if (seen.has(value)) {
      duplicates++;
      continue;
    }
    seen.add(value);
    values.push(value);
  }
  return { values, duplicates };
}

/** How a list is shown for editing: one per line, so a long list from a column stays readable. */
export function valueListText(values: readonly string[]): string {
  return values.join('\n');
}

/**
 * What a user types to name a sheet's column: a 1-based number ("3") or a header. The engine takes a 0-based
 * index or a header (case-insensitive).
 */
export function columnReference(input: string): string | number | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  if (/^\d+$/.test(trimmed)) {
    const number = Number(trimmed);
    return number >= 1 ? number - 1 : null;
  }
  return trimmed;
}
