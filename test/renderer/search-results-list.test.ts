import { describe, expect, it } from 'vitest';
import type { SearchResultRow, SearchResultsPage } from '../../shared/contract';
import {
  emptyResults,
  MAX_RESULT_PAGES,
  pagesToFetch,
  RESULTS_PAGE_SIZE,
  resultAt,
  resultsKey,
  resultsListReducer,
  type ResultsList,
} from '../../renderer/src/features/search/results-list';

function person(position: number): SearchResultRow {
  const id = `p_${position}`;
  return { personId: id, summary: { id, name: `Person ${position}`, title: null, company: null, social: null, location: null }, job: null, person: { id }, firstPage: 1 };
}

function page(pageNumber: number, total: number): SearchResultsPage {
  const rows: SearchResultRow[] = [];
  for (let p = pageNumber * RESULTS_PAGE_SIZE; p < Math.min(total, (pageNumber + 1) * RESULTS_PAGE_SIZE); p++) rows.push(person(p));
  return { rows, total };
}

const key = resultsKey(1, '');
const load = (list: ResultsList, pageNumber: number, total: number, version = list.version) =>
  resultsListReducer(list, { type: 'pageLoaded', key, version, page: pageNumber, result: page(pageNumber, total) });

describe('the results of a search, a page at a time', () => {
  it('asks for the first page before the total is known, then for the pages in view only', () => {
    let list = emptyResults(key);
    expect(pagesToFetch(list, 0, 40)).toEqual([0]);
    list = load(list, 0, 450);
    expect(pagesToFetch(list, 0, 40)).toEqual([]);
    expect(pagesToFetch(list, 180, 230)).toEqual([1, 2]);
    expect(resultAt(list, 99)?.personId).toBe('p_99');
    expect(resultAt(list, 100)).toBeUndefined();
  });

  it('fetches the pages in view again when more people were stored, showing the old ones meanwhile', () => {
    let list = load(emptyResults(key), 0, 30);
    list = resultsListReducer(list, { type: 'invalidate', key });
    expect(pagesToFetch(list, 0, 40)).toEqual([0]);
    expect(resultAt(list, 29)?.personId).toBe('p_29');
    list = load(list, 0, 130);
    expect(list.total).toBe(130);
    expect(pagesToFetch(list, 0, 140)).toEqual([1]);
  });

  it('refreshes an empty list while the search runs (nobody found yet is not the end)', () => {
    let list = load(emptyResults(key), 0, 0);
    expect(pagesToFetch(list, 0, 40)).toEqual([]);
    list = resultsListReducer(list, { type: 'invalidate', key });
    expect(pagesToFetch(list, 0, 40)).toEqual([0]);
    list = load(list, 0, 12);
    expect(list.total).toBe(12);
    expect(pagesToFetch(list, 0, 40)).toEqual([]);
  });

  it('drops an answer overtaken by a newer one for the same page', () => {
    let list = load(emptyResults(key), 0, 30);
    list = resultsListReducer(list, { type: 'invalidate', key });
    const fresh = load(list, 0, 60, 1);
    const late = load(fresh, 0, 30, 0);
    expect(late.total).toBe(60);
    expect(late.pages.get(0)?.rows).toHaveLength(60);
  });

  it('starts over for another text filter, and ignores refreshes meant for another list', () => {
    const list = load(emptyResults(key), 0, 30);
    const other = resultsKey(1, 'ada');
    expect(resultsListReducer(list, { type: 'invalidate', key: other })).toBe(list);
    const switched = resultsListReducer(list, { type: 'pageLoaded', key: other, version: 0, page: 0, result: page(0, 3) });
    expect(switched.key).toBe(other);
    expect(switched.total).toBe(3);
  });

  it('keeps at most a few pages in memory, the ones near where the user looks', () => {
    let list = emptyResults(key);
    for (let p = 0; p < MAX_RESULT_PAGES + 5; p++) list = load(list, p, 100_000);
    expect(list.pages.size).toBe(MAX_RESULT_PAGES);
    expect(list.pages.has(MAX_RESULT_PAGES + 4)).toBe(true);
    expect(list.pages.has(0)).toBe(false);
  });
});
