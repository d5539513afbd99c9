import { useId, useState } from 'react';
import type { ContractError, ExportResult } from '../../../../shared/contract';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { DELIMITERS, type Delimiter } from '../export/export-choice';
import { DEFAULT_SEARCH_EXPORT, searchExportInput, searchExportName, type SearchExportChoice } from './search-export-choice';
import { BreakableText } from '../../ui/breakable-text';

interface SearchExportProps {
  searchId: number;
  searchName: string;
  people: number;
  disabled: boolean;
}

/** One row per person with the job that matched, as CSV or XLSX: a save dialog in Electron, a download in a browser. */
export function SearchExport({ searchId, searchName, people, disabled }: SearchExportProps) {
  const ids = useId();
  const [choice, setChoice] = useState<SearchExportChoice>(DEFAULT_SEARCH_EXPORT);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [outcome, setOutcome] = useState<{ result: ExportResult; downloaded: boolean } | null>(null);

  const run = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      const dialog = await api.callOrThrow('dialog.saveExport', { defaultName: searchExportName(searchName, choice.format), format: choice.format });
      if (dialog.supported && dialog.path === null) return;
      const result = await api.callOrThrow('search.export', searchExportInput(searchId, choice, dialog.supported ? dialog.path : null));
      if (!dialog.supported) api.downloadExport(result);
      setOutcome({ result, downloaded: !dialog.supported });
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="search-export" data-testid="search-export">
      <div className="search-export__controls">
        <div className="segmented" role="radiogroup" aria-label="Export format">
          {(['csv', 'xlsx'] as const).map((format) => (
            <label key={format} className="segmented__option">
              <input type="radio" name={`${ids}-format`} checked={choice.format === format} onChange={() => setChoice((c) => ({ ...c, format }))} data-testid={`search-export-${format}`} />
              {format === 'csv' ? 'CSV' : 'Excel (.xlsx)'}
            </label>
          ))}
        </div>
        {choice.format === 'csv' && (
          <select aria-label="Separator" value={choice.delimiter} onChange={(event) => setChoice((c) => ({ ...c, delimiter: event.target.value as Delimiter }))} className="search-export__delimiter">
            {DELIMITERS.map((delimiter) => (
              <option key={delimiter.label} value={delimiter.value}>
                {delimiter.label}
              </option>
            ))}
          </select>
        )}
        <Button variant="primary" busy={busy} disabled={disabled} onClick={() => void run()} data-testid="search-export-button" title={`One row per person (${plural(people, 'person', 'people')}) with the job that matched`}>
          {api.host === 'electron' ? 'Export…' : 'Export'}
        </Button>
      </div>
      <ErrorBanner error={error} title="The export failed" onDismiss={() => setError(null)} />
      {outcome && (
        <div className="banner banner--success" role="status" data-testid="search-export-result">
          <div className="banner__text">
            <strong>
              Exported {plural(outcome.result.rows, 'person', 'people')} to {outcome.result.fileName}
            </strong>
            <p>{outcome.downloaded ? 'The file was handed to the browser as a download: look in your downloads folder.' : <span className="mono selectable">{outcome.result.path && <BreakableText text={outcome.result.path} />}</span>}</p>
          </div>
          <button type="button" className="button button--quiet button--small" onClick={() => setOutcome(null)} aria-label="Dismiss this message">
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
