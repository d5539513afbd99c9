import { useRef, useState, type Ref } from 'react';
import type { ContractError, SearchProgress } from '../../../../shared/contract';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useShortcuts } from '../../ui/use-shortcuts';
import type { ListWindow } from '../../ui/virtual-list';
import { ResultDetails } from './result-details';
import { resultAt, resultsKey } from './results-list';
import { ResultsTable } from './results-table';
import { SearchExport } from './search-export';
import { searchControls } from './search-progress-text';
import { SearchProgressView } from './search-progress-view';
import { useResultsList } from './use-results-list';

interface SearchResultsProps {
  headingRef: Ref<HTMLHeadingElement>;
  progress: SearchProgress;
  busy: 'cancel' | 'resume' | null;
  actionError: ContractError | null;
  onDismissError: () => void;
  onCancel: () => void;
  onResume: () => void;
}

/** A search's progress, its people in a virtualized table (pages fetched as they are scrolled to), and the export. */
export function SearchResults({ headingRef, progress, busy, actionError, onDismissError, onCancel, onResume }: SearchResultsProps) {
  const searchId = progress.searchId;
  const [text, setText] = useState('');
  const query = useDebouncedValue(text, 250);
  const view = useResultsList(searchId, query, `${progress.people}:${progress.status}:${progress.updatedAt}`);
  const key = resultsKey(searchId, query);
  const total = view.list.total ?? 0;
  const [selection, setSelection] = useState({ key, position: 0 });
  const selected = selection.key === key ? Math.min(selection.position, Math.max(0, total - 1)) : 0;
  const [pageRows, setPageRows] = useState(10);
  const gridRef = useRef<HTMLDivElement>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const controls = searchControls(progress.status);

  useShortcuts((event) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return false;
    filterRef.current?.focus();
    return true;
  });

  const onWindowChange = (window: ListWindow) => {
    view.showWindow(window.start, window.end);
    setPageRows(window.pageRows);
  };

  const filtered = query.trim() !== '';
  return (
    <section className="card search-results" aria-labelledby="search-results-heading" data-testid="search-results-card" data-search-id={searchId}>
      <div className="section-head">
        <h2 id="search-results-heading" ref={headingRef} tabIndex={-1}>
          {progress.name}
        </h2>
        <div className="form-actions search-results__controls">
          {controls.cancel && (
            <Button variant="danger" small busy={busy === 'cancel'} onClick={onCancel} data-testid="search-cancel">
              Cancel
            </Button>
          )}
          {controls.resume && (
            <Button variant="primary" small busy={busy === 'resume'} onClick={onResume} data-testid="search-resume">
              Resume
            </Button>
          )}
        </div>
      </div>
      <SearchProgressView progress={progress} />
      <ErrorBanner error={actionError} onDismiss={onDismissError} />

      <div className="search-results__toolbar">
        <input
          ref={filterRef}
          type="search"
          className="text-filter"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === 'ArrowDown' || (event.key === 'Escape' && text === '')) {
              event.preventDefault();
              gridRef.current?.focus();
            }
          }}
          placeholder="Filter by name, title or company… ( / )"
          aria-label="Filter the people found by text"
          data-testid="search-results-filter"
        />
        <span className="muted" aria-live="polite" data-testid="search-results-total">
          {view.list.total === null ? 'Loading…' : filtered ? `${plural(total, 'person', 'people')} match` : plural(total, 'person', 'people')}
        </span>
        <span className="review-toolbar__spacer" />
        <SearchExport searchId={searchId} searchName={progress.name} people={progress.people} disabled={progress.people === 0} />
      </div>
      <ErrorBanner error={view.error} title="Could not load the people found" onRetry={view.retry} />
      <ResultsTable
        gridRef={gridRef}
        list={view.list}
        selected={selected}
        pageRows={pageRows}
        resetKey={key}
        onSelect={(position) => setSelection({ key, position })}
        onWindowChange={onWindowChange}
        emptyText={filtered ? 'Nobody found matches this text.' : progress.status === 'running' ? 'Nobody found yet…' : 'Nobody meets these criteria.'}
      />
      <ResultDetails row={resultAt(view.list, selected)} />
    </section>
  );
}
