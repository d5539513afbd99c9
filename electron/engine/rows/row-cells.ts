/**
 * How a blank row of the sheet (no cell with more than spaces) is stored, at its place between the data rows: never
 * planned, asked or reviewed, exported as a blank row. A row with cells never reads as this text.
 */
export const BLANK_ROW = '[]';

/** A row's cells as the import stored them (a JSON array of strings); an empty list when the text does not read. */
export function parseCells(text: string): string[] {
  try {
    const cells = JSON.parse(text) as unknown;
    if (!Array.isArray(cells)) return [];
    // Imports store strings only: the array is used as parsed unless an older or hand-made row holds others.
    return cells.every((c) => typeof c === 'string') ? (cells as string[]) : cells.map((c) => (typeof c === 'string' ? c : c == null ? '' : String(c)));
  } catch {
    return [];
  }
}
