/**
 * The compaction strategies as the page offers them: the registry (ids, labels, descriptions and
 * option specs, the seed's defaults) and whether the values typed into a strategy's form parse,
 * with the option the error names. The CLI parses options with the same registry.
 */
import { OptionError } from '../../core/compaction/options.ts';
import type { StrategyId } from '../../core/compaction/types.ts';
import { getStrategy } from '../../core/strategies/index.ts';

export { getStrategy, STRATEGY_IDS } from '../../core/strategies/index.ts';

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
