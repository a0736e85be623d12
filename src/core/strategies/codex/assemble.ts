/**
 * Builds the history Codex has after a compaction: the initial context, the carried user prompts
 * (the crossing one cut), then the summary as a user message opened by a short handoff line. The
 * state left for the next compaction names these items and the last entry covered.
 */
import { contextTokens } from '../../compaction/context-tokens.ts';
import type { CompactedContext, CompactionInput, ContextEntry, Plan } from '../../compaction/types.ts';
import { agentPrevious, agentView, journalItem, madeUserItem, viewContext } from '../agent-state.ts';
import { formatNumber as fmt } from '../format-number.ts';
import { needSummary } from '../sliding-window.ts';
import { CODEX_ID, CODEX_TASK, codexLayout } from './plan.ts';
import type { CodexOptions } from './options.ts';

/** Opens the summary message, so the next model reads it as a handoff (Codex prefixes its summaries likewise). */
export const CODEX_SUMMARY_LEAD = 'Another model worked on this task before you and left this handoff summary; continue from it without redoing finished work.';

export function assembleCodex(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: CodexOptions): CompactedContext {
  const view = agentView(input, CODEX_ID);
  if (plan.nothingToDo !== undefined) {
    const entries = viewContext(input, view);
    return {
      entries, tokensAfter: contextTokens(input, entries), previous: input.previous ?? { strategy: CODEX_ID, summaries: [] },
      truncationApplied: false, summaryApplied: false, notes: [plan.nothingToDo],
    };
  }
  const summary = needSummary(summaries, CODEX_TASK, 'Codex');
  const layout = codexLayout(input, options, view);
  const out: ContextEntry[] = [...layout.initial].sort((a, b) => a - b).map((i) => journalItem(input.entries[i]!));
  for (const c of layout.carried) {
    const entry = input.entries[c.index]!;
    out.push(c.truncated ? { role: 'user', entry: { ...entry, blocks: [{ type: 'text', text: c.text }] }, origin: 'compressed' } : journalItem(entry));
  }
  const first = input.entries[layout.summarized[0]!]!;
  const last = input.entries[layout.summarized[layout.summarized.length - 1]!]!;
  const text = `${CODEX_SUMMARY_LEAD}\n\n${summary}`;
  out.push(madeUserItem(input, `codex-summary:${last.id}`, text, 'summary', { from: first, to: last, count: layout.summarized.length }));
  const tokensAfter = contextTokens(input, out);
  return {
    entries: out, tokensAfter, previous: agentPrevious(CODEX_ID, input, out, [text]),
    truncationApplied: layout.carried.some((c) => c.truncated), summaryApplied: true,
    notes: [`The summary replaces ${layout.summarized.length} entries; ${layout.carried.length} user prompts are carried and ${layout.initial.size} initial-context entries kept. ${fmt(plan.tokensBefore)} -> ${fmt(tokensAfter)} tokens (${input.counter.label}).`],
  };
}
