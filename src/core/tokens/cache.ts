/**
 * In-memory cache of entry counts keyed by (entry key, counter), so a conversation is tokenized once
 * per counter and switching counters back and forth costs nothing.
 */
import type { Entry } from '../journal/entry.ts';
import type { CounterId, TokenCounter } from './counters.ts';
import { countEntry, tallyEntries, type EntriesTokens, type EntryTokens, type ProgressFn } from './entry-tokens.ts';

/** Unbounded: call `clear()` (or drop the cache) when a conversation is closed. */
export class TokenCache {
  private readonly byCounter = new Map<CounterId, Map<string, EntryTokens>>();

  get(key: string, counter: CounterId): EntryTokens | undefined {
    return this.byCounter.get(counter)?.get(key);
  }

  set(key: string, counter: CounterId, tokens: EntryTokens): void {
    let counts = this.byCounter.get(counter);
    if (counts === undefined) {
      counts = new Map();
      this.byCounter.set(counter, counts);
    }
    counts.set(key, tokens);
  }

  /** Cached entries across all counters. */
  get size(): number {
    let n = 0;
    for (const counts of this.byCounter.values()) n += counts.size;
    return n;
  }

  clear(): void {
    this.byCounter.clear();
  }

  /**
   * `countEntries`, reading and filling the cache. `keyOf` must be unique per entry content, e.g.
   * `${conversationId}/${entry.id}` (entries are never rewritten once stored).
   */
  countWithCache(
    entries: readonly Entry[],
    counter: TokenCounter,
    keyOf: (entry: Entry) => string,
    onProgress?: ProgressFn,
  ): EntriesTokens {
    return tallyEntries(
      entries,
      (entry) => {
        const key = keyOf(entry);
        const cached = this.get(key, counter.id);
        if (cached !== undefined) return cached;
        const counted = countEntry(entry, counter);
        this.set(key, counter.id, counted);
        return counted;
      },
      onProgress,
    );
  }
}
