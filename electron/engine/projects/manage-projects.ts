import type { Database } from 'better-sqlite3';
import { notFound } from '../engine-errors';
import { deleteProjectRows } from './import-project';
import { requireProject } from './project-record';

export function renameProject(db: Database, projectId: number, name: string, at: string): void {
  requireProject(db, projectId);
  db.prepare('UPDATE projects SET name = ?, updated_at = ? WHERE id = ?').run(name.trim(), at, projectId);
}

/** Deletes the project, its rows, plan, decisions and runs. Cached answers stay: other projects may ask the same. */
export function deleteProject(db: Database, projectId: number): void {
  if (!deleteProjectRows(db, projectId)) throw notFound(`Project ${projectId}`);
}
