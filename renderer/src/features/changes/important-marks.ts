// Whether a row is marked important, as the engine decides it (watch/important.ts): by itself, or by a column's value
// compared trimmed and case-folded.
import type { ImportantMarks } from '../../../../shared/contract';

export function markValue(value: string): string {
  return value.trim().toLocaleLowerCase();
}

/** The column values that mark this row important ("Tier = A"), as marked. */
export function valuesMarking(marks: ImportantMarks, cells: readonly string[]): ImportantMarks['values'] {
  return marks.values.filter((mark) => markValue(cells[mark.columnIndex] ?? '') === mark.value);
}

export function rowMarked(marks: ImportantMarks, rowIndex: number): boolean {
  return marks.rows.includes(rowIndex);
}
