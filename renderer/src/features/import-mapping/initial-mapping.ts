import type { ColumnGuess, ProjectDetail } from '../../../../shared/contract';
import { MAPPED_FIELDS, type MappedField, type Mapping } from '../../../../shared/model';

/** The best guess per field (highest confidence), whether or not the mapping uses it. */
export function bestGuesses(guesses: readonly ColumnGuess[]): Partial<Record<MappedField, ColumnGuess>> {
  const best: Partial<Record<MappedField, ColumnGuess>> = {};
  for (const guess of guesses) {
    const current = best[guess.field];
    if (!current || guess.confidence > current.confidence) best[guess.field] = guess;
  }
  return best;
}

/** The saved mapping when there is one; otherwise what was detected. */
export function initialMapping(detail: Pick<ProjectDetail, 'mapping' | 'guesses' | 'headers'>): Mapping {
  const saved = Object.entries(detail.mapping).filter(([, column]) => typeof column === 'number');
  if (saved.length > 0) return { ...detail.mapping };
  const mapping: Mapping = {};
  const guesses = bestGuesses(detail.guesses);
  for (const field of MAPPED_FIELDS) {
    const guess = guesses[field];
    if (guess && guess.column >= 0 && guess.column < detail.headers.length) mapping[field] = guess.column;
  }
  return mapping;
}
