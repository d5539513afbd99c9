import { useId, useState } from 'react';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { DELIMITERS, type Delimiter } from '../export/export-choice';
import { ExportOutcome } from '../export/export-outcome';
import { useFileExport } from '../export/use-file-export';
import { DEFAULT_SEARCH_EXPORT, searchExportInput, searchExportName, type SearchExportChoice } from './search-export-choice';

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
  const file = useFileExport((destination) => api.callOrThrow('search.export', searchExportInput(searchId, choice, destination)));
  const run = () => file.run(searchExportName(searchName, choice.format), choice.format);

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
        <Button variant="primary" busy={file.busy} disabled={disabled} onClick={() => void run()} data-testid="search-export-button" title={`One row per person (${plural(people, 'person', 'people')}) with the job that matched`}>
          {api.host === 'electron' ? 'Export…' : 'Export'}
        </Button>
      </div>
      <ErrorBanner error={file.error} title="The export failed" onDismiss={file.dismissError} />
      {file.outcome && <ExportOutcome outcome={file.outcome} rows={(n) => plural(n, 'person', 'people')} testId="search-export-result" onDismiss={file.dismissOutcome} />}
    </div>
  );
}
