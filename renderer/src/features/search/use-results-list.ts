import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ContractError } from '../../../../shared/contract';
import { api } from '../../api';
import { toContractError } from '../../ui/contract-error';
import { emptyResults, pagesToFetch, RESULTS_PAGE_SIZE, resultsKey, resultsListReducer, type ResultsList } from './results-list';

export interface ResultsListView {
  list: ResultsList;
  error: ContractError | null;
  showWindow(start: number, end: number): void;
  retry(): void;
}

/** While a search runs, new pages are fetched at most this often. */
const REFRESH_MS = 300;

/**
 * The results of one search (and text filter), fetched a page at a time as the user scrolls. `stamp` changes when
 * the engine stored more people: the pages in view are fetched again, the old ones shown until then.
 */
export function useResultsList(searchId: number, text: string, stamp: string): ResultsListView {
  const key = resultsKey(searchId, text);
  const [stored, dispatch] = useReducer(resultsListReducer, key, emptyResults);
  const [failure, setFailure] = useState<{ key: string; error: ContractError } | null>(null);
  const [shown, setShown] = useState({ start: 0, end: 40 });
  const inFlight = useRef(new Set<string>());
  const currentKey = useRef(key);
  useEffect(() => {
    currentKey.current = key;
  }, [key]);

  const list = stored.key === key ? stored : emptyResults(key);
  const failed = failure?.key === key;

  const lastStamp = useRef(stamp);
  const lastRefresh = useRef(0);
  useEffect(() => {
    if (lastStamp.current === stamp) return;
    lastStamp.current = stamp;
    const wait = Math.max(0, lastRefresh.current + REFRESH_MS - Date.now());
    const timer = window.setTimeout(() => {
      lastRefresh.current = Date.now();
      dispatch({ type: 'invalidate', key });
    }, wait);
    return () => window.clearTimeout(timer);
  }, [stamp, key]);

  useEffect(() => {
    if (failed) return;
    const version = list.version;
    for (const page of pagesToFetch(list, shown.start, shown.end)) {
      const flightKey = `${key}|${version}|${page}`;
      if (inFlight.current.has(flightKey)) continue;
      inFlight.current.add(flightKey);
      api
        .callOrThrow('search.results', { searchId, offset: page * RESULTS_PAGE_SIZE, limit: RESULTS_PAGE_SIZE, ...(text.trim() ? { text: text.trim() } : {}) })
        .then(
          (result) => {
            if (currentKey.current === key) dispatch({ type: 'pageLoaded', key, version, page, result });
          },
          (thrown: unknown) => {
            if (currentKey.current === key) setFailure({ key, error: toContractError(thrown) });
          },
        )
        .finally(() => inFlight.current.delete(flightKey));
    }
  }, [searchId, text, key, list, shown.start, shown.end, failed]);

  const showWindow = useCallback((start: number, end: number) => {
    setShown((current) => (current.start === start && current.end === end ? current : { start, end }));
  }, []);
  const retry = useCallback(() => setFailure(null), []);

  return { list, error: failed ? failure.error : null, showWindow, retry };
}
