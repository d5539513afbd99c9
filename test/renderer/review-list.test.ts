import { describe, expect, it } from 'vitest';
import type { ReviewPage, ReviewRow } from '../../shared/contract';
import { ROW_STATES, type RowState } from '../../shared/model';
import {
  emptyList,
  farthestPages,
  firstToReview,
  filterKey,
  MAX_CACHED_PAGES,
  pageFilter,
  PAGE_SIZE,
  pagesForWindow,
  positionOfRow,
  reviewListReducer,
  rowAt,
  type ReviewList,
} from '../../renderer/src/features/review/review-list';

const counts = Object.fromEntries(ROW_STATES.map((state) => [state, 0])) as Record<RowState, number>;

function row(rowIndex: number, state: RowState = 'to_review'): ReviewRow {
  return { rowIndex, rowNumber: rowIndex + 2, state, label: `Person ${rowIndex}`, top: null, topScore: null, confidence: null, reason: null, bestRank: null, jobChange: null, strategy: null, candidateCount: 2, chosenRank: null };
}

function page(pageNumber: number, total: number, rowIndexOf = (position: number) => position): ReviewPage {
  const rows: ReviewRow[] = [];
  for (let position = pageNumber * PAGE_SIZE; position < Math.min(total, (pageNumber + 1) * PAGE_SIZE); position++) rows.push(row(rowIndexOf(position)));
  return { rows, total, counts: { ...counts, to_review: total }, jobChanges: { no_change: 0, moved: 0, left: 0, unknown: 0 }, changedAtLastRefresh: 0, lastRefreshAt: null };
}

function load(list: ReviewList, key: string, pageNumber: number, total: number, rowIndexOf?: (position: number) => number): ReviewList {
  return reviewListReducer(list, { type: 'pageLoaded', key, page: pageNumber, result: page(pageNumber, total, rowIndexOf) });
}

