/**
 * "Use in my agent": a recommended sweep point as the lines to paste into the agent's own
 * configuration, for the strategies that model an agent's built-in compaction (pi, codex,
 * claude-code, opencode). Pure: the same text in the page, `cli sweep --json` and `--md`.
 */
import type { Options } from '../compaction/strategy.ts';
import type { SweepPoint } from '../sweep/types.ts';
import { getStrategy } from '../strategies/index.ts';
import { claudeCodeConfig } from './agents/claude-code.ts';
import { codexConfig } from './agents/codex.ts';
import { opencodeConfig } from './agents/opencode.ts';
import { piConfig } from './agents/pi.ts';
import type { AgentConfig, AgentConfigBasis, AgentId } from './types.ts';

export type { AgentConfig, AgentConfigBasis, AgentConfigBlock, AgentId } from './types.ts';
export { basisSentence } from './basis.ts';

/** Strategy ids that are an agent's own compaction. */
export const AGENT_STRATEGIES: readonly AgentId[] = ['pi', 'codex', 'claude-code', 'opencode'];

export function isAgentStrategy(strategy: string): strategy is AgentId {
  return (AGENT_STRATEGIES as readonly string[]).includes(strategy);
}

/**
 * The block that sets `options` (a point of a sweep of `strategy`) in the agent's configuration,
 * with the sessions and numbers it was chosen on; undefined for a strategy that is no agent's own.
 * The options are read as the strategy reads them (its defaults fill what the point leaves out);
 * an invalid value throws the strategy's OptionError.
 */
export function agentConfigFor(strategy: string, options: Options, basis: AgentConfigBasis): AgentConfig | undefined {
  if (!isAgentStrategy(strategy)) return undefined;
  const spec = getStrategy(strategy);
  const parsed = spec.parse(options);
  switch (strategy) {
    case 'pi':
      return piConfig(parsed, basis);
    case 'codex':
      return codexConfig(parsed, spec.options, basis);
    case 'claude-code':
      return claudeCodeConfig(parsed, spec.options, basis);
    case 'opencode':
      return opencodeConfig(parsed, spec.options, basis);
  }
}

/** The basis of a sweep point: the sessions' names (in the sweep's order) and the point's numbers. */
export function basisOf(point: SweepPoint, sessions: readonly string[], window?: number): AgentConfigBasis {
  return {
    sessions,
    ratioToUncompacted: point.ratioToUncompacted,
    retention: point.retention,
    overflowCalls: point.overflowCalls,
    ...(window !== undefined ? { window } : {}),
  };
}
