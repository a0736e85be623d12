/** The strategy registry: every built-in compaction strategy by id. */
import type { Strategy } from '../compaction/strategy.ts';
import type { StrategyId } from '../compaction/types.ts';
import { augmentStrategy } from './augment.ts';
import { budgetStrategy } from './budget.ts';
import { layeredStrategy } from './layered.ts';
import { piStrategy } from './pi.ts';

export const STRATEGIES: Record<StrategyId, Strategy> = {
  augment: augmentStrategy as unknown as Strategy,
  pi: piStrategy as unknown as Strategy,
  layered: layeredStrategy as unknown as Strategy,
  budget: budgetStrategy as unknown as Strategy,
};

export const STRATEGY_IDS = Object.keys(STRATEGIES) as StrategyId[];

export function getStrategy(id: string): Strategy {
  const strategy = (STRATEGIES as Record<string, Strategy | undefined>)[id];
  if (!strategy) throw new Error(`Unknown strategy "${id}": use one of ${STRATEGY_IDS.join(', ')}.`);
  return strategy;
}
