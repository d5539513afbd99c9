import type { LearningSource } from '../../../../shared/contract';
import { plural } from '../../ui/format';

/** An option of the "start from" select: the project, what it learned from, and whether its sheet is another kind. */
export function sourceOptionLabel(source: LearningSource): string {
  return `${source.name} (${plural(source.labels, 'decision')})${source.sameKind ? '' : ', another kind of sheet'}`;
}

/** The button that starts this project from the chosen one's learning. */
export function startFromLabel(source: LearningSource): string {
  return `Start from what ${source.name} learned`;
}
