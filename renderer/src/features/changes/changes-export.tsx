import { useState } from 'react';
import { api } from '../../api';
import { useAppData } from '../../app-data';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { ExportOutcome } from '../export/export-outcome';
import { useFileExport } from '../export/use-file-export';
import { changesExportName } from './change-text';

/**
 * The changes since the day as a file a CRM imports (one row a change: the sheet's columns, the person, old and new
 * company and title, the dates), saved where the user picks in Electron and downloaded in a browser, as other exports.
 */
export function ChangesExport({ projectId, projectName, since, count }: { projectId: number; projectName: string; since: string; count: number | null }) {
  const data = useAppData();
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const file = useFileExport((destination) => api.callOrThrow('watch.exportChanges', { projectId, since, format, destination }));
  const busy = file.busy;
  const run = () => file.run(changesExportName(projectName, since, format), format);

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
      <ErrorBanner error={file.error} title="The export failed" onDismiss={file.dismissError} />
      {file.outcome && <ExportOutcome outcome={file.outcome} rows={(n) => plural(n, 'change')} testId="changes-export-result" className="changes-export__result" />}
    </div>
  );
}
