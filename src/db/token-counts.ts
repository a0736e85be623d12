/**
 * Token counts in one shape wherever they are kept: which counts (`CountsKey`: a conversation, as
 * of one import of it, with one counter), the stored row (`TokenCountRow`), and the counts the
 * worker answers with (`TokenCounts`: the row and how it was got), which the page keeps as they are.
 * Dexie holds one row per conversation and counter, for the import it was counted on.
 */
import type { CounterId, TokenCounter } from '../core/tokens/counters.ts';
import type { FoldlabDatabase, TokenCountRow } from './schema.ts';

/** Which counts: a conversation's journal as of one import of it, counted with one counter. */
export type CountsKey = Pick<TokenCountRow, 'conversationId' | 'importId' | 'counter'>;

/** The counts the worker answers with: the stored row, the counter's label and exactness, and whether it came from the cache. */
export interface TokenCounts extends TokenCountRow {
  label: string;
  exact: boolean;
  /** True when the counts came from the cache (Dexie) rather than a fresh count. */
  cached: boolean;
}

/** The key's one string form (the page keeps counts under it): two different keys never share one, whatever their ids hold. */
export function countsKey(conversationId: string, importId: string, counter: CounterId): string {
  return JSON.stringify([conversationId, importId, counter]);
}

/** The string key of counts (or of a row), read from their own fields. */
export function keyOf(counts: CountsKey): string {
  return countsKey(counts.conversationId, counts.importId, counts.counter);
}

/** Whether a stored row holds the counts `key` asks for: same conversation and counter, counted on the same import (a re-import makes older counts stale). */
export function isCurrent(row: CountsKey, key: CountsKey): boolean {
  return row.conversationId === key.conversationId && row.counter === key.counter && row.importId === key.importId;
}

/** A row as the worker answers it: labelled with its counter, and said whether it came from the cache. */
export function answeredCounts(row: TokenCountRow, counter: Pick<TokenCounter, 'label' | 'exact'>, cached: boolean): TokenCounts {
  return { ...row, label: counter.label, exact: counter.exact, cached };
}

/** The stored row of a conversation and counter, whatever import it was counted on (a live session's shorter journal is extended from it). */
export async function storedCounts(db: FoldlabDatabase, conversationId: string, counter: CounterId): Promise<TokenCountRow | undefined> {
  return db.tokenCounts.get([conversationId, counter]);
}

/** The cached row `key` asks for, if the one stored is current. */
export async function cachedCounts(db: FoldlabDatabase, key: CountsKey): Promise<TokenCountRow | undefined> {
  const row = await storedCounts(db, key.conversationId, key.counter);
  return row && isCurrent(row, key) ? row : undefined;
}

/** Stores a row, replacing the conversation's counts with that counter from any earlier import. */
export async function storeCounts(db: FoldlabDatabase, row: TokenCountRow): Promise<void> {
  await db.tokenCounts.put(row);
}
