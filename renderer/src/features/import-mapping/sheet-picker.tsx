import { useId, useState } from 'react';
import type { ProjectDetail } from '../../../../shared/contract';
import { api } from '../../api';
import { useEngineData } from '../../ui/use-engine-data';
import { useImport } from './import-context';

interface SheetPickerProps {
  detail: ProjectDetail;
  /** The file this project came from, when it was imported in this session. */
  fileRef: string | null;
}

/** Workbooks with several sheets: re-import the same file with another sheet, replacing the untouched project. */
export function SheetPicker({ detail, fileRef }: SheetPickerProps) {
  const id = useId();
  const { importReference, state } = useImport();
  const sheets = useEngineData(fileRef ? `sheets:${fileRef}` : null, () => api.callOrThrow('projects.sheets', { file: fileRef ?? '' }));
  const [choice, setChoice] = useState(detail.sheetName ?? '');
  const names = sheets.value ?? (detail.sheetName ? [detail.sheetName] : []);
  const untouched = (detail.summary.counts.pending ?? 0) + (detail.summary.counts.no_query ?? 0) >= detail.summary.rowCount;

  const pick = async (sheet: string) => {
    setChoice(sheet);
    if (!fileRef || sheet === detail.sheetName) return;
    const replaced = await importReference(fileRef, { sheet });
    if (!replaced) setChoice(detail.sheetName ?? '');
    else if (untouched) await api.call('projects.delete', { projectId: detail.summary.id });
  };

  return (
    <div className="field sheet-picker">
      <label htmlFor={id}>Sheet</label>
      <select id={id} value={choice} onChange={(event) => void pick(event.target.value)} disabled={!fileRef || names.length < 2 || state.status === 'importing'} data-testid="sheet-picker">
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {!fileRef && <p className="field__help">To read another sheet, import the workbook again.</p>}
      {sheets.error && <p className="field__error">{sheets.error.message}</p>}
    </div>
  );
}
