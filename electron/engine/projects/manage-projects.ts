import type { Database } from 'better-sqlite3';
import { notFound } from '../engine-errors';
import { removeProject } from './project-cleanup';
import { requireProject } from '../rows/project-record';

export function renameProject(db: Database, projectId: number, name: string, at: string): void {
  requireProject(db, projectId);
  db.prepare('UPDATE projects SET name = ?, updated_at = ? WHERE id = ?').run(name.trim(), at, projectId);
}

/**
 * Deletes the project at once; its rows, plan, decisions and runs follow in the background (project-cleanup.ts).
 * Cached answers stay: other projects may ask the same.
 */
export function deleteProject(db: Database, projectId: number): void {
  if (!removeProject(db, projectId)) throw notFound(`Project ${projectId}`);
}

/** Marks the project changed now (its mapping was saved). */
export function touchProject(db: Database, projectId: number, at: string): void {
  db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(at, projectId);
}

/** The newest ready project of that name, if any (the demo's, to open again rather than import again). */
export function readyProjectNamed(db: Database, name: string): number | undefined {
  return db.prepare("SELECT id FROM projects WHERE name = ? AND status = 'ready' ORDER BY id DESC LIMIT 1").pluck().get(name) as number | undefined;
}
