import type { RowState } from '../../../../shared/model';
import { formatCount } from '../../ui/format';
import { chipLabel, totalOf, visibleChipStates } from './row-states';

interface FilterChipsProps {
  counts: Record<RowState, number> | null;
  active: RowState[] | null;
  onChange: (states: RowState[] | null) => void;
}

/** Counts per state, always in view, and each a filter. */
export function FilterChips({ counts, active, onChange }: FilterChipsProps) {
  const chip = (key: string, label: string, count: number, pressed: boolean, states: RowState[] | null, state?: RowState) => (
    <button
      key={key}
      type="button"
      className={`chip ${state ? `chip--${state}` : ''}`}
      aria-pressed={pressed}
      onClick={() => onChange(states)}
      data-testid={`filter-chip-${key}`}
      data-count={count}
    >
      <span className="chip__label">{label}</span> <span className="chip__count">{counts ? formatCount(count) : '…'}</span>
    </button>
  );
  return (
    <div className="chips" role="group" aria-label="Show rows">
      {chip('all', 'All', totalOf(counts), active === null, null)}
      {visibleChipStates(counts, active).map((state) =>
        chip(state, chipLabel(state), counts?.[state] ?? 0, active?.length === 1 && active[0] === state, [state], state),
      )}
    </div>
  );
}
