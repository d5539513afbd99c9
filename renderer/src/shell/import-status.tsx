import { useImport } from '../features/import-mapping/import-context';
import { routeToHash } from '../navigation/route';
import { Button } from '../ui/button';
import { ErrorBanner } from '../ui/error-banner';
import { formatCount, plural } from '../ui/format';
import { useEscapeToCancel } from '../ui/use-shortcuts';

/** Where a dropped or picked file's import shows its progress (with a way to cancel it), why it failed, or that it was cancelled. */
export function ImportStatus() {
  const { state, cancel, dismiss } = useImport();
  useEscapeToCancel(cancel, state.status === 'importing' && !state.cancelling);
  if (state.status === 'idle') return null;
  if (state.status === 'failed') {
    return <ErrorBanner error={state.error} title={`Could not import ${state.fileName}`} onDismiss={dismiss} />;
  }
  if (state.status === 'imported') {
    return (
      <div className="banner banner--info import-status" data-testid="import-status">
        <div className="banner__text">
          <strong role="status">{state.fileName} is imported</strong>
          <p>{plural(state.rowCount, 'row')}. Map its columns to see what a run will cost.</p>
        </div>
        <div className="banner__actions">
          <a className="button button--primary button--small" href={routeToHash({ screen: 'mapping', projectId: state.projectId })} onClick={dismiss}>
            Map its columns
          </a>
          <Button variant="quiet" small onClick={dismiss} aria-label="Dismiss this message">
            Dismiss
          </Button>
        </div>
      </div>
    );
  }
  if (state.status === 'cancelled') {
    return (
      <div className="banner banner--info import-status" data-testid="import-status">
        <div className="banner__text">
          <strong role="status">Import cancelled</strong>
          <p>{state.message}</p>
        </div>
        <div className="banner__actions">
          <Button variant="quiet" small onClick={dismiss} aria-label="Dismiss this message">
            Dismiss
          </Button>
        </div>
      </div>
    );
  }
  return (
    // Only the words are a live region: the rows read change several times a second, and a screen reader would
    // say each count (ui/progress-line.tsx does the same for planning and exports).
    <div className="banner banner--info import-status" data-testid="import-status">
      <span className="spinner" aria-hidden="true" />
      <span className="import-status__text">
        <span role="status">
          {state.cancelling ? 'Cancelling the import of ' : 'Importing '}
          <strong>{state.fileName}</strong>
        </span>
        {state.rowsRead > 0 ? (
          <span
            role="progressbar"
            aria-label="Rows read"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={state.percent}
            aria-valuetext={`${formatCount(state.rowsRead)} rows read, ${state.percent}%`}
          >
            {` — ${formatCount(state.rowsRead)} rows read · ${state.percent}%`}
          </span>
        ) : (
          '…'
        )}
      </span>
      <div className="banner__actions">
        <Button small onClick={cancel} disabled={state.cancelling} title="Cancel the import (Esc)" aria-keyshortcuts="Escape" data-testid="import-cancel">
          Cancel
        </Button>
      </div>
    </div>
  );
}
