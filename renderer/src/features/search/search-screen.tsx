import { useEffect, useId, useMemo, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import type { ContractError, SearchProgress } from '../../../../shared/contract';
import { detailOf } from '../../../../shared/job-detail';
import type { SearchFilter } from '../../../../shared/search-filters';
import { api } from '../../api';
import { cancelThenStatus } from '../../jobs/cancel-then-status';
import { activeProfile, useAppData } from '../../app-data';
import { routeToHash } from '../../navigation/route';
import { useRoute } from '../../navigation/use-route';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner, Notice } from '../../ui/error-banner';
import { useEngineData } from '../../ui/use-engine-data';
import { useToast } from '../../ui/toasts';
import { FilterBuilder } from './filter-builder';
import { builderFromFilters, builderProblems, builderReducer, emptyBuilder, filtersOfBuilder, requestJson } from './filter-builder-state';
import { RequestJson } from './request-json';
import { SearchResults } from './search-results';
import { TemplatePicker } from './template-picker';
import './search.css';

type Busy = 'run' | 'cancel' | 'resume' | null;

/** A name the engine would not guess, remembered with the request it was made for (a template's "Left 6 companies since …"). */
interface SuggestedName {
  name: string;
  forRequest: string;
}

export function SearchScreen({ searchId }: { searchId: number | null }) {
  const ids = useId();
  const { navigate } = useRoute();
  const data = useAppData();
  const profile = activeProfile(data);
  const toast = useToast();
  const [builder, dispatch] = useReducer(builderReducer, undefined, emptyBuilder);
  const request = useMemo(() => filtersOfBuilder(builder), [builder]);
  const problems = useMemo(() => builderProblems(request), [request]);
  const json = requestJson(request.filters);
  const [attempted, setAttempted] = useState(false);
  const [typedName, setTypedName] = useState('');
  const [suggested, setSuggested] = useState<SuggestedName | null>(null);
  const suggestedName = suggested && suggested.forRequest === json ? suggested.name : null;
  const [offline, setOffline] = useState(false);
  const [refresh, setRefresh] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [runError, setRunError] = useState<ContractError | null>(null);
  const [actionError, setActionError] = useState<ContractError | null>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const filtersHeading = useRef<HTMLHeadingElement>(null);

  // The searches this screen started: their filters are already in the builder.
  const started = useRef(new Set<number>());
  const summary = useEngineData(searchId === null ? null : `search:${searchId}`, () => api.callOrThrow('search.get', { searchId: searchId ?? 0 }));
  const [live, setLive] = useState<SearchProgress | null>(null);
  const progress = live?.searchId === searchId ? live : (summary.value ?? null);

  useEffect(
    () =>
      api.on('job.progress', (job) => {
        const next = detailOf(job, 'search');
        if (next !== null) setLive((current) => (next.searchId === searchId || current?.searchId === next.searchId ? next : current));
      }),
    [searchId],
  );

  // A saved search opened from the list (or a reload): its filters fill the builder, and its results come into view.
  const loadedFor = useRef<number | null>(null);
  useEffect(() => {
    const saved = summary.value;
    if (!saved || saved.searchId !== searchId || loadedFor.current === searchId || started.current.has(saved.searchId)) return;
    loadedFor.current = searchId;
    dispatch({ type: 'load', filters: saved.filters });
    setTypedName(saved.name);
    setSuggested(null);
    const frame = requestAnimationFrame(() => requestAnimationFrame(() => resultsHeading.current?.scrollIntoView({ block: 'start' })));
    return () => cancelAnimationFrame(frame);
  }, [summary.value, searchId]);

  const showResults = () => {
    // After the app's own move of focus to the heading of a new route (app.tsx), which waits a frame.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        resultsHeading.current?.focus({ preventScroll: true });
        resultsHeading.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
      }),
    );
  };

  const run = async () => {
    if (problems.count > 0) {
      setAttempted(true);
      requestAnimationFrame(() => {
        const first = document.querySelector<HTMLElement>('.filter-row--invalid select, .filter-row--invalid textarea, .filter-row--invalid input');
        (first ?? document.querySelector<HTMLElement>('[data-testid="add-filter"]'))?.focus();
      });
      return;
    }
    setBusy('run');
    setRunError(null);
    setActionError(null);
    try {
      const name = typedName.trim() || suggestedName;
      const result = await api.callOrThrow('search.run', { filters: request.filters, ...(name ? { name } : {}), offline, refresh });
      started.current.add(result.searchId);
      setLive(result);
      setAttempted(false);
      if (result.fromCache && !result.offline) toast('Answered from the stored results of the same search: no call was made.');
      if (result.searchId !== searchId) navigate({ screen: 'search', searchId: result.searchId });
      summary.reload();
      showResults();
    } catch (thrown) {
      setRunError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  const act = async (action: 'cancel' | 'resume') => {
    if (searchId === null) return;
    setBusy(action);
    setActionError(null);
    try {
      const result = action === 'cancel' ? await cancelThenStatus({ kind: 'search', searchId }, 'search.status', { searchId }) : await api.callOrThrow('search.resume', { searchId });
      if (result) setLive(result);
    } catch (thrown) {
      setActionError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  const applyTemplate = (built: { filters: SearchFilter[]; name: string }) => {
    dispatch({ type: 'load', filters: built.filters });
    setTypedName('');
    setSuggested({ name: built.name, forRequest: requestJson(filtersOfBuilder(builderFromFilters(built.filters)).filters) });
    setAttempted(false);
    setRunError(null);
    toast('The template filled the filters. Check them, then run.');
    // The template's form closes under the focus: go on from the filters it wrote.
    requestAnimationFrame(() => filtersHeading.current?.focus());
  };

  const startOver = () => {
    dispatch({ type: 'clear' });
    setTypedName('');
    setSuggested(null);
    setAttempted(false);
    setRunError(null);
    loadedFor.current = null;
    if (searchId !== null) navigate({ screen: 'search', searchId: null });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !document.querySelector('dialog[open]')) {
      event.preventDefault();
      if (busy === null) void run();
    }
  };

  const needsProfile = !offline && data.profiles !== null && !profile;
  return (
    <div className="screen search-screen" onKeyDown={onKeyDown}>
      <header className="screen__header screen__header--row">
        <div>
          <h1 tabIndex={-1}>Search by criteria</h1>
          <p className="screen__lead">Everyone who meets the filters, found by the service a page at a time and kept on this computer, so reopening a search costs nothing.</p>
        </div>
        <Button onClick={startOver} data-testid="search-new">
          New search
        </Button>
      </header>
      <ErrorBanner error={summary.error} title="Could not open the search" onRetry={summary.reload} />

      <section className="card" aria-labelledby={`${ids}-templates`}>
        <h2 id={`${ids}-templates`}>Start from a template</h2>
        <TemplatePicker onApply={applyTemplate} />
      </section>

      <section className="card search-filters" aria-labelledby={`${ids}-filters`}>
        <div className="section-head">
          <h2 id={`${ids}-filters`} ref={filtersHeading} tabIndex={-1}>
            Filters
          </h2>
          <span className="muted">Every filter must hold. Filters in a same-job box must hold for one and the same job.</span>
        </div>
        <FilterBuilder state={builder} dispatch={dispatch} problems={problems} showAll={attempted} />
        <RequestJson filters={request.filters} />

        <div className="search-run">
          <div className="field search-run__name">
            <label htmlFor={`${ids}-name`}>Name</label>
            <input id={`${ids}-name`} value={typedName} onChange={(event) => setTypedName(event.target.value)} placeholder={suggestedName ?? 'Named after its filters'} maxLength={300} data-testid="search-name" />
          </div>
          <div className="search-run__options">
            <label className="switch">
              <input type="checkbox" checked={offline} onChange={(event) => setOffline(event.target.checked)} data-testid="search-offline" />
              Offline: stored results only
            </label>
            <label className="switch">
              <input type="checkbox" checked={refresh} disabled={offline} onChange={(event) => setRefresh(event.target.checked)} data-testid="search-refresh" />
              Ask the service again, even if stored
            </label>
          </div>
          <Button variant="primary" busy={busy === 'run'} onClick={() => void run()} aria-keyshortcuts="Control+Enter" data-testid="search-run" disabled={needsProfile}>
            Run the search <kbd aria-hidden="true">Ctrl+Enter</kbd>
          </Button>
        </div>
        {attempted && problems.count > 0 && (
          <p className="field__error" role="alert" data-testid="search-problems">
            {problems.count === 1 ? 'One thing to fix' : `${problems.count} things to fix`} before the search can run: see the filters marked above.
          </p>
        )}
        {needsProfile && (
          <Notice tone="warning">
            No profile is selected. <a href={routeToHash({ screen: 'account' })}>Choose or add one in Account</a>, or use stored results only.
          </Notice>
        )}
        <ErrorBanner error={runError} title="The search did not start" onDismiss={() => setRunError(null)} />
      </section>

      {searchId !== null && progress && (
        <SearchResults
          key={searchId}
          headingRef={resultsHeading}
          progress={progress}
          busy={busy === 'cancel' || busy === 'resume' ? busy : null}
          actionError={actionError}
          onDismissError={() => setActionError(null)}
          onCancel={() => void act('cancel')}
          onResume={() => void act('resume')}
        />
      )}
      {searchId !== null && !progress && !summary.error && <p className="muted">Opening the search…</p>}
    </div>
  );
}
