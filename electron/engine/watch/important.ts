import type { Database } from 'better-sqlite3';
import type { ImportantMarks } from '../../../shared/contract';
import { EngineError } from '../engine-errors';

/** A column's value as marks compare it: " tier a " marks the rows whose cell says "Tier A". */
export function markValue(value: string): string {
  return value.trim().toLocaleLowerCase();
}

/** Marks (or unmarks) rows, one by one, as important. */
export function markRows(db: Database, projectId: number, rowIndexes: number[], important: boolean): void {
  const rowCount = db.prepare('SELECT row_count FROM projects WHERE id = ?').pluck().get(projectId) as number;
  const outside = rowIndexes.find((i) => i >= rowCount);
  if (outside !== undefined) throw new EngineError('invalid_input', `Row ${outside + 1} is not in the project (it has ${rowCount} rows): nothing was marked.`);
  const write = important ? db.prepare('INSERT OR IGNORE INTO important_rows (project_id, row_index) VALUES (?, ?)') : db.prepare('DELETE FROM important_rows WHERE project_id = ? AND row_index = ?');
  db.transaction(() => {
    for (const rowIndex of rowIndexes) write.run(projectId, rowIndex);
  })();
}

/** Marks (or unmarks) every row whose cell in the column holds the value, now and after a re-import alike. */
export function markColumnValue(db: Database, projectId: number, columnIndex: number, value: string, important: boolean): void {
  const headers = JSON.parse(db.prepare('SELECT headers FROM projects WHERE id = ?').pluck().get(projectId) as string) as string[];
  if (columnIndex >= headers.length) throw new EngineError('invalid_input', `Column ${columnIndex + 1} is not in the sheet (it has ${headers.length} columns): nothing was marked.`);
  const key = markValue(value);
  if (key === '') throw new EngineError('invalid_input', `Name the value of "${headers[columnIndex]}" that makes a row important (e.g. A): an empty value marks nothing.`);
  if (important) db.prepare('INSERT OR IGNORE INTO important_values (project_id, column_index, value) VALUES (?, ?, ?)').run(projectId, columnIndex, key);
  else db.prepare('DELETE FROM important_values WHERE project_id = ? AND column_index = ? AND value = ?').run(projectId, columnIndex, key);
}

export function importantMarks(db: Database, projectId: number): ImportantMarks {
  const rows = db.prepare('SELECT row_index FROM important_rows WHERE project_id = ? ORDER BY row_index').pluck().all(projectId) as number[];
  const values = db.prepare('SELECT column_index, value FROM important_values WHERE project_id = ? ORDER BY column_index, value').raw().all(projectId) as [number, string][];
  return { rows, values: values.map(([columnIndex, value]) => ({ columnIndex, value })) };
}

/** Whether a row (by index and cells) is marked important, by itself or by a column's value. */
export function importantTest(db: Database, projectId: number): (rowIndex: number, cells: string[]) => boolean {
  const marks = importantMarks(db, projectId);
  const rows = new Set(marks.rows);
  return (rowIndex, cells) => rows.has(rowIndex) || marks.values.some((v) => markValue(cells[v.columnIndex] ?? '') === v.value);
}
