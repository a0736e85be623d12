/**
 * The tokens an agent sends with every call that its transcript does not hold (system prompt, tool
 * definitions, harness framing): `CompactionInput.unseenPrefixTokens`, derived from recorded usage
 * (replay/recorded-usage.ts) or entered by the user. A trigger compares the context as sent (the
 * counted transcript plus this prefix) with its threshold, so every strategy, curve and total reads
 * one size; plans keep their before / after figures on the transcript, which is what they change.
 */
import type { CompactionInput } from './types.ts';

/** The input's unseen prefix, tokens (0 when the caller gave none). */
export function unseenTokens(input: Pick<CompactionInput, 'unseenPrefixTokens'>): number {
  return input.unseenPrefixTokens ?? 0;
}

/** " + 18,094 not in the transcript (system prompt, tool definitions)" for a trigger's detail; empty at 0. */
export function unseenDetail(input: Pick<CompactionInput, 'unseenPrefixTokens'>): string {
  const tokens = unseenTokens(input);
  return tokens > 0 ? ` (${tokens.toLocaleString('en-US')} of them not in the transcript: system prompt, tool definitions)` : '';
}
