/**
 * Claude Code's own auto-compaction: when the context reaches the window minus the output reserve
 * and a buffer (or the lower percent override), the whole conversation is replaced by one summary,
 * after which the recently read files and the todo list are attached again.
 */
import type { Strategy } from '../compaction/strategy.ts';
import { assembleClaudeCode } from './claude-code/assemble.ts';
import { CLAUDE_CODE_OPTIONS, parseClaudeCodeOptions, type ClaudeCodeOptions } from './claude-code/options.ts';
import { CLAUDE_CODE_ID, claudeCodeNothingToDo, planClaudeCode, triggerClaudeCode } from './claude-code/plan.ts';

export type { ClaudeCodeOptions } from './claude-code/options.ts';
export { claudeCodeThreshold } from './claude-code/options.ts';

export const claudeCodeStrategy: Strategy<ClaudeCodeOptions> = {
  id: CLAUDE_CODE_ID,
  label: 'Claude Code compaction',
  seed: 'Claude Code 2.1 (closed source: docs, issues, observed behaviour)',
  description: 'Claude Code 2.1.x (closed source; from anthropics/claude-code issues #31806, #23409, #57964 and users\' measurements): '
    + 'auto-compacts at window - 20,000 (summary output) - 13,000 (buffer), 167,000 of a 200,000 window; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE sets a percent of the '
    + 'effective window but can only lower that threshold; CLAUDE_CODE_AUTO_COMPACT_WINDOW lowers the window used, never above the model\'s. '
    + 'One summary replaces the whole conversation; the 5 most recently read files (5,000 tokens each, 50,000 in all) and the todo list are attached again. '
    + 'Not documented, so exposed as options: the 13,000 buffer, the 20,000 output reserve, the restore limits.',
  options: CLAUDE_CODE_OPTIONS,
  parse: parseClaudeCodeOptions,
  trigger: (input, options) => triggerClaudeCode(input, options),
  plan: planClaudeCode,
  nothingToDo: (input) => claudeCodeNothingToDo(input),
  assemble: assembleClaudeCode,
};
