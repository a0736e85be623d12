/**
 * pi's own token estimate (coding-agent compaction, `estimateTokens`): per message, the characters
 * pi counts divided by 4, rounded up. A user message counts its text; an assistant message its text,
 * thinking, and each tool call's name plus its JSON arguments; a tool result its text plus 4,800
 * characters (1,200 tokens) per image; a summary its text. The pi strategy's `tokenCount` option
 * 'pi-estimate' counts with this instead of the chosen counter, as pi decides where to cut.
 */
import type { Entry } from '../../journal/entry.ts';
import type { CompactionInput } from '../../compaction/types.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import { TokenIndex } from '../../tokens/prefix-sums.ts';

/** Characters pi counts per token. */
export const PI_CHARS_PER_TOKEN = 4;
/** Characters pi counts for one image in a tool result (1,200 tokens). */
export const PI_IMAGE_CHARS = 4_800;

/** The option value that makes the pi strategy count as pi does. */
export const PI_ESTIMATE = 'pi-estimate';

/** pi's estimate as a counter, for the text the strategy makes (its summary): chars/4, images 1,200. */
export const PI_ESTIMATOR: TokenCounter = {
  id: 'chars4',
  label: 'chars/4 as pi estimates (images 1,200)',
  exact: false,
  count: (text: string) => Math.ceil(text.length / PI_CHARS_PER_TOKEN),
  imageTokens: PI_IMAGE_CHARS / PI_CHARS_PER_TOKEN,
};

/** The characters pi counts for one entry (UTF-16 code units, as JavaScript's `length`). */
export function piEstimateChars(entry: Entry): number {
  let chars = 0;
  for (const block of entry.blocks) {
    if (block.type === 'text' || block.type === 'thinking') chars += block.text.length;
    else if (block.type === 'tool_call') chars += block.name.length + (JSON.stringify(block.input ?? {})?.length ?? 0);
    else if (block.type === 'tool_result') {
      for (const part of block.content) chars += part.type === 'text' ? part.text.length : PI_IMAGE_CHARS;
    } else if (block.type === 'image' && entry.role === 'tool') chars += PI_IMAGE_CHARS;
    // pi counts no image of a user message (its estimate reads only their text).
  }
  return chars;
}

const estimates = new WeakMap<Entry, number>();

/** pi's estimate of one entry, tokens (cached per entry: an entry never changes). */
export function piEstimateTokens(entry: Entry): number {
  let tokens = estimates.get(entry);
  if (tokens === undefined) estimates.set(entry, (tokens = Math.ceil(piEstimateChars(entry) / PI_CHARS_PER_TOKEN)));
  return tokens;
}

/** The input counted as pi estimates it: the same entries, pi's per-entry estimates, pi's estimator. */
export function piEstimateInput(input: CompactionInput): CompactionInput {
  return { ...input, tokens: new TokenIndex(input.entries.map(piEstimateTokens)), counter: PI_ESTIMATOR };
}
