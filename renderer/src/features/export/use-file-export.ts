import { useState } from 'react';
import type { ContractError, ExportResult } from '../../../../shared/contract';
import { api } from '../../api';
import { toContractError } from '../../ui/contract-error';

/** What an export answered, and whether the browser was handed it as a download (else it is where the user chose). */
export interface ExportOutcomeValue {
  result: ExportResult;
  downloaded: boolean;
}

export interface FileExport {
  busy: boolean;
  error: ContractError | null;
  outcome: ExportOutcomeValue | null;
  /** Asks where (Electron's save dialog; a browser downloads instead), then writes the file there: nothing if the dialog is cancelled. */
  run(defaultName: string, format: 'csv' | 'xlsx'): Promise<void>;
  dismissError(): void;
  dismissOutcome(): void;
}

/**
 * One file written by a call of the engine (`write`, given where: a path, or null for the browser host's download):
 * the save dialog first where there is one, then the call, its answer or its error. The changes for a CRM and a
 * search's people are written so.
 */
export function useFileExport(write: (destination: string | null) => Promise<ExportResult>): FileExport {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [outcome, setOutcome] = useState<ExportOutcomeValue | null>(null);

  const run = async (defaultName: string, format: 'csv' | 'xlsx') => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      const dialog = await api.callOrThrow('dialog.saveExport', { defaultName, format });
      if (dialog.supported && dialog.path === null) return;
      const result = await write(dialog.supported ? dialog.path : null);
      if (!dialog.supported) api.downloadExport(result);
      setOutcome({ result, downloaded: !dialog.supported });
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(false);
    }
  };

  return { busy, error, outcome, run, dismissError: () => setError(null), dismissOutcome: () => setOutcome(null) };
}
