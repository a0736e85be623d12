/**
 * Builds the context Claude Code has after a compaction: the initial context, the summary as a user
 * message opened by a continuation line, then the recently read files and the todo list attached
 * again. The state left for the next compaction names these items and the last entry covered.
 */
import { contextTokens } from '../../compaction/context-tokens.ts';
import type { CompactedContext, CompactionInput, ContextEntry, Plan } from '../../compaction/types.ts';
import { agentPrevious, agentView, journalItem, madeUserItem, viewContext } from '../agent-state.ts';
import { formatNumber as fmt } from '../format-number.ts';
import { needSummary } from '../sliding-window.ts';
import type { ClaudeCodeOptions } from './options.ts';
import { CLAUDE_CODE_ID, CLAUDE_CODE_TASK, claudeCodeLayout } from './plan.ts';

/** Opens the summary message (Claude Code likewise tells the model the session continues from a summary). */
export const CLAUDE_CODE_SUMMARY_LEAD = 'This session continues an earlier conversation that ran out of context. The summary below covers it.';

export function assembleClaudeCode(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: ClaudeCodeOptions): CompactedContext {
  const view = agentView(input, CLAUDE_CODE_ID);
  if (plan.nothingToDo !== undefined) {
    const entries = viewContext(input, view);
    return {
      entries, tokensAfter: contextTokens(input, entries), previous: input.previous ?? { strategy: CLAUDE_CODE_ID, summaries: [] },
      truncationApplied: false, summaryApplied: false, notes: [plan.nothingToDo],
    };
  }
  const summary = needSummary(summaries, CLAUDE_CODE_TASK, 'Claude Code');
  const layout = claudeCodeLayout(input, options, view);
  const out: ContextEntry[] = [...layout.initial].sort((a, b) => a - b).map((i) => journalItem(input.entries[i]!));
  const first = input.entries[layout.summarized[0]!]!;
  const last = input.entries[layout.summarized[layout.summarized.length - 1]!]!;
  const text = `${CLAUDE_CODE_SUMMARY_LEAD}\n\n${summary}`;
  out.push(madeUserItem(input, `claude-code-summary:${last.id}`, text, 'summary', { from: first, to: last, count: layout.summarized.length }));
  for (const file of layout.files) {
    const note = file.truncated ? ' (cut to its first part)' : '';
    out.push(madeUserItem(input, `claude-code-file:${last.id}:${file.path}`, `Contents of ${file.path}, read before the summary${note}:\n${file.text}`, 'synthetic'));
  }
  if (layout.todos !== undefined) out.push(madeUserItem(input, `claude-code-todos:${last.id}`, `The todo list as it stands:\n${layout.todos}`, 'synthetic'));
  const tokensAfter = contextTokens(input, out);
  return {
    entries: out, tokensAfter, previous: agentPrevious(CLAUDE_CODE_ID, input, out, [text]),
    truncationApplied: false, summaryApplied: true,
    notes: [`The summary replaces ${layout.summarized.length} entries; ${layout.files.length} file(s)${layout.todos !== undefined ? ' and the todo list' : ''} attached again. ${fmt(plan.tokensBefore)} -> ${fmt(tokensAfter)} tokens (${input.counter.label}).`],
  };
}
