/**
 * What a replayed session would have cost at one model's prices: each call's uncached context at
 * the input price, the part a prompt cache serves at the cached price (when the model has one),
 * the response at the output price, and the summarizer's tokens as that model would bill them.
 */
import type { Price } from '../pricing.ts';
import type { ReplayCall } from './types.ts';

/** Anthropic's default prompt-cache lifetime: a call more than this after the previous one reads nothing from cache. */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

export function replayCost(calls: readonly ReplayCall[], summarizer: { input: number; output: number }, price: Price): number {
  let usd = 0;
  for (const call of calls) {
    const cached = price.cachedInput === undefined ? 0 : call.cachedTokens;
    usd += (call.contextTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + call.outputTokens * price.output;
  }
  usd += summarizer.input * price.input + summarizer.output * price.output;
  return usd / 1_000_000;
}
