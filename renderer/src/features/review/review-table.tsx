import { Button } from '../../ui/button';
import { formatConfidence, formatCount } from '../../ui/format';
import { VirtualList, type ListWindow } from '../../ui/virtual-list';
import { rowAt, type ReviewList } from './review-list';
import { STATE_LABELS } from './row-states';

export const ROW_HEIGHT = 36;

interface ReviewTableProps {
  gridRef: React.Ref<HTMLDivElement>;
  list: ReviewList;
  selected: number;
  resetKey: string;
  onSelect: (position: number) => void;
  onWindowChange: (window: ListWindow) => void;
  /** Given while a filter is on: an empty list offers to clear the filters. */
  onClearFilters?: () => void;
}

export function rowElementId(position: number): string {
  return `review-row-${position}`;
}

export function ReviewTable({ gridRef, list, selected, resetKey, onSelect, onWindowChange, onClearFilters }: ReviewTableProps) {
  const total = list.total ?? 0;
  return (
    <div className="review-table-wrap">
      <VirtualList
        listRef={gridRef}
        className="review-table"
        role="grid"
        aria-label="Rows of the sheet"
        aria-rowcount={total + 1}
        aria-readonly="true"
        tabIndex={0}
        aria-activedescendant={total > 0 ? rowElementId(selected) : undefined}
        data-testid="review-table"
        rowsRole="rowgroup"
        header={
          <div className="review-table__head" role="row" aria-rowindex={1}>
            <span role="columnheader" className="col-row">
              Row
            </span>
            <span role="columnheader" className="col-state">
              State
            </span>
            <span role="columnheader" className="col-input">
              Input
            </span>
            <span role="columnheader" className="col-match">
              Best candidate
            </span>
            <span role="columnheader" className="col-score" title="How sure Matchdesk is of the best candidate">
              <span className="col-score__long">Confidence</span>
              <span className="col-score__short" aria-hidden="true">
                Conf.
              </span>
            </span>
          </div>
        }
        count={total}
        rowHeight={ROW_HEIGHT}
        revealIndex={total > 0 ? selected : null}
        resetKey={resetKey}
        onWindowChange={onWindowChange}
        renderRow={(position, style) => {
          const row = rowAt(list, position);
          const isSelected = position === selected;
          if (!row) {
            return (
              <div key={position} id={rowElementId(position)} role="row" aria-rowindex={position + 2} aria-selected={isSelected} className="review-row review-row--loading" style={style} data-testid="review-row">
                <span role="gridcell" className="col-row muted">
                  …
                </span>
              </div>
            );
          }
          const candidate = row.top ? [row.top.name, row.top.company].filter(Boolean).join(' · ') : '';
          return (
            <div
              key={position}
              id={rowElementId(position)}
              role="row"
              aria-rowindex={position + 2}
              aria-selected={isSelected}
              className={`review-row ${isSelected ? 'is-selected' : ''}`}
              style={style}
              onClick={() => onSelect(position)}
              data-testid="review-row"
              data-row-index={row.rowIndex}
              data-state={row.state}
            >
              <span role="gridcell" className="col-row">
                {formatCount(row.rowNumber)}
              </span>
              <span role="gridcell" className="col-state">
                <span className={`state state--${row.state}`}>{STATE_LABELS[row.state]}</span>
                {row.chosenRank !== null && <span className="muted"> #{row.chosenRank}</span>}
              </span>
              <span role="gridcell" className="col-input" title={row.label}>
                {row.label || <span className="muted">(empty)</span>}
              </span>
              {/* Name above company, each on its own line, so a narrow column still shows where the person works. */}
              <span role="gridcell" className="col-match" title={candidate}>
                <span className="col-match__name">
                  {row.top?.name ?? (row.candidateCount === 0 ? <span className="muted">—</span> : '')}
                  {row.candidateCount > 1 && <span className="muted"> +{row.candidateCount - 1}</span>}
                </span>
                {row.top?.company && <span className="col-match__company">{row.top.company}</span>}
              </span>
              <span role="gridcell" className="col-score" title={row.reason ?? undefined}>
                {row.confidence === null ? '' : formatConfidence(row.confidence)}
              </span>
            </div>
          );
        }}
      />
      {list.total === 0 && (
        <div className="review-table__empty" data-testid="review-empty">
          <p>{onClearFilters ? 'No rows match these filters together.' : 'No rows yet.'}</p>
          {onClearFilters && (
            <Button small onClick={onClearFilters}>
              Clear filters
            </Button>
          )}
        </div>
      )}
      {list.total === null && <p className="review-table__empty">Loading rows…</p>}
    </div>
  );
}
