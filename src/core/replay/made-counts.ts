/**
 * Token counts of the entries a strategy makes (summaries, placeholders, rewritten results) during
 * a replay, exactly as `countEntry` gives them: block by block, images at the counter's weight.
 * A strategy re-makes the same texts at nearly every compaction (layered re-creates each earlier
 * archive whenever its cut moves), so an exact tokenizer counts each block text once per replay;
 * the text is the key as it is (the strings are shared, so a lookup does not copy them), and an
 * estimator, cheaper than any lookup, is simply called.
 */
import { blockImages, blockText, type Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';

/** Block texts remembered before the memo starts over. Default 50,000. Unit: texts. */
export const MADE_TEXTS_LIMIT = 50_000;

export class MadeCounts {
  private readonly texts = new Map<string, number>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly limit = MADE_TEXTS_LIMIT,
  ) {}

  /** `countEntry(entry, counter).total`. */
  count(entry: Entry): number {
    let total = 0;
    for (const block of entry.blocks) {
      const text = blockText(block);
      if (text.length > 0) total += this.textTokens(text);
      total += blockImages(block) * this.counter.imageTokens;
    }
    return total;
  }

  private textTokens(text: string): number {
    if (!this.counter.exact) return this.counter.count(text);
    let tokens = this.texts.get(text);
    if (tokens === undefined) {
      tokens = this.counter.count(text);
      if (this.texts.size >= this.limit) this.texts.clear();
      this.texts.set(text, tokens);
    }
    return tokens;
  }
}
