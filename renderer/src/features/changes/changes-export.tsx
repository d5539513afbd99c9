import { useState } from 'react';
import type { ContractError, ExportResult } from '../../../../shared/contract';
import { api } from '../../api';
import { useAppData } from '../../app-data';
import { BreakableText } from '../../ui/breakable-text';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { changesExportName } from './change-text';

/**
 * The changes since the day as a file a CRM imports (one row a change: the sheet's columns, the person, old and new
 * company and title, the dates), saved where the user picks in Electron and downloaded in a browser, as other exports.
 */
export function ChangesExport({ projectId, projectName, since, count }: { projectId: number; projectName: string; since: string; count: number | null }) {
  const data = useAppData();
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [outcome, setOutcome] = useState<{ result: ExportResult; downloaded: boolean } | null>(null);

  const run = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      const dialog = await api.callOrThrow('dialog.saveExport', { defaultName: changesExportName(projectName, since, format), format });
      if (dialog.supported && dialog.path === null) return;
      const result = await api.callOrThrow('watch.exportChanges', { projectId, since, format, destination: dialog.supported ? dialog.path : null });
      if (!dialog.supported) api.downloadExport(result);
      setOutcome({ result, downloaded: !dialog.supported });
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="changes-export">
      <fieldset className="changes-export__format" disabled={busy}>
        <legend className="sr-only">Format of the CRM file</legend>
        <label className="radio">
          <input type="radio" name="changes-format" checked={format === 'csv'} onChange={() => setFormat('csv')} /> CSV
        </label>
        <label className="radio">
          <input type="radio" name="changes-format" checked={format === 'xlsx'} onChange={() => setFormat('xlsx')} data-testid="changes-format-xlsx" /> Excel (.xlsx)
        </label>
      </fieldset>
      <Button variant="primary" busy={busy} disabled={count === null} onClick={run} data-testid="changes-export">
        {data.info?.host === 'electron' ? 'Export for the CRM…' : 'Export for the CRM'}
      </Button>
      {busy && (
        <span className="muted" role="status">
          Writing the changes…
        </span>
      )}
      <ErrorBanner error={error} title="The export failed" onDismiss={() => setError(null)} />
      {outcome && (
        <div className="banner banner--success changes-export__result" role="status" data-testid="changes-export-result">
          <div className="banner__text">
            <strong>
              Exported {plural(outcome.result.rows, 'change')} to {outcome.result.fileName}
            </strong>
            <p>
              {outcome.downloaded ? (
                'The file was handed to the browser as a download: look in your downloads folder.'
              ) : (
                <span className="mono selectable">{outcome.result.path && <BreakableText text={outcome.result.path} />}</span>
              )}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
