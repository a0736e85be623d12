/**
 * L7 (seed 002 §A6, §C7): compact when the last API usage plus a len/3 estimate of the new user
 * input reaches the threshold, and the history has at least the minimum number of messages:
 * `last_usage + len(user_input)//3 >= ratio * context_window and len(messages) >= min`.
 */
import { entryText, type Entry } from '../../journal/entry.ts';
import type { CompactionInput, TriggerDecision } from '../../compaction/types.ts';
import { codePointLength } from '../../tokens/counters.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';
import { archivedTokens, layeredBranchFacts } from './branch-facts.ts';

export interface TriggerParams {
  /** Context window, tokens (seed: 200,000, read from `Config.context_window`). */
  contextWindow: number;
  /** Fraction of the window that triggers (seed: 0.8). */
  triggerRatio: number;
  /** Fewer history messages than this never trigger (seed: 3). */
  minMessages: number;
}

/**
 * Tokens of the last model call: usage (input + output) of the last assistant entry that recorded
 * one. Where the caller gives the unseen prefix, the context as sent stands in for it (the counted
 * context plus that prefix), the size every other strategy and the chart read.
 */
export function lastUsage(input: CompactionInput): { tokens: number; from: string } {
  const facts = layeredBranchFacts(input.entries);
  const entry = input.entries[facts.lastUsage];
  const sent = input.unseenPrefixTokens !== undefined;
  if (entry?.usage && !sent) return { tokens: entry.usage.input + entry.usage.output, from: `usage of ${entry.id}` };
  // No recorded usage (hand-written or chat-format transcripts): the counted context stands in —
  // after an earlier archive, the entries it kept plus its summaries, not the whole history.
  const unseen = unseenTokens(input);
  const why = sent ? `context as sent: ${input.counter.label}${unseen > 0 ? ` + ${fmt(unseen)} not in the transcript` : ''}` : `no recorded usage: ${input.counter.label}`;
  const kept = input.previous?.firstKeptEntryId;
  const start = kept === undefined ? -1 : facts.indexOf(kept);
  if (start > 0) {
    const archived = archivedTokens(input.previous?.summaries ?? [], input.counter);
    return { tokens: input.tokens.range(start, input.entries.length - 1) + archived + unseen, from: `${why} count of the context since the last archive` };
  }
  return { tokens: input.tokens.total + unseen, from: `${why} total` };
}

/** The current user input: the last user message typed by the user (harness text skipped when possible). */
export function currentUserInput(entries: readonly Entry[]): { index: number; text: string } | undefined {
  const facts = layeredBranchFacts(entries);
  const index = facts.lastOpener >= 0 ? facts.lastOpener : facts.lastUser;
  const entry = entries[index];
  if (!entry) return undefined;
  const text = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  return { index, text: facts.lastOpener >= 0 ? text : text || entryText(entry) };
}

/** History messages the minimum applies to: L3 entries (conversation and archived summaries). */
export function historyMessages(entries: readonly Entry[]): number {
  return layeredBranchFacts(entries).messages;
}

/** `toLocaleString('en-US', …)` with one formatter: a formatter per call cost more than the rest of the trigger. */
const FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const fmt = (n: number) => FORMAT.format(n);

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
