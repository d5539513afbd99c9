import type { SheetWarning } from './opened-sheet';

/**
 * Header names a user can map by: empty ones become "Column N", repeats get " (2)", " (3)" (compared without
 * case, since "Email" and "email" would be confused in a column picker), and a warning lists what changed.
 */
export function uniqueHeaders(raw: string[]): { headers: string[]; warnings: SheetWarning[] } {
  const taken = new Set<string>();
  const headers: string[] = [];
  const blank: { column: number; name: string }[] = [];
  const renamed: string[] = [];
  const trimmed = raw.map((name) => name.trim());
  // Names as written are claimed first, so a later "Column 2" in the file keeps its name over a generated one.
  for (const name of trimmed) if (name) taken.add(name.toLowerCase());
  const seen = new Set<string>();
  trimmed.forEach((name, i) => {
    let base = name;
    if (!base) {
      base = `Column ${i + 1}`;
    } else if (!seen.has(base.toLowerCase())) {
      seen.add(base.toLowerCase());
      headers.push(base);
      return;
    }
    let unique = base;
    for (let n = 2; taken.has(unique.toLowerCase()) || seen.has(unique.toLowerCase()); n++) unique = `${base} (${n})`;
    seen.add(unique.toLowerCase());
    taken.add(unique.toLowerCase());
    headers.push(unique);
    if (name) renamed.push(`“${name}” (column ${i + 1}) is now “${unique}”`);
    else blank.push({ column: i + 1, name: unique });
  });
  const warnings: SheetWarning[] = [];
  if (blank.length > 0) {
    warnings.push({
      code: 'empty_headers',
      message:
        blank.length === 1
          ? `Column ${blank[0].column} has no name in the header row; it is called “${blank[0].name}”.`
          : `${blank.length} columns have no name in the header row; they are called ${listed(blank.map((b) => `“${b.name}”`))}.`,
      count: blank.length,
    });
  }
  if (renamed.length > 0) {
    warnings.push({
      code: 'duplicate_headers',
      message: `Some header names repeat, so they were made unique: ${listed(renamed, '; ')}.`,
      count: renamed.length,
    });
  }
  return { headers, warnings };
}

function listed(items: string[], separator = ', '): string {
  const shown = items.slice(0, 5).join(separator);
  return items.length > 5 ? `${shown}${separator}and ${items.length - 5} more` : shown;
}