describe('review list pages', () => {
  it('asks for page 0 before it knows the total, then only the pages in view', () => {
    expect(pagesForWindow(0, 0, null)).toEqual([0]);
    expect(pagesForWindow(0, 40, 100_000)).toEqual([0]);
    expect(pagesForWindow(190, 230, 100_000)).toEqual([0, 1]);
    expect(pagesForWindow(99_990, 100_010, 100_000)).toEqual([499]);
    expect(pagesForWindow(0, 30, 0)).toEqual([]);
  });

  it('finds rows by position and by sheet row', () => {
    let list = load(emptyList('k'), 'k', 0, 1000, (p) => p * 2);
    list = load(list, 'k', 3, 1000, (p) => p * 2);
    expect(rowAt(list, 5)?.rowIndex).toBe(10);
    expect(rowAt(list, 605)?.rowIndex).toBe(1210);
    expect(rowAt(list, 250)).toBeUndefined();
    expect(positionOfRow(list, 1210)).toBe(605);
    expect(positionOfRow(list, 1211)).toBeNull();
  });

  it('keeps at most MAX_CACHED_PAGES pages, dropping the farthest from the newest', () => {
    let list = emptyList('k');
    for (let p = 0; p < 30; p++) list = load(list, 'k', p, 100_000);
    expect(list.pages.size).toBe(MAX_CACHED_PAGES);
    expect(list.pages.has(29)).toBe(true);
    expect(list.pages.has(0)).toBe(false);
    list = load(list, 'k', 0, 100_000);
    expect(list.pages.has(0)).toBe(true);
    expect(list.pages.has(29)).toBe(false);
  });

  it('starts over when a page for a new filter arrives', () => {
    let list = load(emptyList('a'), 'a', 0, 1000);
    list = load(list, 'a', 1, 1000);
    list = load(list, 'b', 0, 5);
    expect(list.key).toBe('b');
    expect(list.total).toBe(5);
    expect([...list.pages.keys()]).toEqual([0]);
  });

  it('patches a decided row in place without moving the others', () => {
    const list = load(emptyList('k'), 'k', 0, 10);
    const next = reviewListReducer(list, { type: 'rowChanged', row: { rowIndex: 4, state: 'accepted', chosenRank: 2 } });
    expect(rowAt(next, 4)).toMatchObject({ rowIndex: 4, state: 'accepted', chosenRank: 2 });
    expect(rowAt(next, 5)).toEqual(rowAt(list, 5));
    expect(next.total).toBe(10);
    expect(rowAt(list, 4)?.state).toBe('to_review');
    expect(reviewListReducer(list, { type: 'rowChanged', row: { rowIndex: 999, state: 'accepted', chosenRank: 1 } })).toBe(list);
  });

  it('drops the farthest pages first', () => {
    expect(farthestPages([0, 1, 2, 3], 3, 4)).toEqual([]);
    expect(farthestPages([0, 1, 2, 3, 10], 2, 3)).toEqual([10, 0]);
  });

  it('names a filter the same whatever the order of its states and job changes', () => {
    const none = { jobChanges: null, changedAtLastRefresh: false, pattern: null };
    expect(filterKey(1, { states: ['auto', 'accepted'], text: 'x ', order: 'file', ...none })).toBe(filterKey(1, { states: ['accepted', 'auto'], text: 'x', order: 'file', ...none }));
    expect(filterKey(1, { states: null, text: '', order: 'file', ...none })).not.toBe(filterKey(2, { states: null, text: '', order: 'file', ...none }));
    expect(filterKey(1, { states: null, text: '', order: 'file', ...none })).not.toBe(filterKey(1, { states: null, text: '', order: 'confidence_desc', ...none }));
    const base = { states: null, text: '', order: 'file' as const, pattern: null };
    expect(filterKey(1, { ...base, jobChanges: ['moved', 'left'], changedAtLastRefresh: false })).toBe(filterKey(1, { ...base, jobChanges: ['left', 'moved'], changedAtLastRefresh: false }));
    expect(filterKey(1, { ...base, ...none })).not.toBe(filterKey(1, { ...base, jobChanges: ['moved'], changedAtLastRefresh: false }));
    expect(filterKey(1, { ...base, ...none })).not.toBe(filterKey(1, { ...base, jobChanges: null, changedAtLastRefresh: true }));
    // Each group of rows like this is a list of its own.
    expect(filterKey(1, { ...base, ...none, pattern: 'near_name|typo|current_same|none|alone' })).not.toBe(filterKey(1, { ...base, ...none }));
    expect(filterKey(1, { ...base, ...none, pattern: 'near_name|typo|current_same|none|alone' })).not.toBe(filterKey(1, { ...base, ...none, pattern: 'clear|exact|past_same|none|alone' }));
  });

  it('asks review.page for the filter as set, and nothing for what is not', () => {
    expect(pageFilter({ states: null, text: ' ', order: 'file', jobChanges: null, changedAtLastRefresh: false, pattern: null })).toEqual({ order: 'file' });
    expect(pageFilter({ states: null, text: '', order: 'file', jobChanges: null, changedAtLastRefresh: false, pattern: 'twins|exact|current_same|none|rival' })).toEqual({
      order: 'file',
      pattern: 'twins|exact|current_same|none|rival',
    });
    expect(pageFilter({ states: ['auto'], text: ' Anna ', order: 'file', jobChanges: ['moved'], changedAtLastRefresh: true, pattern: null })).toEqual({
      states: ['auto'],
      text: 'Anna',
      order: 'file',
      jobChanges: ['moved'],
      changedAtLastRefresh: true,
    });
  });
});

describe('firstToReview', () => {
  it('finds the first row to review in the first page, and nothing before that page is there or when it holds none', () => {
    expect(firstToReview(emptyList('k'))).toBeNull();
    const result = { ...page(0, 5), rows: [row(0, 'auto'), row(1, 'accepted'), row(2, 'to_review'), row(3, 'to_review'), row(4, 'auto')] };
    const list = reviewListReducer(emptyList('k'), { type: 'pageLoaded', key: 'k', page: 0, result });
    expect(firstToReview(list)).toBe(2);
    const none = reviewListReducer(emptyList('k'), { type: 'pageLoaded', key: 'k', page: 0, result: { ...result, rows: [row(0, 'auto'), row(1, 'rejected')] } });
    expect(firstToReview(none)).toBeNull();
  });
});
