import { DEFAULT_STRATEGIES, STRATEGIES, type Strategy } from '../../../../shared/model';

/** All strategies in the order the user put them, and which of them are switched on. */
export interface StrategyChoice {
  order: Strategy[];
  enabled: Strategy[];
}

/** The saved order, or the default one (name alone off) when nothing was saved yet. */
export function initialStrategyChoice(saved: readonly Strategy[]): StrategyChoice {
  const source = saved.length > 0 ? saved : DEFAULT_STRATEGIES;
  const known = source.filter((strategy, index) => STRATEGIES.includes(strategy) && source.indexOf(strategy) === index);
  return { order: [...known, ...STRATEGIES.filter((strategy) => !known.includes(strategy))], enabled: known };
}

export function moveStrategy(choice: StrategyChoice, strategy: Strategy, by: -1 | 1): StrategyChoice {
  const from = choice.order.indexOf(strategy);
  const to = from + by;
  if (from < 0 || to < 0 || to >= choice.order.length) return choice;
  const order = [...choice.order];
  order.splice(from, 1);
  order.splice(to, 0, strategy);
  return { ...choice, order };
}

export function toggleStrategy(choice: StrategyChoice, strategy: Strategy, on: boolean): StrategyChoice {
  const enabled = choice.enabled.filter((s) => s !== strategy);
  return { ...choice, enabled: on ? [...enabled, strategy] : enabled };
}

/** The strategies to send, in the user's order. */
export function chosenStrategies(choice: StrategyChoice): Strategy[] {
  return choice.order.filter((strategy) => choice.enabled.includes(strategy));
}
