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
    <div className="banner banner--info import-status" role="status" data-testid="import-status">
      <span className="spinner" aria-hidden="true" />
      <span>
        Importing <strong>{state.fileName}</strong>
        {state.rowsRead > 0 ? ` — ${formatCount(state.rowsRead)} rows read` : '…'}
      </span>
    </div>
  );
}
