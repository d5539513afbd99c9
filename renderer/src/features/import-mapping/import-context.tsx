import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ContractError, ProjectDetail } from '../../../../shared/contract';
import { api } from '../../api';
import { useRoute } from '../../navigation/use-route';
import { toContractError } from '../../ui/contract-error';
import { fileNameOf, isSupportedSheetName, rememberSheetSource, sessionSources, unsupportedSheetMessage } from './sheet-file';

export type ImportState =
  | { status: 'idle' }
  | { status: 'importing'; fileName: string; rowsRead: number }
  | { status: 'failed'; fileName: string; error: ContractError };

interface ImportContextValue {
  state: ImportState;
  /** Import a dropped or picked browser File. */
  importFile(file: File): Promise<void>;
  /** Import a file the host already knows (a path from the native open dialog). */
  importReference(fileRef: string, options?: { sheet?: string; fileName?: string }): Promise<ProjectDetail | null>;
  dismiss(): void;
}

const ImportContext = createContext<ImportContextValue | null>(null);

export function ImportProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ImportState>({ status: 'idle' });
  const { navigate } = useRoute();
  const importing = state.status === 'importing';

  useEffect(() => {
    if (!importing) return;
    return api.on('import.progress', (progress) => {
      setState((current) => (current.status === 'importing' ? { ...current, rowsRead: progress.rowsRead } : current));
    });
  }, [importing]);

  const importReference = useCallback(
    async (fileRef: string, options: { sheet?: string; fileName?: string } = {}) => {
      const fileName = options.fileName ?? fileNameOf(fileRef);
      setState({ status: 'importing', fileName, rowsRead: 0 });
      try {
        const detail = await api.callOrThrow('projects.import', options.sheet ? { file: fileRef, sheet: options.sheet } : { file: fileRef });
        rememberSheetSource(sessionSources(), detail.summary.id, fileRef);
        setState({ status: 'idle' });
        navigate({ screen: 'mapping', projectId: detail.summary.id });
        return detail;
      } catch (thrown) {
        setState({ status: 'failed', fileName, error: toContractError(thrown) });
        return null;
      }
    },
    [navigate],
  );

  const importFile = useCallback(
    async (file: File) => {
      if (!isSupportedSheetName(file.name)) {
        setState({ status: 'failed', fileName: file.name, error: { kind: 'sheet', message: unsupportedSheetMessage(file.name) } });
        return;
      }
      setState({ status: 'importing', fileName: file.name, rowsRead: 0 });
      let fileRef: string;
      try {
        fileRef = await api.pathForFile(file);
      } catch (thrown) {
        setState({ status: 'failed', fileName: file.name, error: toContractError(thrown) });
        return;
      }
      await importReference(fileRef, { fileName: file.name });
    },
    [importReference],
  );

  const dismiss = useCallback(() => setState({ status: 'idle' }), []);
  const value = useMemo(() => ({ state, importFile, importReference, dismiss }), [state, importFile, importReference, dismiss]);

  return <ImportContext value={value}>{children}</ImportContext>;
}

export function useImport(): ImportContextValue {
  const value = useContext(ImportContext);
  if (!value) throw new Error('useImport needs an ImportProvider');
  return value;
}
