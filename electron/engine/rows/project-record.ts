import type { Database } from 'better-sqlite3';
import type { ColumnGuess, ProjectKind, SheetWarning } from '../../../shared/contract';
import { DEFAULT_STRATEGIES, STRATEGIES, type Mapping, type Strategy } from '../../../shared/model';
import { notFound } from '../engine-errors';

/** A project as stored, JSON columns read back. */
export interface ProjectRecord {
  id: number;
  name: string;
  kind: ProjectKind;
  sourceName: string | null;
  format: 'csv' | 'xlsx' | null;
  sheetName: string | null;
  headers: string[];
  warnings: SheetWarning[];
  guesses: ColumnGuess[];
  /** The rows to match: the sheet's rows below the header less the blank ones. */
  rowCount: number;
  /** Blank rows stored at their place between data rows (cells []), never planned or asked. */
  blankRows: number;
  /** The sheet's row number of row_index 0 (projects imported before blank rows were kept: 1, data row 1 = Row 1). */
  firstRow: number;
  mapping: Mapping;
  strategies: Strategy[];
  planScope: string | null;
  status: 'importing' | 'ready';
  createdAt: string;
  updatedAt: string;
}

interface ProjectRow {
  id: number;
  name: string;
  kind: ProjectKind;
  source_name: string | null;
  format: 'csv' | 'xlsx' | null;
  sheet_name: string | null;
  headers: string;
  warnings: string;
  guesses: string;
  row_count: number;
  blank_rows: number;
  first_row: number;
  mapping: string;
  strategies: string;
  plan_scope: string | null;
  status: 'importing' | 'ready';
  created_at: string;
  updated_at: string;
}

export function readProject(db: Database, projectId: number): ProjectRecord | null {
  const row = db.prepare('SELECT * FROM projects WHERE id = ?').get(projectId) as ProjectRow | undefined;
  return row ? toRecord(row) : null;
}

/** A project the user can work with: one still importing counts as not there yet. */
export function requireProject(db: Database, projectId: number): ProjectRecord {
  const project = readProject(db, projectId);
  if (!project || project.status !== 'ready') throw notFound(`Project ${projectId}`);
  return project;
}

export function readyProjectIds(db: Database): number[] {
  return (db.prepare("SELECT id FROM projects WHERE status = 'ready' ORDER BY updated_at DESC, id DESC").all() as { id: number }[]).map((r) => r.id);
}

/** The row number a spreadsheet app shows for a project's row: how every screen, message and export names a row. */
export function sheetRowNumber(project: Pick<ProjectRecord, 'firstRow'>, rowIndex: number): number {
  return project.firstRow + rowIndex;
}

export function touchProject(db: Database, projectId: number, at: string): void {
  db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(at, projectId);
}

function toRecord(row: ProjectRow): ProjectRecord {
  const strategies = parseJson<unknown[]>(row.strategies, []).filter((s): s is Strategy => STRATEGIES.includes(s as Strategy));
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    sourceName: row.source_name,
    format: row.format,
    sheetName: row.sheet_name,
    headers: parseJson<string[]>(row.headers, []),
    warnings: parseJson<SheetWarning[]>(row.warnings, []),
    guesses: parseJson<ColumnGuess[]>(row.guesses, []),
    rowCount: row.row_count,
    blankRows: row.blank_rows,
    firstRow: row.first_row,
    mapping: parseJson<Mapping>(row.mapping, {}),
    strategies: strategies.length > 0 ? strategies : [...DEFAULT_STRATEGIES],
    planScope: row.plan_scope,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
