/**
 * Tokens of an assembled context: journal entries kept as they are take the count the input already
 * has (counting them again with an exact tokenizer would cost a full re-tokenization of the
 * context at every compaction); entries a strategy made are counted.
 */
import type { Entry } from '../journal/entry.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { CompactionInput, ContextEntry } from './types.ts';

export function contextTokens(input: CompactionInput, entries: readonly ContextEntry[]): number {
  const at = new Map<Entry, number>();
  input.entries.forEach((entry, i) => at.set(entry, i));
  let total = 0;
  for (const item of entries) {
    const i = item.origin === 'journal' ? at.get(item.entry) : undefined;
    total += i !== undefined ? input.tokens.countAt(i) : countEntry(item.entry, input.counter).total;
  }
  return total;
}
