/**
 * Tokens of an assembled context: journal entries kept as they are take the count the input already
 * has (counting them again with an exact tokenizer would cost a full re-tokenization of the
 * context at every compaction); entries a strategy made are counted.
 */
import type { Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { CompactionInput, ContextEntry } from './types.ts';

/** Counts of made entries by object: a strategy hands back the same rewritten entry at every compaction. */
const madeCounts = new WeakMap<TokenCounter, WeakMap<Entry, number>>();

function madeTokens(entry: Entry, counter: TokenCounter): number {
  let byEntry = madeCounts.get(counter);
  if (!byEntry) madeCounts.set(counter, (byEntry = new WeakMap()));
  let n = byEntry.get(entry);
  if (n === undefined) byEntry.set(entry, (n = countEntry(entry, counter).total));
  return n;
}

export function contextTokens(input: CompactionInput, entries: readonly ContextEntry[]): number {
  const all = input.entries;
  // Contexts keep journal entries in input order: one forward walk finds each. An entry found out of
  // that order (or not at all) switches to a lookup table for the rest.
  let next = 0;
  let at: Map<Entry, number> | undefined;
  let total = 0;
  for (const item of entries) {
    let i: number | undefined;
    if (item.origin === 'journal') {
      if (!at) {
        let j = next;
        while (j < all.length && all[j] !== item.entry) j++;
        if (j < all.length) {
          i = j;
          next = j + 1;
        } else {
          at = new Map();
          all.forEach((entry, k) => at!.set(entry, k));
        }
      }
      if (at) i = at.get(item.entry);
    }
    total += i !== undefined ? input.tokens.countAt(i) : madeTokens(item.entry, input.counter);
  }
  return total;
}
