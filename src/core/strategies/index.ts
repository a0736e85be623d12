/** The strategy registry: every built-in compaction strategy by id. */
import type { Strategy } from '../compaction/strategy.ts';
import type { StrategyId } from '../compaction/types.ts';
import { augmentStrategy } from './augment.ts';
import { budgetStrategy } from './budget.ts';
import { layeredStrategy } from './layered.ts';
import { piStrategy } from './pi.ts';
import { checkpointsStrategy } from './checkpoints.ts';
import { queryOnDemandStrategy } from './query-on-demand.ts';
import { slidingWindowStrategy } from './sliding-window.ts';
import { twoLayerStrategy } from './two-layer.ts';
import { customStrategy } from './custom-plugin.ts';
import { maskingThenSummaryStrategy } from './masking-then-summary.ts';
import { observationMaskingStrategy } from './observation-masking.ts';
import { toolResultClearingStrategy } from './tool-result-clearing.ts';
import { codexStrategy } from './codex.ts';
import { claudeCodeStrategy } from './claude-code.ts';
import { opencodeStrategy } from './opencode.ts';

/** Every built-in strategy; `custom` runs the user's plugin first (src/worker/sandbox/plugin-runner.ts). */
export const STRATEGIES: Partial<Record<StrategyId, Strategy>> = {
  augment: augmentStrategy as unknown as Strategy,
  pi: piStrategy as unknown as Strategy,
  layered: layeredStrategy as unknown as Strategy,
  budget: budgetStrategy as unknown as Strategy,
  'sliding-window': slidingWindowStrategy as unknown as Strategy,
  checkpoints: checkpointsStrategy as unknown as Strategy,
  'two-layer': twoLayerStrategy as unknown as Strategy,
  'query-on-demand': queryOnDemandStrategy as unknown as Strategy,
  'observation-masking': observationMaskingStrategy as unknown as Strategy,
  'tool-result-clearing': toolResultClearingStrategy as unknown as Strategy,
  'masking-then-summary': maskingThenSummaryStrategy as unknown as Strategy,
  codex: codexStrategy as unknown as Strategy,
  'claude-code': claudeCodeStrategy as unknown as Strategy,
  opencode: opencodeStrategy as unknown as Strategy,
  custom: customStrategy as unknown as Strategy,
};

export const STRATEGY_IDS = Object.keys(STRATEGIES) as StrategyId[];

export function getStrategy(id: string): Strategy {
  const strategy = (STRATEGIES as Record<string, Strategy | undefined>)[id];
  if (!strategy) throw new Error(`Unknown strategy "${id}": use one of ${STRATEGY_IDS.join(', ')}.`);
  return strategy;
}
