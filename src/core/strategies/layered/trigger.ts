/**
 * L7 (seed 002 §A6, §C7): compact when the last API usage plus a len/3 estimate of the new user
 * input reaches the threshold, and the history has at least the minimum number of messages:
 * `last_usage + len(user_input)//3 >= ratio * context_window and len(messages) >= min`.
 */
import { entryText, type Entry } from '../../journal/entry.ts';
import type { CompactionInput, TriggerDecision } from '../../compaction/types.ts';
import { codePointLength } from '../../tokens/counters.ts';
import { classify, opensTurn } from './turns.ts';

export interface TriggerParams {
  /** Context window, tokens (seed: 200,000, read from `Config.context_window`). */
  contextWindow: number;
  /** Fraction of the window that triggers (seed: 0.8). */
  triggerRatio: number;
  /** Fewer history messages than this never trigger (seed: 3). */
  minMessages: number;
}

/** Tokens of the last model call: usage (input + output) of the last assistant entry that recorded one. */
export function lastUsage(input: CompactionInput): { tokens: number; from: string } {
  for (let i = input.entries.length - 1; i >= 0; i--) {
    const entry = input.entries[i]!;
    if (entry.role === 'assistant' && entry.usage) {
      return { tokens: entry.usage.input + entry.usage.output, from: `usage of ${entry.id}` };
    }
  }
  // No recorded usage (hand-written or chat-format transcripts): the counted context stands in —
  // after an earlier archive, the entries it kept plus its summaries, not the whole history.
  const kept = input.previous?.firstKeptEntryId;
  const start = kept === undefined ? -1 : input.entries.findIndex((entry) => entry.id === kept);
  if (start > 0) {
    const archived = (input.previous?.summaries ?? []).reduce((sum, text) => sum + input.counter.count(text), 0);
    return { tokens: input.tokens.range(start, input.entries.length - 1) + archived, from: `no recorded usage: ${input.counter.label} count of the context since the last archive` };
  }
  return { tokens: input.tokens.total, from: `no recorded usage: ${input.counter.label} total` };
}

/** The current user input: the last user message typed by the user (harness text skipped when possible). */
export function currentUserInput(entries: readonly Entry[]): { index: number; text: string } | undefined {
  let fallback: { index: number; text: string } | undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.role !== 'user' || entry.kind !== 'message') continue;
    const text = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    if (opensTurn(entry)) return { index: i, text };
    fallback ??= { index: i, text: text || entryText(entry) };
  }
  return fallback;
}

/** History messages the minimum applies to: L3 entries (conversation and archived summaries). */
export function historyMessages(entries: readonly Entry[]): number {
  let n = 0;
  for (const entry of entries) {
    const cls = classify(entry);
    if (cls === 'conversation' || cls === 'archive') n++;
  }
  return n;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 });

export function layeredTrigger(input: CompactionInput, params: TriggerParams): TriggerDecision {
  const usage = lastUsage(input);
  const user = currentUserInput(input.entries);
  const inputChars = user ? codePointLength(user.text) : 0;
  // Python's `len(text) // 3`: floor division on code points.
  const inputEstimate = Math.floor(inputChars / 3);
  const estimatedTotal = usage.tokens + inputEstimate;
  const threshold = params.triggerRatio * params.contextWindow;
  const messages = historyMessages(input.entries);
  const overThreshold = estimatedTotal >= threshold;
  const enoughMessages = messages >= params.minMessages;
  const fire = overThreshold && enoughMessages;
  const detail =
    `last_usage ${fmt(usage.tokens)} (${usage.from}) + len(input) ${fmt(inputChars)} // 3 = ${fmt(inputEstimate)}` +
    ` → estimated_total ${fmt(estimatedTotal)} ${overThreshold ? '>=' : '<'} ${fmt(params.triggerRatio)} × ${fmt(params.contextWindow)} = ${fmt(threshold)}` +
    `; messages ${fmt(messages)} ${enoughMessages ? '>=' : '<'} ${fmt(params.minMessages)}` +
    (fire ? ': compact' : ': no compaction');
  return {
    fire,
    rule: enoughMessages ? 'threshold' : 'minMessages',
    detail,
    numbers: {
      lastUsage: usage.tokens,
      inputChars,
      inputEstimate,
      estimatedTotal,
      threshold,
      contextWindow: params.contextWindow,
      triggerRatio: params.triggerRatio,
      messages,
      minMessages: params.minMessages,
    },
  };
}
