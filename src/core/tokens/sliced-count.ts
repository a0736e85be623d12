/**
 * Counting a journal in slices of bounded work, so whoever drives it (the worker) can report
 * progress and see a cancel between slices, even inside one entry holding megabytes of text.
 * The totals are exactly those of `countEntries`.
 */
import { blockImages, blockText, type Entry } from '../journal/entry.ts';
import { wholeCount, type TokenCounter } from './counters.ts';
import { emptyByKind, emptyByRole, type EntriesTokens } from './entry-tokens.ts';

/**
 * Work per slice before control returns to the caller. Default 262 144 (about 256 KB of ordinary
 * text, a few milliseconds). Unit: characters of text, or steps of a long piece's merge.
 */
export const SLICE_WORK = 1 << 18;

/** Where a sliced count stands after a slice: entries fully counted, out of all. */
export interface SliceProgress {
  done: number;
  total: number;
}

/**
 * Yields after every `sliceWork` units of work, returns the totals. Drive it with `next()` until
 * `done`; stop calling to cancel (nothing is kept).
 */
export function* countEntriesSliced(
  entries: readonly Entry[],
  counter: TokenCounter,
  sliceWork: number = SLICE_WORK,
): Generator<SliceProgress, EntriesTokens, void> {
  const totals = new Uint32Array(entries.length);
  const byKind = emptyByKind();
  const byRole = emptyByRole();
  let left = sliceWork;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    let total = 0;
    for (const block of entry.blocks) {
      const text = blockText(block);
      let textTokens = 0;
      if (text.length > 0) {
        const count = counter.start?.(text) ?? wholeCount(text, (t) => counter.count(t));
        // A text is advanced by what is left of the slice; a long one spans several slices.
        while (!count.advance(left)) {
          yield { done: i, total: entries.length };
          left = sliceWork;
        }
        left -= text.length;
        textTokens = count.tokens;
      }
      const imageTokens = blockImages(block) * counter.imageTokens;
      byKind[block.type] += textTokens;
      byKind.image += imageTokens;
      total += textTokens + imageTokens;
    }
    totals[i] = total;
    byRole[entry.role] += total;
    left -= 1;
    if (left <= 0) {
      yield { done: i + 1, total: entries.length };
      left = sliceWork;
    }
  }
  return { totals, byKind, byRole };
}
