/**
 * Codex's trigger and planner. The trigger compares the context as sent with the auto-compact limit
 * (before each model request, as Codex checks its token usage before it samples again). The plan
 * summarizes the whole current history, earlier summary included, and lays out the new history as
 * Codex builds it: the initial context, the newest user prompts under the cap, then the summary.
 * Nothing else of the old history (assistant messages, tool calls and their results) stays.
 */
import type { CompactionInput, Compression, Fate, Plan, SummaryTask, TriggerDecision } from '../../compaction/types.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';
import {
  agentView, indexOfId, initialContextIndices, isRealUserMessage, viewTokens, type AgentView,
} from '../agent-state.ts';
import { formatNumber as fmt } from '../format-number.ts';
import { selectCarried, userText, type Carried, type CarryCandidate } from './carry.ts';
import { codexLimits, type CodexOptions } from './options.ts';

export const CODEX_ID = 'codex' as const;
/** Task and prompt id of the handoff summary (prompts/codex-summary.md). */
export const CODEX_TASK = 'codex-summary';

export function triggerCodex(input: CompactionInput, options: CodexOptions, view = agentView(input, CODEX_ID)): TriggerDecision {
  const { window, limit, derived } = codexLimits(options, input.contextWindow);
  const transcript = viewTokens(input, view);
  const unseen = unseenTokens(input);
  const tokens = transcript + unseen;
  const fire = tokens >= limit;
  const sent = unseen > 0 ? ` (${fmt(transcript)} ${input.counter.label} + ${fmt(unseen)} not in the transcript)` : ` (${input.counter.label})`;
  const why = derived ? `90% of model_context_window ${fmt(window)}` : 'model_auto_compact_token_limit';
  return {
    fire, rule: 'auto-compact-limit',
    detail: `context ${fmt(tokens)}${sent} ${fire ? '>=' : '<'} auto-compact limit ${fmt(limit)} (${why})`,
    numbers: { contextTokens: tokens, limit, contextWindow: window },
  };
}

/** What a Codex compaction of `input` keeps and summarizes. */
export interface CodexLayout {
  view: AgentView;
  initial: Set<number>;
  carried: Carried[];
  /** Input indices the summary covers, ascending. */
  summarized: number[];
}

function candidatesOf(input: CompactionInput, view: AgentView): CarryCandidate[] {
  const out: CarryCandidate[] = [];
  for (const item of view.items) {
    if (item.origin === 'journal' && isRealUserMessage(item.entry)) {
      out.push({ index: indexOfId(input.entries, item.entry.id), text: userText(item.entry), cut: false });
    } else if (item.origin === 'compressed' && item.role === 'user') {
      const index = indexOfId(input.entries, item.entry.id);
      if (index >= 0) out.push({ index, text: userText(item.entry), cut: true });
    }
  }
  for (let i = view.start; i < input.entries.length; i++) {
    const entry = input.entries[i]!;
    if (isRealUserMessage(entry)) out.push({ index: i, text: userText(entry), cut: false });
  }
  return out.filter((c) => c.index >= 0);
}

export function codexLayout(input: CompactionInput, options: CodexOptions, view = agentView(input, CODEX_ID)): CodexLayout {
  const initial = new Set(initialContextIndices(input.entries));
  const candidates = candidatesOf(input, view);
  const carried = selectCarried(candidates, options.userMessageTokenCap);
  const summarized = new Set<number>(candidates.filter((c) => c.index < view.start).map((c) => c.index));
  for (let i = view.start; i < input.entries.length; i++) if (!initial.has(i)) summarized.add(i);
  return { view, initial, carried, summarized: [...summarized].sort((a, b) => a - b) };
}

/** The cheap answer for a trigger that fired: nothing recorded since the last compaction. */
export function codexNothingToDo(input: CompactionInput): string | undefined {
  const view = agentView(input, CODEX_ID);
  return view.start > 0 && view.start >= input.entries.length ? 'No entries recorded since the last compaction: nothing to compact.' : undefined;
}

export function planCodex(input: CompactionInput, options: CodexOptions): Plan {
  const view = agentView(input, CODEX_ID);
  const trigger = triggerCodex(input, options, view);
  const { entries, tokens, counter } = input;
  const n = entries.length;
  const before = viewTokens(input, view);
  const base: Plan = {
    strategy: CODEX_ID, options: { ...options }, trigger, fates: entries.map(() => 'keep' as Fate), summaries: [], compressions: [],
    tokensBefore: before, tokensAfterEstimate: before, notes: [...view.notes],
  };
  const idle = codexNothingToDo(input);
  const layout = codexLayout(input, options, view);
  const fresh = layout.summarized.filter((i) => i >= view.start);
  if (idle || fresh.length === 0) {
    const reason = idle ?? (n === 0 ? 'The branch is empty: nothing to compact.' : 'Only the initial context (system prompt, injected instructions) since the last compaction: nothing to summarize.');
    return { ...base, notes: [...base.notes, reason], nothingToDo: reason };
  }

  const carried = new Map(layout.carried.map((c) => [c.index, c]));
  const fates: Fate[] = entries.map((_, i) => (layout.initial.has(i) ? 'keep' : 'summarize'));
  const compressions: Compression[] = [];
  let after = 0;
  for (const i of layout.initial) after += tokens.countAt(i);
  for (const c of layout.carried) {
    if (c.truncated) {
      fates[c.index] = 'compress';
      const tokensAfter = counter.count(c.text);
      compressions.push({ index: c.index, text: c.text, tokensBefore: tokens.countAt(c.index), tokensAfter, rule: `carried user message cut to the ${fmt(options.userMessageTokenCap)}-token cap` });
      after += tokensAfter;
    } else {
      fates[c.index] = 'keep';
      after += tokens.countAt(c.index);
    }
  }
  const first = layout.summarized[0]!;
  const last = layout.summarized[layout.summarized.length - 1]!;
  const task: SummaryTask = {
    id: CODEX_TASK, prompt: CODEX_TASK, from: first, to: last, indices: layout.summarized,
    ...(view.summary !== undefined ? { previousSummary: view.summary } : {}),
  };
  const carriedTokens = layout.carried.reduce((sum, c) => sum + c.tokens, 0);
  const notes = [
    ...base.notes,
    `Summarize the whole history (${layout.summarized.length} entries${view.summary !== undefined ? ', the previous summary with them' : ''}) into one handoff summary, sent as a user message after the carried prompts.`,
    `Carry ${layout.carried.length} of the user's prompts verbatim, newest first up to userMessageTokenCap ${fmt(options.userMessageTokenCap)} (${fmt(carriedTokens)} by Codex's bytes/4 estimate${layout.carried.some((c) => c.truncated) ? '; the oldest carried one is cut' : ''}).`,
    `Keep the initial context (${layout.initial.size} system or injected entries); every assistant message, tool call and tool result of the old history leaves the context.`,
    'Codex does not cap the summary\'s length: the estimate counts the summary once written (offline), or leaves it out (a model writes it).',
  ];
  if (carried.size === 0 && options.userMessageTokenCap > 0) notes.push('No prompt the user typed is in the history: only the summary follows the initial context.');
  return {
    ...base, fates, compressions, summaries: [task], tokensAfterEstimate: after,
    notes,
  };
}
