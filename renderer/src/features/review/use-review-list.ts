import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ContractError, ReviewCounts, ReviewPage } from '../../../../shared/contract';
import type { RowState } from '../../../../shared/model';
import { api } from '../../api';
import { toContractError } from '../../ui/contract-error';
import { useChangedCount } from '../projects/changed-count';
import { emptyList, PAGE_SIZE, pageFilter, pagesForWindow, reviewListReducer, type ReviewFilter, type ReviewList, type ReviewListAction } from './review-list';

/** Where the matched people are now, for the whole project, and what the last refresh changed. */
export type JobChangeSummary = Pick<ReviewPage, 'jobChanges' | 'changedAtLastRefresh' | 'lastRefreshAt'>;

export interface ReviewListView {
  list: ReviewList;
  /** Rows per state in the view on show: under the job-change filters, as the state chips count them. */
  counts: Record<RowState, number> | null;
  /** The project's matched rows by job change, and its last refresh: whether the job-change chips are shown. */
  jobChanges: JobChangeSummary | null;
  /** The same figures in the view on show: under the state filter, as the job-change chips count them. */
  viewJobChanges: JobChangeSummary | null;
  error: ContractError | null;
  /** Tell the list which positions are on screen; it fetches the pages they need. */
  showWindow(start: number, end: number): void;
  update(action: ReviewListAction): void;
  /** The project's figures as a decision left them (its answer gives them, as a page does). */
  setFigures(figures: Pick<ReviewPage, 'counts' | 'jobChanges' | 'changedAtLastRefresh'>): void;
}

/**
 * The rows of one filter, fetched in pages as the user scrolls. `listKey` names the filter plus a refresh
 * count: a new key starts from scratch, and answers for an old key are ignored.
 */
export function useReviewList(projectId: number, filter: ReviewFilter, listKey: string): ReviewListView {
  const [stored, dispatch] = useReducer(reviewListReducer, listKey, emptyList);
  const [counts, setCounts] = useState<Record<RowState, number> | null>(null);
  const [jobChanges, setJobChanges] = useState<JobChangeSummary | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: ContractError } | null>(null);
  const [shown, setShown] = useState({ start: 0, end: 60 });
  // The chips count the view on show (review.counts) once a filter by status is on, asked again after every decision.
  const filtered = filter.states !== null || filter.jobChanges !== null || filter.changedAtLastRefresh;
  const [figuresSeen, setFiguresSeen] = useState(0);
  const [viewCounts, setViewCounts] = useState<{ key: string; counts: ReviewCounts } | null>(null);
  const [countsFailure, setCountsFailure] = useState<{ key: string; error: ContractError } | null>(null);
  const inFlight = useRef(new Set<string>());
  const currentKey = useRef(listKey);
  useEffect(() => {
    currentKey.current = listKey;
  }, [listKey]);

  const list = stored.key === listKey ? stored : emptyList(listKey);
  const failed = failure?.key === listKey;

  useEffect(() => {
    if (failed) return;
    for (const page of pagesForWindow(shown.start, shown.end, list.total)) {
      const flightKey = `${listKey}|${page}`;
      if (list.pages.has(page) || inFlight.current.has(flightKey)) continue;
      inFlight.current.add(flightKey);
      api
        .callOrThrow('review.page', { projectId, ...pageFilter(filter), offset: page * PAGE_SIZE, limit: PAGE_SIZE })
        .then(
          (result) => {
            if (currentKey.current !== listKey) return;
            dispatch({ type: 'pageLoaded', key: listKey, page, result });
            setCounts(result.counts);
            setJobChanges({ jobChanges: result.jobChanges, changedAtLastRefresh: result.changedAtLastRefresh, lastRefreshAt: result.lastRefreshAt });
          },
          (thrown: unknown) => {
            if (currentKey.current === listKey) setFailure({ key: listKey, error: toContractError(thrown) });
          },
        )
        .finally(() => inFlight.current.delete(flightKey));
    }
  }, [projectId, filter, listKey, list.pages, list.total, shown.start, shown.end, failed]);

  const countsKey = `${listKey}@${figuresSeen}`;
  useEffect(() => {
    if (!filtered) return;
    let live = true;
    const { states, jobChanges, changedAtLastRefresh } = pageFilter(filter);
    api.callOrThrow('review.counts', { projectId, states, jobChanges, changedAtLastRefresh }).then(
      (result) => {
        if (live) setViewCounts({ key: countsKey, counts: result });
      },
      (thrown: unknown) => {
        if (live) setCountsFailure({ key: countsKey, error: toContractError(thrown) });
      },
    );
    return () => {
      live = false;
    };
  }, [projectId, filter, filtered, countsKey]);

  const showWindow = useCallback((start: number, end: number) => {
    setShown((current) => (current.start === start && current.end === end ? current : { start, end }));
  }, []);

  const setFigures = useCallback((figures: Pick<ReviewPage, 'counts' | 'jobChanges' | 'changedAtLastRefresh'>) => {
    setCounts(figures.counts);
    setFiguresSeen((n) => n + 1);
    setJobChanges((current) => ({ jobChanges: figures.jobChanges, changedAtLastRefresh: figures.changedAtLastRefresh, lastRefreshAt: current?.lastRefreshAt ?? null }));
  }, []);

  // A large project's changed rows may still be counted: the figure comes with the engine's event.
  const changed = useChangedCount(projectId, jobChanges?.changedAtLastRefresh);
  const shownJobChanges = jobChanges && jobChanges.changedAtLastRefresh !== changed ? { ...jobChanges, changedAtLastRefresh: changed } : jobChanges;

  // Until the view's figures come, the last ones stand (a decision moves a figure by one at most).
  const view = filtered ? (viewCounts?.counts ?? null) : null;
  const viewJobChanges = !filtered ? shownJobChanges : view && jobChanges ? { jobChanges: view.jobChanges, changedAtLastRefresh: view.changedAtLastRefresh, lastRefreshAt: jobChanges.lastRefreshAt } : null;
  const error = failed ? failure.error : countsFailure?.key === countsKey ? countsFailure.error : null;
  return { list, counts: filtered ? (view?.counts ?? null) : counts, jobChanges: shownJobChanges, viewJobChanges, error, showWindow, update: dispatch, setFigures };
}
