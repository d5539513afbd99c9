import { describe, expect, it } from 'vitest';
import type { TextIndexProgress } from '../../shared/contract';
import { textIndexDetail, textIndexStatus } from '../../renderer/src/features/review/text-index-status';

const progress = (patch: Partial<TextIndexProgress>): TextIndexProgress => ({ projectId: 1, phase: 'filling', rowsIndexed: 0, rowsTotal: 997_159, ...patch });

describe("what the review says while a text filter waits for the project's text index", () => {
  it('counts the rows indexed so far, and says when it is finishing', () => {
    expect(textIndexStatus(progress({ rowsIndexed: 412_000 }))).toBe('Searching… 41%');
    expect(textIndexStatus(progress({ rowsIndexed: 1_000 }))).toBe('Searching… 0%');
    expect(textIndexDetail(progress({ rowsIndexed: 412_000 }))).toMatch(/412,000 of 997,159 rows so far\.$/);
    expect(textIndexStatus(progress({ phase: 'merging', rowsIndexed: 997_159 }))).toBe('Searching… almost done');
  });

  it('says nothing once the index is ready, or when no fill was heard of', () => {
    expect(textIndexStatus(progress({ phase: 'ready', rowsIndexed: 997_159 }))).toBeNull();
    expect(textIndexDetail(progress({ phase: 'ready', rowsIndexed: 997_159 }))).toBeUndefined();
    expect(textIndexStatus(null)).toBeNull();
    expect(textIndexStatus(progress({ rowsTotal: 0 }))).toBe('Searching… 0%');
  });
});
