// When the review learns from the reviewer's decisions, and what it then offers: the engine learns on request
// (learning.learn), so the screen asks after every few hand decisions, and shows the largest change it has not
// been told to put away.
import type { LearningChange } from '../../../../shared/contract';
import { plural } from '../../ui/format';

/** Hand decisions after which the review learns again: as many accepts as a pattern needs before it lifts rows. */
export const LEARN_AFTER_DECISIONS = 10;

/** Whether the decisions made since the last learning call for another (one at a time). */
export function learningDue(decidedSinceLearning: number, learning: boolean): boolean {
  return !learning && decidedSinceLearning >= LEARN_AFTER_DECISIONS;
}

/** The change to offer: the largest not put away (the engine lists them largest first), or null. */
export function offeredChange(changes: readonly LearningChange[], putAway: ReadonlySet<string>): LearningChange | null {
  return changes.find((change) => !putAway.has(change.pattern) && change.rows > 0) ?? null;
}

/** The offer's button: "Accept these 212 rows". */
export function acceptChangeLabel(change: LearningChange): string {
  return change.rows === 1 ? 'Accept this row' : `Accept these ${plural(change.rows, 'row')}`;
}
