import { describe, expect, it } from 'vitest';
import type { PlanProgress, TextIndexProgress } from '../../shared/contract';
import { planDetail, planStatus, textIndexDetail, textIndexStatus } from '../../renderer/src/features/review/list-wait-status';

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

const plan = (rowsPlanned: number): PlanProgress => ({ projectId: 1, rowsPlanned, rowsTotal: 200_000, startedBy: 'mapping' });

describe("what the review says while its list waits for the project's plan", () => {
  it('counts the rows planned so far', () => {
    expect(planStatus(plan(60_000))).toBe('Preparing rows… 30%');
    expect(planDetail(plan(60_000))).toMatch(/60,000 of 200,000 rows so far\.$/);
  });

  it('says nothing once the plan is done, or when none was heard of', () => {
    expect(planStatus(plan(200_000))).toBeNull();
    expect(planDetail(plan(200_000))).toBeUndefined();
    expect(planStatus(null)).toBeNull();
  });
});
