import { describe, expect, it } from 'vitest';
import type { LearningChange } from '../../shared/contract';
import { acceptChangeLabel, LEARN_AFTER_DECISIONS, learningDue, offeredChange } from '../../renderer/src/features/review/learning-offer';

const change = (pattern: string, rows: number): LearningChange => ({ pattern, words: `Rows of ${pattern}`, rows, confidence: 11 / 12, sentence: `${pattern}: ${rows} more` });

describe('learning while reviewing', () => {
  it('learns after every few hand decisions, one learning at a time', () => {
    expect(learningDue(0, false)).toBe(false);
    expect(learningDue(LEARN_AFTER_DECISIONS - 1, false)).toBe(false);
    expect(learningDue(LEARN_AFTER_DECISIONS, false)).toBe(true);
    // "Apply to identical" decides many rows at once: they count as the rows they are.
    expect(learningDue(LEARN_AFTER_DECISIONS + 40, false)).toBe(true);
    expect(learningDue(LEARN_AFTER_DECISIONS, true)).toBe(false);
  });

  it('offers the largest change not put away, and none without rows', () => {
    const changes = [change('near', 212), change('stale', 30), change('empty', 0)];
    expect(offeredChange(changes, new Set())?.pattern).toBe('near');
    expect(offeredChange(changes, new Set(['near']))?.pattern).toBe('stale');
    expect(offeredChange(changes, new Set(['near', 'stale']))).toBeNull();
    expect(offeredChange([], new Set())).toBeNull();
  });

  it('names the rows its button accepts', () => {
    expect(acceptChangeLabel(change('near', 212))).toBe('Accept these 212 rows');
    expect(acceptChangeLabel(change('near', 1))).toBe('Accept this row');
  });
});
