/**
 * Claude Code's trigger and planner. The trigger compares the context as sent with the auto-compact
 * threshold (the effective window minus a buffer, or the percent override when that is lower). The
 * plan summarizes the whole conversation since the last compaction, earlier summary included: the
 * summary replaces all of it, and only the initial context stays, followed by the recently read
 * files and the todo list attached again.
 */
import type { CompactionInput, Fate, Plan, SummaryTask, TriggerDecision } from '../../compaction/types.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';
import { agentView, initialContextIndices, viewTokens, type AgentView } from '../agent-state.ts';
import { formatNumber as fmt } from '../format-number.ts';
import { claudeCodeThreshold, type ClaudeCodeOptions } from './options.ts';
import { lastTodos, restoredFiles, type RestoredFile } from './restore.ts';

export const CLAUDE_CODE_ID = 'claude-code' as const;
/** Task and prompt id of the summary (prompts/claude-code-summary.md). */
export const CLAUDE_CODE_TASK = 'claude-code-summary';

export function triggerClaudeCode(input: CompactionInput, options: ClaudeCodeOptions, view = agentView(input, CLAUDE_CODE_ID)): TriggerDecision {
  const t = claudeCodeThreshold(options, input.contextWindow);
  const transcript = viewTokens(input, view);
  const unseen = unseenTokens(input);
  const tokens = transcript + unseen;
  const numbers = { contextTokens: tokens, threshold: t.threshold, contextWindow: t.window, effectiveWindow: t.effective };
  if (!options.autoCompact) return { fire: false, rule: 'disabled', detail: 'autoCompact = false: Claude Code compacts only on /compact', numbers };
  const fire = tokens >= t.threshold;
  const sent = unseen > 0 ? ` (${fmt(transcript)} ${input.counter.label} + ${fmt(unseen)} not in the transcript)` : ` (${input.counter.label})`;
  return { fire, rule: 'auto-compact-threshold', detail: `context ${fmt(tokens)}${sent} ${fire ? '>=' : '<'} threshold ${fmt(t.threshold)} (${t.rule})`, numbers };
}

export interface ClaudeCodeLayout {
  view: AgentView;
  initial: Set<number>;
  /** Indices the summary covers (everything since the last compaction but the initial context). */
  summarized: number[];
  files: RestoredFile[];
  todos?: string;
}

export function claudeCodeLayout(input: CompactionInput, options: ClaudeCodeOptions, view = agentView(input, CLAUDE_CODE_ID)): ClaudeCodeLayout {
  const initial = new Set(initialContextIndices(input.entries));
  const summarized: number[] = [];
  for (let i = view.start; i < input.entries.length; i++) if (!initial.has(i)) summarized.push(i);
  const files = restoredFiles(input, summarized, { files: options.restoreFiles, fileTokens: options.restoreFileTokens, budget: options.restoreTokenBudget });
  const todos = lastTodos(input, summarized);
  return { view, initial, summarized, files, ...(todos !== undefined ? { todos } : {}) };
}

function nothingLeft(input: CompactionInput, view: AgentView): string | undefined {
  if (input.entries.length === 0) return 'The branch is empty: nothing to compact.';
  return view.start > 0 && view.start >= input.entries.length ? 'No entries recorded since the last compaction: nothing to compact.' : undefined;
}

export function claudeCodeNothingToDo(input: CompactionInput): string | undefined {
  return nothingLeft(input, agentView(input, CLAUDE_CODE_ID));
}

export function planClaudeCode(input: CompactionInput, options: ClaudeCodeOptions): Plan {
  const view = agentView(input, CLAUDE_CODE_ID);
  const trigger = triggerClaudeCode(input, options, view);
  const before = viewTokens(input, view);
  const base: Plan = {
    strategy: CLAUDE_CODE_ID, options: { ...options }, trigger, fates: input.entries.map(() => 'keep' as Fate), summaries: [], compressions: [],
    tokensBefore: before, tokensAfterEstimate: before, notes: [...view.notes],
  };
  const layout = claudeCodeLayout(input, options, view);
  const idle = nothingLeft(input, view) ?? (layout.summarized.length === 0 ? 'Only the initial context (system prompt, injected instructions) since the last compaction: nothing to summarize.' : undefined);
  if (idle) return { ...base, notes: [...base.notes, idle], nothingToDo: idle };

  const fates: Fate[] = input.entries.map((_, i) => (layout.initial.has(i) ? 'keep' : 'summarize'));
  const task: SummaryTask = {
    id: CLAUDE_CODE_TASK, prompt: CLAUDE_CODE_TASK, from: layout.summarized[0]!, to: layout.summarized[layout.summarized.length - 1]!, indices: layout.summarized,
    maxTokens: options.outputReserveTokens,
    ...(view.summary !== undefined ? { previousSummary: view.summary } : {}),
  };
  let after = options.outputReserveTokens;
  for (const i of layout.initial) after += input.tokens.countAt(i);
  const fileTokens = layout.files.reduce((sum, f) => sum + f.tokens, 0);
  after += fileTokens + (layout.todos !== undefined ? input.counter.count(layout.todos) : 0);
  const notes = [
    ...base.notes,
    `The summary replaces the whole conversation since ${view.start > 0 ? 'the last compaction' : 'the start'} (${layout.summarized.length} entries${view.summary !== undefined ? ', the previous summary with them' : ''}); only the initial context (${layout.initial.size} entries) stays.`,
    layout.files.length > 0
      ? `Re-attach the ${layout.files.length} most recently read file(s) (${fmt(fileTokens)} tokens; each at most restoreFileTokens ${fmt(options.restoreFileTokens)}, together at most restoreTokenBudget ${fmt(options.restoreTokenBudget)}): ${layout.files.map((f) => f.path).join(', ')}.`
      : 'No file read in the summarized part: nothing to re-attach.',
    ...(layout.todos !== undefined ? ['Re-attach the todo list as the last TodoWrite left it.'] : []),
    `The summary may use up to outputReserveTokens ${fmt(options.outputReserveTokens)} (counted at that budget until written).`,
  ];
  return { ...base, fates, summaries: [task], tokensAfterEstimate: after, notes };
}
