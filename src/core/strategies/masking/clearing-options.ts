/**
 * The options of the tool-result-clearing strategy, named after Anthropic's context-editing
 * parameters (`trigger`, `keep`, `clear_at_least`, `exclude_tools`, `clear_tool_inputs`), with their
 * defaults and limits.
 */
import type { OptionSpec } from '../../compaction/options.ts';

export interface ToolResultClearingOptions {
  [name: string]: number | boolean | string;
  /** Clear when the current context passes this many tokens (Anthropic `trigger`). Default 100,000 tokens. */
  triggerTokens: number;
  /** The newest tool uses whose results are never cleared (Anthropic `keep`). Default 3 tool uses. */
  keepToolUses: number;
  /** Clear only if at least this many tokens are freed, else nothing (Anthropic `clear_at_least`). Default 0 tokens. */
  clearAtLeastTokens: number;
  /** Comma-separated tool names whose results are never cleared (Anthropic `exclude_tools`). Default empty. */
  excludeTools: string;
  /** Also replace the cleared calls' input (Anthropic `clear_tool_inputs`). Default false. */
  clearToolInputs: boolean;
}

export const TOOL_RESULT_CLEARING_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'triggerTokens', alias: 'trigger', type: 'integer', default: 100_000, min: 1, max: 100_000_000, unit: 'tokens',
    description: 'Clearing starts once the current context (earlier clearings applied) is above this.',
  },
  {
    name: 'keepToolUses', alias: 'keep', type: 'integer', default: 3, min: 0, max: 1_000_000, unit: 'tool uses',
    description: 'The most recent tool uses keep their results; older results are cleared, oldest first.',
  },
  {
    name: 'clearAtLeastTokens', alias: 'clear_at_least', type: 'integer', default: 0, min: 0, max: 100_000_000, unit: 'tokens',
    description: 'If clearing cannot free at least this many tokens, nothing is cleared (worth breaking the prompt cache or not).',
  },
  {
    name: 'excludeTools', alias: 'exclude_tools', type: 'string', default: '',
    description: 'Comma-separated tool names whose results are never cleared.',
  },
  {
    name: 'clearToolInputs', alias: 'clear_tool_inputs', type: 'boolean', default: false,
    description: 'Also replace the input of each cleared call; by default only results are cleared and the calls stay visible.',
  },
];
