// "Values from a sheet's column": the distinct non-empty cells of one column of an imported project or of a sheet
// file, normalized for the field they will filter (300 company links -> 300 slugs for `jobs.company.social`).
import type { Database } from 'better-sqlite3';
import type { ColumnValues } from '../../../shared/contract';
import { EngineError, notFound } from '../engine-errors';
import { foldWhitespace } from '../matching';
import { openSheet } from '../sheets';
import { normalizeValues } from './filter-values';

export interface ColumnSource {
  projectId?: number;
  file?: string;
  sheet?: string;
  /** A header (case-insensitive) or a 0-based column index. */
  column: string | number;
  /** The search field the values are for; without one, values are only trimmed and deduplicated. */
  field?: string;
}

/** Problems listed back to the user; the rest are only counted in the message. */
const MAX_PROBLEMS = 100;

export async function columnValues(db: Database, source: ColumnSource): Promise<ColumnValues> {
  const cells: string[] = [];
  let headers: string[];
  let what: string;
  let column: number;
  if (source.projectId !== undefined) {
    const project = db.prepare('SELECT name, headers FROM projects WHERE id = ?').get(source.projectId) as { name: string; headers: string } | undefined;
    if (!project) throw notFound(`Project ${source.projectId}`);
    headers = JSON.parse(project.headers) as string[];
    what = `project "${project.name}"`;
    column = resolveColumn(headers, source.column, what);
    const rows = db.prepare('SELECT cells FROM rows WHERE project_id = ? ORDER BY row_index').raw().iterate(source.projectId) as IterableIterator<[string]>;
    for (const [json] of rows) collect(cells, (JSON.parse(json) as string[])[column]);
  } else if (source.file !== undefined) {
    const sheet = await openSheet(source.file, source.sheet === undefined ? {} : { sheet: source.sheet });
    try {
      headers = sheet.headers;
      what = 'this sheet';
      column = resolveColumn(headers, source.column, what);
      for await (const row of sheet.rows()) collect(cells, row[column]);
    } finally {
      await sheet.close();
    }
  } else {
    throw new EngineError('invalid_input', 'Say where the values come from: an imported project or a sheet file.');
  }

  let values: string[];
  let problems: { value: string; message: string }[] = [];
  if (source.field !== undefined) {
    const normalized = normalizeValues(source.field, cells);
    values = normalized.values;
    problems = normalized.problems;
  } else {
    values = [...new Set(cells)];
  }
  return {
    header: headers[column]!,
    column,
    values,
    cells: cells.length,
    duplicates: cells.length - values.length - problems.length,
    problems: problems.slice(0, MAX_PROBLEMS),
  };
}

function collect(cells: string[], cell: string | undefined): void {
  const value = foldWhitespace(cell ?? '');
  if (value !== '') cells.push(value);
}

function resolveColumn(headers: string[], column: string | number, what: string): number {
  if (typeof column === 'number') {
    if (column < headers.length) return column;
    throw new EngineError('invalid_input', `There is no column ${column + 1} in ${what}: it has ${headers.length} columns.`);
  }
  const wanted = foldWhitespace(column).toLowerCase();
  const index = headers.findIndex((h) => foldWhitespace(h).toLowerCase() === wanted);
  if (index >= 0) return index;
  throw new EngineError('invalid_input', `No column "${column}" in ${what}. Its columns: ${headers.map((h) => `"${h}"`).join(', ')}.`);
}
