/**
 * In-process token-counting throughput: our exact o200k counter (gpt-tokenizer) against js-tiktoken's
 * o200k_base on the same text. The worker round-trip is measured elsewhere (bench/run.ts).
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { getCounter } from '../src/core/tokens/index.ts';

/** Timed passes after the first (cold) one; the fastest is reported. Default 2. Unit: passes. */
export const WARM_PASSES = 2;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

/** Cold pass, then the best of `WARM_PASSES` warm passes. */
function passes(count: () => number): { tokens: number; coldMs: number; ms: number } {
  const cold = timed(count);
  let ms = Number.POSITIVE_INFINITY;
  for (let i = 0; i < WARM_PASSES; i++) ms = Math.min(ms, timed(count).ms);
  return { tokens: cold.value, coldMs: cold.ms, ms };
}

/**
 * Returns (MB = 10^6 UTF-8 bytes; times in ms):
 * - `bytes`, `tokens` (o200k), `agree` (1 when both tokenizers give the same count);
 * - `o200k_load_ms` (dynamic import of the rank table; ~0 if already loaded), `o200k_cold_mb_s`
 *   (first pass, merge cache empty), `o200k_ms`, `o200k_mb_s`, `o200k_tokens_s` (best warm pass);
 * - the same for `tiktoken_*` (js-tiktoken, special tokens as plain text) and `ratio` =
 *   o200k MB/s / js-tiktoken MB/s (above 1: ours is faster).
 */
export async function benchTokens(text: string): Promise<Record<string, number>> {
  const bytes = new TextEncoder().encode(text).length;
  const mb = bytes / 1e6;

  const load = performance.now();
  const o200k = await getCounter('o200k');
  const o200kLoadMs = performance.now() - load;
  const ours = passes(() => o200k.count(text));

  const tiktokenLoad = timed(() => new Tiktoken(o200kRanks));
  const tiktoken = tiktokenLoad.value;
  const theirs = passes(() => tiktoken.encode(text, [], []).length);

  const o200kMbS = mb / (ours.ms / 1000);
  const tiktokenMbS = mb / (theirs.ms / 1000);
  return {
    bytes,
    tokens: ours.tokens,
    agree: ours.tokens === theirs.tokens ? 1 : 0,
    o200k_load_ms: o200kLoadMs,
    o200k_cold_mb_s: mb / (ours.coldMs / 1000),
    o200k_ms: ours.ms,
    o200k_mb_s: o200kMbS,
    o200k_tokens_s: ours.tokens / (ours.ms / 1000),
    tiktoken_load_ms: tiktokenLoad.ms,
    tiktoken_tokens: theirs.tokens,
    tiktoken_cold_mb_s: mb / (theirs.coldMs / 1000),
    tiktoken_ms: theirs.ms,
    tiktoken_mb_s: tiktokenMbS,
    ratio: o200kMbS / tiktokenMbS,
  };
}
