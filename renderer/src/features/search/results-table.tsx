import type { KeyboardEvent, Ref } from 'react';
import type { SearchResultRow } from '../../../../shared/contract';
import { VirtualList, type ListWindow } from '../../ui/virtual-list';
import { listMoveForKey, movedPosition } from '../review/review-keys';
import { resultAt, type ResultsList } from './results-list';

export const RESULT_ROW_HEIGHT = 36;

interface ResultsTableProps {
  gridRef: Ref<HTMLDivElement>;
  list: ResultsList;
  selected: number;
  pageRows: number;
  resetKey: string;
  onSelect: (position: number) => void;
  onWindowChange: (window: ListWindow) => void;
  emptyText: string;
}

export function resultElementId(position: number): string {
  return `search-result-${position}`;
}

function cell(value: string | null) {
  return value ? value : <span className="muted">—</span>;
}

function currentJob(row: SearchResultRow): string {
  return [row.summary.title, row.summary.company].filter(Boolean).join(' at ');
}

/** The people found, the job that satisfied the grouped filters in its own tinted columns. */
export function ResultsTable({ gridRef, list, selected, pageRows, resetKey, onSelect, onWindowChange, emptyText }: ResultsTableProps) {
  const total = list.total ?? 0;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = listMoveForKey(event.key);
    if (!action) return;
    event.preventDefault();
    onSelect(movedPosition(selected, total, action, pageRows));
  };

  return (
    <div className="results-table-wrap">
      <VirtualList
        listRef={gridRef}
        className="results-table"
        role="grid"
        aria-label="People found"
        aria-rowcount={total + 2}
        aria-readonly="true"
        tabIndex={0}
        aria-activedescendant={total > 0 ? resultElementId(selected) : undefined}
        onKeyDown={onKeyDown}
        data-testid="search-results"
        rowsRole="rowgroup"
        header={
          <>
            <div className="results-table__group" role="row" aria-rowindex={1}>
              <span role="columnheader" className="results-table__group-person" aria-colspan={2}>
                The person now
              </span>
              <span role="columnheader" className="results-table__group-job col-job" aria-colspan={5}>
                The job that matched
              </span>
            </div>
            <div className="results-table__head result-grid" role="row" aria-rowindex={2}>
              <span role="columnheader">Name</span>
              <span role="columnheader">Current job</span>
              <span role="columnheader" className="col-job col-job--first">
                Company
              </span>
              <span role="columnheader" className="col-job">
                Title
              </span>
              <span role="columnheader" className="col-job">
                Function
              </span>
              <span role="columnheader" className="col-job">
                Started
              </span>
              <span role="columnheader" className="col-job">
                Ended
              </span>
            </div>
          </>
        }
        count={total}
        rowHeight={RESULT_ROW_HEIGHT}
        revealIndex={total > 0 ? selected : null}
        resetKey={resetKey}
        onWindowChange={onWindowChange}
        renderRow={(position, style) => {
          const row = resultAt(list, position);
          const isSelected = position === selected;
          if (!row) {
            return (
              <div key={position} id={resultElementId(position)} role="row" aria-rowindex={position + 3} aria-selected={isSelected} className="result-row result-grid result-row--loading" style={style}>
                <span role="gridcell" className="muted">
                  …
                </span>
              </div>
            );
          }
          const job = row.job;
          return (
            <div
              key={position}
              id={resultElementId(position)}
              role="row"
              aria-rowindex={position + 3}
              aria-selected={isSelected}
              className={`result-row result-grid ${isSelected ? 'is-selected' : ''}`}
              style={style}
              onClick={() => onSelect(position)}
              data-testid="search-result"
              data-person-id={row.personId}
            >
              <span role="gridcell" className="result-row__name" title={row.summary.name ?? undefined}>
                {cell(row.summary.name)}
              </span>
              <span role="gridcell" title={currentJob(row)}>
                {cell(currentJob(row))}
              </span>
              <span role="gridcell" className="col-job col-job--first" title={job?.company ?? undefined}>
                {cell(job?.company ?? null)}
              </span>
              <span role="gridcell" className="col-job" title={job?.title ?? undefined}>
                {cell(job?.title ?? null)}
              </span>
              <span role="gridcell" className="col-job" title={job?.function ?? undefined}>
                {cell(job?.function ?? null)}
              </span>
              <span role="gridcell" className="col-job col-date">
                {cell(job?.started?.slice(0, 10) ?? null)}
              </span>
              <span role="gridcell" className="col-job col-date" data-testid="result-job-ended">
                {job ? (job.ended ? job.ended.slice(0, 10) : 'now') : <span className="muted">—</span>}
              </span>
            </div>
          );
        }}
      />
      {list.total === 0 && <p className="results-table__empty">{emptyText}</p>}
      {list.total === null && <p className="results-table__empty">Loading the people found…</p>}
    </div>
  );
}
