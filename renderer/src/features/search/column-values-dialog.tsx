import { useId, useRef, useState, type DragEvent } from 'react';
import type { CallInput, ContractError } from '../../../../shared/contract';
import { fieldInfo } from '../../../../shared/fields';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { columnLetter, formatCount, plural } from '../../ui/format';
import { Modal } from '../../ui/modal';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useEngineData } from '../../ui/use-engine-data';
import { fileNameOf, SHEET_ACCEPT } from '../import-mapping/sheet-file';
import { guessColumn } from './column-guess';
import { columnReference } from './value-list';

interface ColumnValuesDialogProps {
  /** The search field the values are for: the engine normalizes them for it (company links to slugs). */
  field: string;
  onUse: (values: string[]) => void;
  onClose: () => void;
}

type Source = 'project' | 'file';

const SHOWN_VALUES = 8;
const SHOWN_PROBLEMS = 5;

/** Values from a column of an imported sheet (a project) or of a sheet file read without importing it. */
export function ColumnValuesDialog({ field, onUse, onClose }: ColumnValuesDialogProps) {
  const ids = useId();
  const label = fieldInfo(field)?.label.toLowerCase() ?? 'value';
  const [source, setSource] = useState<Source>('project');

  const projects = useEngineData('search:column-projects', () => api.callOrThrow('projects.list', {}));
  const sheets = (projects.value ?? []).filter((project) => project.kind === 'match');
  const [pickedProject, setPickedProject] = useState<number | null>(null);
  const projectId = pickedProject ?? sheets[0]?.id ?? null;
  const detail = useEngineData(projectId === null ? null : `project:${projectId}`, () => api.callOrThrow('projects.get', { projectId: projectId ?? 0 }));
  const headers = detail.value?.summary.id === projectId ? detail.value.headers : [];
  const [pickedColumn, setPickedColumn] = useState<{ projectId: number; column: number } | null>(null);
  const column = pickedColumn && pickedColumn.projectId === projectId ? pickedColumn.column : guessColumn(headers, field);

  const [file, setFile] = useState<{ ref: string; name: string } | null>(null);
  const [fileError, setFileError] = useState<ContractError | null>(null);
  const [choosing, setChoosing] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const workbookSheets = useEngineData(file ? `sheets:${file.ref}` : null, () => api.callOrThrow('projects.sheets', { file: file?.ref ?? '' }));
  const [sheet, setSheet] = useState('');
  const [columnText, setColumnText] = useState('1');
  const settledColumn = columnReference(useDebouncedValue(columnText, 300));

  let request: CallInput<'search.columnValues'> | null = null;
  if (source === 'project' && projectId !== null && headers.length > 0) request = { projectId, column, field };
  if (source === 'file' && file && settledColumn !== null) request = { file: file.ref, column: settledColumn, field, ...(sheet ? { sheet } : {}) };
  const read = useEngineData(request ? JSON.stringify(request) : null, () => api.callOrThrow('search.columnValues', request!));
  const result = request ? read.value : undefined;

  const takeFile = async (picked: File) => {
    setFileError(null);
    setChoosing(true);
    try {
      const ref = await api.pathForFile(picked);
      setFile({ ref, name: picked.name });
      setSheet('');
      setSource('file');
    } catch (thrown) {
      setFileError(toContractError(thrown));
    } finally {
      setChoosing(false);
    }
  };

  const chooseFile = async () => {
    setFileError(null);
    setChoosing(true);
    try {
      const answer = await api.callOrThrow('dialog.openSheet', {});
      if (!answer.supported) fileInput.current?.click();
      else if (answer.file) {
        setFile({ ref: answer.file, name: fileNameOf(answer.file) });
        setSheet('');
      }
    } catch (thrown) {
      setFileError(toContractError(thrown));
    } finally {
      setChoosing(false);
    }
  };

  // A file dropped here is read for its column; it must not reach the window's drop zone and start an import.
  const keepDrag = (event: DragEvent) => {
    event.stopPropagation();
    event.preventDefault();
  };
  const onDrop = (event: DragEvent) => {
    keepDrag(event);
    const dropped = event.dataTransfer?.files?.[0];
    if (dropped) void takeFile(dropped);
  };

  const usable = result?.values.length ?? 0;
  return (
    <Modal
      title={`Values from a sheet's column`}
      className="column-values-dialog"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={!result || usable === 0 || read.loading}
            onClick={() => result && onUse(result.values)}
            data-testid="column-values-use"
          >
            {result ? `Use ${plural(usable, 'value')}` : 'Use the values'}
          </Button>
        </>
      }
    >
      <div onDragEnter={keepDrag} onDragOver={keepDrag} onDragLeave={keepDrag} onDrop={onDrop} className="column-values">
        <p className="muted">Each distinct cell of the column becomes one {label}; blanks and repeats are left out.</p>
        <fieldset className="column-values__source">
          <legend>Where the values are</legend>
          <label className="radio">
            <input type="radio" name={`${ids}-source`} checked={source === 'project'} onChange={() => setSource('project')} data-testid="column-source-project" /> An imported sheet
          </label>
          <label className="radio">
            <input type="radio" name={`${ids}-source`} checked={source === 'file'} onChange={() => setSource('file')} data-testid="column-source-file" /> A sheet file (not imported)
          </label>
        </fieldset>

        {source === 'project' && (
          <div className="form-grid">
            <div className="field">
              <label htmlFor={`${ids}-project`}>Sheet</label>
              <select
                id={`${ids}-project`}
                value={projectId ?? ''}
                onChange={(event) => setPickedProject(Number(event.target.value))}
                disabled={sheets.length === 0}
                data-testid="column-project"
              >
                {sheets.map((project) => (
                  <option key={project.id} value={project.id}>
                    {project.name} ({plural(project.rowCount, 'row')})
                  </option>
                ))}
              </select>
              {projects.value && sheets.length === 0 && <p className="field__help">No sheet is imported yet. Read a file instead, or import one from Projects.</p>}
            </div>
            <div className="field">
              <label htmlFor={`${ids}-column`}>Column</label>
              <select
                id={`${ids}-column`}
                value={headers.length > 0 ? column : ''}
                onChange={(event) => projectId !== null && setPickedColumn({ projectId, column: Number(event.target.value) })}
                disabled={headers.length === 0}
                data-testid="column-pick"
              >
                {headers.map((header, index) => (
                  <option key={index} value={index}>
                    {columnLetter(index)}: {header || '(no header)'}
                  </option>
                ))}
              </select>
            </div>
          </div>
        )}

        {source === 'file' && (
          <div className="form-grid">
            <div className="field">
              <span className="field__label" id={`${ids}-file-label`}>
                File
              </span>
              <div className="column-values__file">
                <Button small busy={choosing} onClick={() => void chooseFile()} aria-describedby={`${ids}-file-label`} data-testid="column-file-choose">
                  Choose a file…
                </Button>
                <span className="muted column-values__file-name">{file ? file.name : 'or drop one here'}</span>
              </div>
              <input
                ref={fileInput}
                type="file"
                accept={SHEET_ACCEPT}
                hidden
                aria-label="Choose a sheet to read a column from"
                data-testid="column-file-input"
                onChange={(event) => {
                  const picked = event.currentTarget.files?.[0];
                  event.currentTarget.value = '';
                  if (picked) void takeFile(picked);
                }}
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-file-column`}>Column (its number or its header)</label>
              <input id={`${ids}-file-column`} value={columnText} onChange={(event) => setColumnText(event.target.value)} data-testid="column-file-column" />
            </div>
            {(workbookSheets.value?.length ?? 0) > 1 && (
              <div className="field">
                <label htmlFor={`${ids}-sheet`}>Worksheet</label>
                <select id={`${ids}-sheet`} value={sheet} onChange={(event) => setSheet(event.target.value)}>
                  <option value="">The first one</option>
                  {workbookSheets.value!.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
        )}

        <ErrorBanner error={fileError} title="Could not read the file" onDismiss={() => setFileError(null)} />
        <ErrorBanner error={projects.error ?? detail.error} onRetry={() => (projects.error ? projects.reload() : detail.reload())} />
        {request && read.error && <ErrorBanner error={read.error} title="Could not read the column" onRetry={read.reload} />}

        <div className="column-values__preview" aria-live="polite" data-testid="column-values-preview">
          {request && read.loading && !result && <p className="muted">Reading the column…</p>}
          {result && (
            <>
              <p>
                <strong>{result.header || `Column ${result.column + 1}`}</strong>: {plural(result.cells, 'filled cell')}, <strong>{plural(usable, 'distinct value')}</strong>
                {result.duplicates > 0 && `, ${plural(result.duplicates, 'repeat')} left out`}
                {result.problems.length > 0 && <span className="text-warning">, {plural(result.problems.length, 'cell')} that cannot be used</span>}.
              </p>
              {usable > 0 && (
                <ul className="column-values__sample mono">
                  {result.values.slice(0, SHOWN_VALUES).map((value) => (
                    <li key={value}>{value}</li>
                  ))}
                  {usable > SHOWN_VALUES && <li className="muted">and {formatCount(usable - SHOWN_VALUES)} more</li>}
                </ul>
              )}
              {result.problems.length > 0 && (
                <ul className="warnings">
                  {result.problems.slice(0, SHOWN_PROBLEMS).map((problem, index) => (
                    <li key={index}>
                      <span className="mono">{problem.value}</span>: {problem.message}
                    </li>
                  ))}
                  {result.problems.length > SHOWN_PROBLEMS && <li className="muted">and {formatCount(result.problems.length - SHOWN_PROBLEMS)} more</li>}
                </ul>
              )}
            </>
          )}
        </div>
      </div>
    </Modal>
  );
}
