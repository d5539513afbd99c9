import type { Mapping, Strategy } from '../../../../shared/model';
import { STRATEGY_HELP, STRATEGY_LABELS, strategyNeeds } from './field-labels';
import type { StrategyChoice } from './strategy-order';

interface StrategyOrderListProps {
  choice: StrategyChoice;
  mapping: Mapping;
  onToggle: (strategy: Strategy, on: boolean) => void;
  onMove: (strategy: Strategy, by: -1 | 1) => void;
}

export function StrategyOrderList({ choice, mapping, onToggle, onMove }: StrategyOrderListProps) {
  return (
    <ol className="strategy-list">
      {choice.order.map((strategy, index) => {
        const enabled = choice.enabled.includes(strategy);
        const needs = enabled ? strategyNeeds(strategy, mapping) : null;
        const label = STRATEGY_LABELS[strategy];
        return (
          <li key={strategy} className={`strategy ${enabled ? '' : 'strategy--off'}`} data-testid={`strategy-${strategy}`}>
            <label className="strategy__toggle">
              <input type="checkbox" checked={enabled} onChange={(event) => onToggle(strategy, event.target.checked)} />
              <span className="strategy__name">{label}</span>
            </label>
            <span className="strategy__help">
              {STRATEGY_HELP[strategy]}
              {needs && <span className="text-warning"> ⚠ {needs}</span>}
            </span>
            <span className="strategy__move">
              <button type="button" className="icon-button" onClick={() => onMove(strategy, -1)} disabled={index === 0} aria-label={`Try ${label} earlier`}>
                ↑
              </button>
              <button type="button" className="icon-button" onClick={() => onMove(strategy, 1)} disabled={index === choice.order.length - 1} aria-label={`Try ${label} later`}>
                ↓
              </button>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
