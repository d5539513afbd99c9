import { useEffect, useRef } from 'react';
import { Button } from '../../ui/button';
import type { BuilderAction, BuilderProblems, BuilderState } from './filter-builder-state';
import { FilterRow } from './filter-row';
import { boxLetter } from './search-words';

interface FilterBuilderProps {
  state: BuilderState;
  dispatch: (action: BuilderAction) => void;
  problems: BuilderProblems;
  /** Show every problem, not only those of rows the user touched (after a run was refused). */
  showAll: boolean;
}

/** Loose filters, then the "same job" boxes: every filter in one box must hold for one and the same job. */
export function FilterBuilder({ state, dispatch, problems, showAll }: FilterBuilderProps) {
  const boxIds = state.boxes.map((box) => box.id);
  const shown = (rowId: string) => (showAll || state.touched[rowId] ? (problems.byRow[rowId] ?? []) : []);
  let number = 0;
  const addButton = useRef<HTMLButtonElement>(null);
  const rowIds = [...state.loose, ...state.boxes.flatMap((box) => box.rows)].map((row) => row.id);
  const idsKey = rowIds.join(' ');
  const previousIds = useRef(rowIds);

  // Keyboard users land on what they just made: a new row's field; after a removal, the add button.
  useEffect(() => {
    const before = new Set(previousIds.current);
    const now = idsKey === '' ? [] : idsKey.split(' ');
    const added = now.filter((id) => !before.has(id));
    previousIds.current = now;
    if (added.length === 1 && now.length === before.size + 1) document.getElementById(`filter-${added[0]}-field`)?.focus();
    else if (now.length < before.size && (document.activeElement === document.body || document.activeElement === null)) addButton.current?.focus();
  }, [idsKey]);

  return (
    <div className="filter-builder" data-testid="filter-builder">
      {state.loose.length > 0 && (
        <ol className="filter-list" aria-label="Filters">
          {state.loose.map((row) => (
            <FilterRow key={row.id} row={row} number={++number} boxIndex={null} boxIds={boxIds} problems={shown(row.id)} dispatch={dispatch} />
          ))}
        </ol>
      )}
      {state.boxes.map((box, boxIndex) => (
        <section key={box.id} className="job-box" aria-labelledby={`${box.id}-title`} data-testid="job-box">
          <div className="job-box__head">
            <h3 id={`${box.id}-title`}>
              Same job {boxLetter(boxIndex)} <span className="muted job-box__hint">all of these hold for one job entry</span>
            </h3>
            <div className="job-box__actions">
              <Button small variant="quiet" onClick={() => dispatch({ type: 'addRow', boxId: box.id })} data-testid="job-box-add">
                + Filter on this job
              </Button>
              <Button small variant="quiet" onClick={() => dispatch({ type: 'ungroupBox', boxId: box.id })} title="Keep the filters, but let each hold on any job">
                Ungroup
              </Button>
            </div>
          </div>
          <ol className="filter-list" aria-label={`Filters on job ${boxLetter(boxIndex)}`}>
            {box.rows.map((row) => (
              <FilterRow key={row.id} row={row} number={++number} boxIndex={boxIndex} boxIds={boxIds} problems={shown(row.id)} dispatch={dispatch} />
            ))}
          </ol>
        </section>
      ))}
      {number === 0 && <p className="muted filter-builder__empty">No filters yet. Start from a template above, or add a filter.</p>}
      {showAll && problems.list.length > 0 && (
        <ul className="field__error filter-builder__problems">
          {problems.list.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <div className="form-actions filter-builder__add">
        <button ref={addButton} type="button" className="button button--secondary" onClick={() => dispatch({ type: 'addRow', boxId: null })} data-testid="add-filter">
          + Add a filter
        </button>
        <Button onClick={() => dispatch({ type: 'addBox' })} data-testid="add-job-box" title="Filters in one box must all hold for the same job: at this company, and ended after this date">
          + Add a same-job box
        </Button>
      </div>
    </div>
  );
}
