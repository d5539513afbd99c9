import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ContractError, ProjectDetail } from '../../../../shared/contract';
import { detailOf } from '../../../../shared/job-detail';
import { api } from '../../api';
import { useRoute } from '../../navigation/use-route';
import { toContractError } from '../../ui/contract-error';
import { fileNameOf, isSupportedSheetName, rememberSheetSource, sessionSources, unsupportedSheetMessage } from './sheet-file';

export type ImportState =
  | { status: 'idle' }
  | { status: 'importing'; fileName: string; rowsRead: number; percent: number; cancelling: boolean }
  | { status: 'failed'; fileName: string; error: ContractError }
  /** The user cancelled it: `message` says what was kept (nothing). */
  | { status: 'cancelled'; fileName: string; message: string }
  /** It ended while the user was on another screen than the one they started it from: they are left there, told. */
  | { status: 'imported'; fileName: string; projectId: number; rowCount: number };

interface ImportContextValue {
  state: ImportState;
  /** Import a dropped or picked browser File. */
  importFile(file: File): Promise<void>;
  /** Import a file the host already knows (a path from the native open dialog). */
  importReference(fileRef: string, options?: { sheet?: string; fileName?: string }): Promise<ProjectDetail | null>;
  /** Cancels the import under way (a large sheet takes a while): nothing of it is kept. */
  cancel(): void;
  dismiss(): void;
}

interface ImportUnderWay {
  /** Null while a browser still uploads the file. */
  fileRef: string | null;
  cancelled: boolean;
  /** The screen shown when it began (its hash). */
  startedOn: string;
}

/** What a cancelled import says when it was cancelled before the engine had it (while a browser uploaded it). */
const cancelledBeforeImport = (fileName: string) => `The import of ${fileName} was cancelled: nothing of it was kept.`;

function importUnderWay(): ImportUnderWay {
  return { fileRef: null, cancelled: false, startedOn: window.location.hash };
}

const ImportContext = createContext<ImportContextValue | null>(null);

export function ImportProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ImportState>({ status: 'idle' });
  const { navigate } = useRoute();
  const importing = state.status === 'importing';
  /** The import under way: its file reference once the host has one (a browser uploads the file first), and whether it was cancelled. */
  const current = useRef<ImportUnderWay | null>(null);

  useEffect(() => {
    if (!importing) return;
    return api.on('job.progress', (job) => {
      const progress = detailOf(job, 'import');
      if (progress === null) return;
      setState((current) => (current.status === 'importing' ? { ...current, rowsRead: progress.rowsRead, percent: progress.percent } : current));
    });
  }, [importing]);

  /** Imports `fileRef` as the import `mine` (the current one); nothing when it was cancelled before the host had the file. */
  const runImport = useCallback(
    async (mine: ImportUnderWay, fileRef: string, options: { sheet?: string; fileName?: string }) => {
      const fileName = options.fileName ?? fileNameOf(fileRef);
      try {
        if (mine.cancelled) {
          setState({ status: 'cancelled', fileName, message: cancelledBeforeImport(fileName) });
          return null;
        }
        mine.fileRef = fileRef;
        setState({ status: 'importing', fileName, rowsRead: 0, percent: 0, cancelling: false });
        const detail = await api.callOrThrow('projects.import', options.sheet ? { file: fileRef, sheet: options.sheet } : { file: fileRef });
        rememberSheetSource(sessionSources(), detail.summary.id, fileRef);
        // Its next step is the mapping screen. A large sheet takes a while, and a user who went on working
        // elsewhere meanwhile is not taken away from it: the banner offers the mapping instead.
        if (window.location.hash === mine.startedOn) {
          setState({ status: 'idle' });
          navigate({ screen: 'mapping', projectId: detail.summary.id });
        } else {
          setState({ status: 'imported', fileName, projectId: detail.summary.id, rowCount: detail.summary.rowCount });
        }
        return detail;
      } catch (thrown) {
        const error = toContractError(thrown);
        setState(error.kind === 'cancelled' ? { status: 'cancelled', fileName, message: error.message } : { status: 'failed', fileName, error });
        return null;
      } finally {
        if (current.current === mine) current.current = null;
      }
    },
    [navigate],
  );

  const importReference = useCallback(
    (fileRef: string, options: { sheet?: string; fileName?: string } = {}) => {
      const mine = importUnderWay();
      current.current = mine;
      return runImport(mine, fileRef, options);
    },
    [runImport],
  );

  const importFile = useCallback(
    async (file: File) => {
      if (!isSupportedSheetName(file.name)) {
        setState({ status: 'failed', fileName: file.name, error: { kind: 'sheet', message: unsupportedSheetMessage(file.name) } });
        return;
      }
      const mine = importUnderWay();
      current.current = mine;
      setState({ status: 'importing', fileName: file.name, rowsRead: 0, percent: 0, cancelling: false });
      let fileRef: string;
      try {
        fileRef = await api.pathForFile(file);
      } catch (thrown) {
        if (current.current === mine) current.current = null;
        setState({ status: 'failed', fileName: file.name, error: toContractError(thrown) });
        return;
      }
      await runImport(mine, fileRef, { fileName: file.name });
    },
    [runImport],
  );

  const cancel = useCallback(() => {
    const under = current.current;
    if (!under || under.cancelled) return;
    under.cancelled = true;
    setState((s) => (s.status === 'importing' ? { ...s, cancelling: true } : s));
    // Still uploading: importReference sees the flag and imports nothing.
    if (under.fileRef !== null) void api.call('job.cancel', { kind: 'import', file: under.fileRef });
  }, []);

  const dismiss = useCallback(() => setState({ status: 'idle' }), []);
  const value = useMemo(() => ({ state, importFile, importReference, cancel, dismiss }), [state, importFile, importReference, cancel, dismiss]);

  return <ImportContext value={value}>{children}</ImportContext>;
}

export function useImport(): ImportContextValue {
  const value = useContext(ImportContext);
  if (!value) throw new Error('useImport needs an ImportProvider');
  return value;
}
