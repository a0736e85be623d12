/**
 * The compaction strategies as the page offers them: the registry (ids, labels, descriptions and
 * option specs, the seed's defaults) and whether the values typed into a strategy's form parse,
 * with the option the error names; the options of a replay configuration (a strategy or memory
 * folding), its title and label. The CLI parses options with the same registry. Only tabs loaded
 * on demand import this: the registry holds every strategy.
 */
import { OptionError } from '../../core/compaction/options.ts';
import type { StrategyId } from '../../core/compaction/types.ts';
import { getStrategy } from '../../core/strategies/index.ts';

export { getStrategy, STRATEGY_IDS } from '../../core/strategies/index.ts';
export { configOptionSpecs, configTitle, parseConfigOptions, REPLAYABLE_IDS } from '../../core/replay/config-options.ts';
export { configLabel } from '../../core/replay/label.ts';
export { OptionError };

/** Why `values` do not parse as options of `strategyId` (`option` names the field, '' when none does), or undefined when they do. */
export function optionProblem(strategyId: StrategyId, values: Readonly<Record<string, string>>): { option: string; message: string } | undefined {
  try {
    getStrategy(strategyId).parse(values);
    return undefined;
  } catch (error) {
    if (error instanceof OptionError) return { option: error.option, message: error.message };
    return { option: '', message: error instanceof Error ? error.message : String(error) };
  }
}
