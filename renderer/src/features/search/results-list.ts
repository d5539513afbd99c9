// A search's results, cached a page at a time like the review table. A running search keeps adding people at the
// end, so pages are refreshed by version: a stale page stays on screen until its fresh copy lands (no flicker).
import type { SearchResultRow, SearchResultsPage } from '../../../../shared/contract';
import { farthestPages, pagesForWindow } from '../review/review-list';

export const RESULTS_PAGE_SIZE = 100;
export const MAX_RESULT_PAGES = 10;

export interface ResultsList {
  /** Which search and text filter these pages belong to. */
  key: string;
  /** Goes up whenever the engine stored more people: pages of an older version are fetched again. */
  version: number;
  pages: ReadonlyMap<number, { version: number; rows: SearchResultRow[] }>;
  total: number | null;
  /** The version of the answer the total came from. */
  totalVersion: number;
}

export type ResultsListAction =
  | { type: 'pageLoaded'; key: string; version: number; page: number; result: SearchResultsPage }
  | { type: 'invalidate'; key: string };

export function resultsKey(searchId: number, text: string): string {
  return JSON.stringify([searchId, text.trim()]);
}

export function emptyResults(key: string): ResultsList {
  return { key, version: 0, pages: new Map(), total: null, totalVersion: -1 };
}

export function resultsListReducer(list: ResultsList, action: ResultsListAction): ResultsList {
  switch (action.type) {
    case 'pageLoaded': {
      const base = action.key === list.key ? list : emptyResults(action.key);
      const held = base.pages.get(action.page);
      // An answer overtaken by a newer one for the same page is dropped.
      if (held && held.version > action.version) return base;
      const pages = new Map(base.pages);
      pages.set(action.page, { version: action.version, rows: action.result.rows });
      for (const page of farthestPages([...pages.keys()], action.page, MAX_RESULT_PAGES)) pages.delete(page);
      const newer = action.version >= base.totalVersion;
      return { ...base, pages, total: newer ? action.result.total : base.total, totalVersion: newer ? action.version : base.totalVersion };
    }
    case 'invalidate':
      return action.key === list.key ? { ...list, version: list.version + 1 } : list;
  }
}

/** The pages positions start..end-1 need that are missing or older than the list's version. */
export function pagesToFetch(list: ResultsList, start: number, end: number, pageSize = RESULTS_PAGE_SIZE): number[] {
  const pages = pagesForWindow(start, end, list.total, pageSize).filter((page) => {
    const held = list.pages.get(page);
    return !held || held.version < list.version;
  });
  // A stale total (more people stored since) is refreshed by any page; with none due, the one in view asks.
  if (pages.length === 0 && list.total !== null && list.totalVersion < list.version) pages.push(Math.floor(start / pageSize));
  return pages;
}

export function resultAt(list: ResultsList, position: number, pageSize = RESULTS_PAGE_SIZE): SearchResultRow | undefined {
  return list.pages.get(Math.floor(position / pageSize))?.rows[position % pageSize];
}
