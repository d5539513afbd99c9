import { useImport } from '../features/import-mapping/import-context';
import { ErrorBanner } from '../ui/error-banner';
import { formatCount } from '../ui/format';

/** Where a dropped or picked file's import shows its progress, or why it failed. */
export function ImportStatus() {
  const { state, dismiss } = useImport();
  if (state.status === 'idle') return null;
  if (state.status === 'failed') {
    return <ErrorBanner error={state.error} title={`Could not import ${state.fileName}`} onDismiss={dismiss} />;
  }
  return (
    // Only the words are a live region: the rows read change several times a second, and a screen reader would
    // say each count (ui/progress-line.tsx does the same for planning and exports).
    <div className="banner banner--info import-status" data-testid="import-status">
      <span className="spinner" aria-hidden="true" />
      <span>
        <span role="status">
          Importing <strong>{state.fileName}</strong>
        </span>
        {state.rowsRead > 0 ? (
          <span role="progressbar" aria-label="Rows read" aria-valuetext={`${formatCount(state.rowsRead)} rows read`}>
            {` — ${formatCount(state.rowsRead)} rows read`}
          </span>
        ) : (
          '…'
        )}
      </span>
    </div>
  );
}
