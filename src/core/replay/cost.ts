/**
 * What a replayed session would have cost at one model's prices: each call's uncached context at
 * the input price, the part a prompt cache serves at the cached price (when the model has one),
 * the response at the output price, and the summarizer's tokens as that model would bill them.
 */
import type { Entry } from '../journal/entry.ts';
import type { Price } from '../pricing.ts';
import type { ReplayCall } from './types.ts';

/** Anthropic's default prompt-cache lifetime: a call more than this after the previous one reads nothing from cache. */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

/**
 * One call of a replay: its context, what the prompt cache serves of it (the previous call's context,
 * unless a compaction ran or the cache expired), the response's tokens, and why it overflows.
 */
export function replayCall(args: {
  call: number;
  entryIndex: number;
  entry: Entry;
  contextTokens: number;
  /** The response's own tokens when the source recorded no usage. */
  countedOutput: number;
  previous: ReplayCall | undefined;
  compacted: boolean;
  /** When the request was sent (the entry before the response), epoch ms. */
  requestAt: number | undefined;
  cacheTtlMs: number;
  contextWindow: number;
  /** Why the call is over the window (asked only when it is). */
  overflowNote: () => string;
}): ReplayCall {
  const { previous, contextTokens, entry } = args;
  const expired = previous?.at !== undefined && args.requestAt !== undefined && args.requestAt - previous.at > args.cacheTtlMs;
  const overflow = contextTokens > args.contextWindow;
  return {
    call: args.call,
    entryIndex: args.entryIndex,
    entryId: entry.id,
    contextTokens,
    cachedTokens: !previous || args.compacted || expired ? 0 : Math.min(previous.contextTokens, contextTokens),
    outputTokens: entry.usage?.output ?? args.countedOutput,
    compacted: args.compacted,
    overflow,
    ...(overflow ? { note: args.overflowNote() } : {}),
    ...(entry.timestamp !== undefined ? { at: entry.timestamp } : {}),
  };
}

export function replayCost(calls: readonly ReplayCall[], summarizer: { input: number; output: number }, price: Price): number {
  let usd = 0;
  for (const call of calls) {
    const cached = price.cachedInput === undefined ? 0 : call.cachedTokens;
    usd += (call.contextTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + call.outputTokens * price.output;
  }
  usd += summarizer.input * price.input + summarizer.output * price.output;
  return usd / 1_000_000;
}
