import type { Database } from 'better-sqlite3';
import type { LearnedState } from '../matching/learned-model';
import type { SheetWeights } from '../matching/sheet-weights';

/** What a project learned, as stored; null when it learned nothing yet (or it was reset). */
export function storedLearning(db: Database, projectId: number): { state: LearnedState; base: LearnedState; labels: number; rowsLifted: number; learnedAt: string } | null {
  const row = db.prepare('SELECT model_version, patterns, base, weights, labels, rows_lifted, learned_at FROM learned_models WHERE project_id = ?').get(projectId) as
    | { model_version: number; patterns: string; base: string; weights: string | null; labels: number; rows_lifted: number; learned_at: string }
    | undefined;
  if (!row) return null;
  const stateOf = (patterns: string, weights: string | null): LearnedState => ({
    modelVersion: row.model_version,
    patterns: JSON.parse(patterns) as LearnedState['patterns'],
    weights: weights === null ? null : (JSON.parse(weights) as SheetWeights),
  });
  // The sheet's figures are its own: the state it started from carries none.
  return { state: stateOf(row.patterns, row.weights), base: stateOf(row.base, null), labels: row.labels, rowsLifted: row.rows_lifted, learnedAt: row.learned_at };
}
