import { useId, useState } from 'react';
import type { CallInput, RowDetail } from '../../../../shared/contract';
import { api } from '../../api';
import { projectIdOf } from '../../navigation/route';
import { useRoute } from '../../navigation/use-route';
import { askToNotify } from '../../shell/use-work-title';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { useEngineData } from '../../ui/use-engine-data';
import { useToast } from '../../ui/toasts';
import { rowMarked, valuesMarking } from './important-marks';

/**
 * In the review's row panel: mark the row important (a refresh that finds its person moved or left says so in a
 * desktop notification), or every row with one of its column's values ("Tier = A"), now and in rows imported later.
 */
export function ImportantToggle({ detail }: { detail: RowDetail }) {
  const { route } = useRoute();
  const projectId = route ? projectIdOf(route) : null;
  const toast = useToast();
  const marks = useEngineData(projectId === null ? null : `important:${projectId}`, () => api.callOrThrow('watch.importantMarks', { projectId: projectId ?? 0 }));
  const columns = detail.headers.map((header, index) => ({ header: header || `Column ${index + 1}`, index, value: (detail.cells[index] ?? '').trim() })).filter((c) => c.value !== '');
  const [column, setColumn] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  // The box shows the click at once; the marks the engine sends back settle it.
  const [ticked, setTicked] = useState<boolean | null>(null);
  const columnId = useId();
  if (projectId === null || !marks.value) return null;
  const byValue = valuesMarking(marks.value, detail.cells);
  // A column whose value already marks the row is offered to unmark, not to mark again.
  const markable = columns.filter((c) => !byValue.some((v) => v.columnIndex === c.index));
  const chosen = markable.find((c) => c.index === column) ?? markable[0];

  const mark = async (input: Omit<CallInput<'watch.markImportant'>, 'projectId'>, said: string) => {
    setBusy(true);
    if (input.important !== false) askToNotify();
    try {
      marks.setValue(await api.callOrThrow('watch.markImportant', { projectId, ...input }));
      toast(said, 'success');
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
    } finally {
      setBusy(false);
      setTicked(null);
    }
  };

  return (
    <div className="important-toggle" data-testid="important-toggle">
      <label className="switch">
        <input
          type="checkbox"
          checked={ticked ?? rowMarked(marks.value, detail.rowIndex)}
          disabled={busy}
          onChange={(event) => {
            setTicked(event.target.checked);
            void mark(
              { rows: [detail.rowIndex], important: event.target.checked },
              event.target.checked ? `Row ${detail.rowNumber} is important.` : `Row ${detail.rowNumber} is no longer marked important.`,
            );
          }}
          data-testid="important-row"
        />
        Important: notify me when this person moves or leaves
      </label>
      {byValue.map((v) => {
        const header = detail.headers[v.columnIndex] || `Column ${v.columnIndex + 1}`;
        const cell = (detail.cells[v.columnIndex] ?? '').trim();
        return (
          <div key={`${v.columnIndex}:${v.value}`} className="important-toggle__value" data-testid="important-by-value">
            <span>
              Important as every row where {header} = {cell}.
            </span>
            <Button
              small
              variant="quiet"
              disabled={busy}
              onClick={() => void mark({ column: { columnIndex: v.columnIndex, value: v.value }, important: false }, `Rows where ${header} = ${cell} are no longer marked important.`)}
            >
              Unmark them
            </Button>
          </div>
        );
      })}
      {chosen && (
        <div className="important-toggle__value">
          <label htmlFor={columnId}>Every row where</label>
          <select id={columnId} value={chosen.index} onChange={(event) => setColumn(Number(event.target.value))} data-testid="important-column">
            {markable.map((c) => (
              <option key={c.index} value={c.index}>
                {c.header}
              </option>
            ))}
          </select>
          <span>= {chosen.value}</span>
          <Button
            small
            disabled={busy}
            onClick={() => void mark({ column: { columnIndex: chosen.index, value: chosen.value } }, `Every row where ${chosen.header} = ${chosen.value} is important.`)}
            data-testid="important-column-mark"
          >
            Mark important
          </Button>
        </div>
      )}
    </div>
  );
}
