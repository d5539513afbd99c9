// The review table's rows, cached a page at a time: 100,000 rows are never held at once, only the pages
// around where the user is looking.
import type { ReviewPage, ReviewRow, RowDetail } from '../../../../shared/contract';
import type { JobChangeStatus, RowState } from '../../../../shared/model';

export const PAGE_SIZE = 200;
/** Pages kept in memory at most; the ones farthest from the newest page are dropped first. */
export const MAX_CACHED_PAGES = 12;

export type ReviewOrder = 'file' | 'confidence_desc' | 'confidence_asc';

export interface ReviewFilter {
  states: RowState[] | null;
  text: string;
  order: ReviewOrder;
  /** Only matched rows whose person is now in one of these places against the sheet's company. */
  jobChanges: JobChangeStatus[] | null;
  /** Only matched rows whose person's job changed at the last refresh. */
  changedAtLastRefresh: boolean;
  /** Only the rows waiting for review of this reason pattern, in file order (the other filters do not apply). */
  pattern: string | null;
}

export function filterKey(projectId: number, filter: ReviewFilter): string {
  return JSON.stringify([
    projectId,
    filter.states ? [...filter.states].sort() : null,
    filter.text.trim(),
    filter.order,
    filter.jobChanges ? [...filter.jobChanges].sort() : null,
    filter.changedAtLastRefresh,
    filter.pattern,
  ]);
}

/** The request fields of a filter, as review.page takes them. */
export function pageFilter(filter: ReviewFilter) {
  return {
    ...(filter.states ? { states: filter.states } : {}),
    ...(filter.text.trim() ? { text: filter.text.trim() } : {}),
    order: filter.order,
    ...(filter.jobChanges ? { jobChanges: filter.jobChanges } : {}),
    ...(filter.changedAtLastRefresh ? { changedAtLastRefresh: true } : {}),
    ...(filter.pattern !== null ? { pattern: filter.pattern } : {}),
  };
}

export interface ReviewList {
  /** Which filter (and refresh) these pages belong to. */
  key: string;
  pages: ReadonlyMap<number, ReviewRow[]>;
  /** Rows in the filter; null until the first page answers. */
  total: number | null;
}

export type ReviewListAction =
  | { type: 'pageLoaded'; key: string; page: number; result: ReviewPage }
  | { type: 'rowChanged'; row: Pick<RowDetail, 'rowIndex' | 'state' | 'chosenRank'> };

const NO_PAGES: ReadonlyMap<number, ReviewRow[]> = new Map();

export function emptyList(key: string): ReviewList {
  return { key, pages: NO_PAGES, total: null };
}

export function reviewListReducer(list: ReviewList, action: ReviewListAction): ReviewList {
  switch (action.type) {
    case 'pageLoaded': {
      const base = action.key === list.key ? list : emptyList(action.key);
      const pages = new Map(base.pages);
      pages.set(action.page, action.result.rows);
      for (const page of farthestPages([...pages.keys()], action.page, MAX_CACHED_PAGES)) pages.delete(page);
      return { key: action.key, pages, total: action.result.total };
    }
    case 'rowChanged': {
      let changed = false;
      const pages = new Map<number, ReviewRow[]>();
      for (const [page, rows] of list.pages) {
        const index = rows.findIndex((row) => row.rowIndex === action.row.rowIndex);
        if (index < 0) {
          pages.set(page, rows);
          continue;
        }
        changed = true;
        const copy = [...rows];
        copy[index] = { ...copy[index], state: action.row.state, chosenRank: action.row.chosenRank };
        pages.set(page, copy);
      }
      return changed ? { ...list, pages } : list;
    }
  }
}

/** The pages beyond `keep`, farthest from `near` first. */
export function farthestPages(pages: number[], near: number, keep: number): number[] {
  if (pages.length <= keep) return [];
  const byDistance = [...pages].sort((a, b) => Math.abs(b - near) - Math.abs(a - near) || b - a);
  return byDistance.slice(0, pages.length - keep);
}

/** The pages that hold positions start..end-1 (always page 0 before the total is known). */
export function pagesForWindow(start: number, end: number, total: number | null, pageSize = PAGE_SIZE): number[] {
  if (total === null) return [0];
  const last = Math.min(end, total) - 1;
  if (last < start) return [];
  const pages: number[] = [];
  for (let page = Math.floor(start / pageSize); page <= Math.floor(last / pageSize); page++) pages.push(page);
  return pages;
}

export function rowAt(list: ReviewList, position: number, pageSize = PAGE_SIZE): ReviewRow | undefined {
  return list.pages.get(Math.floor(position / pageSize))?.[position % pageSize];
}

/** The place of the first row to review in the list's first page; null when it holds none (or is not loaded yet). */
export function firstToReview(list: ReviewList): number | null {
  const index = list.pages.get(0)?.findIndex((row) => row.state === 'to_review') ?? -1;
  return index >= 0 ? index : null;
}

/** Where a sheet row sits in the cached pages, if it is in one. */
export function positionOfRow(list: ReviewList, rowIndex: number, pageSize = PAGE_SIZE): number | null {
  for (const [page, rows] of list.pages) {
    const index = rows.findIndex((row) => row.rowIndex === rowIndex);
    if (index >= 0) return page * pageSize + index;
  }
  return null;
}
