/** Token counts the worker computed, kept as it answered them under their own key (conversation, import, counter). */
import type { StateCreator } from 'zustand';
import { keyOf, type TokenCounts } from '../db/token-counts.ts';

export { countsKey } from '../db/token-counts.ts';

export interface CountsSlice {
  /** Keyed by `countsKey` (db/token-counts.ts). */
  counts: Record<string, TokenCounts>;
  countErrors: Record<string, string>;
  /** Keeps counts under the key of their own conversation, import and counter. */
  putCounts: (counts: TokenCounts) => void;
  putCountError: (key: string, message: string) => void;
}

export const createCountsSlice: StateCreator<CountsSlice, [], [], CountsSlice> = (set) => ({
  counts: {},
  countErrors: {},
  putCounts: (counts) => set((state) => ({ counts: { ...withoutSuperseded(state.counts, counts), [keyOf(counts)]: counts } })),
  putCountError: (key, message) => set((state) => ({ countErrors: { ...state.countErrors, [key]: message } })),
});

/** Same conversation and counter. */
function sameJournal(a: TokenCounts, b: TokenCounts): boolean {
  return a.conversationId === b.conversationId && a.counter === b.counter;
}

/**
 * The counts without those of the same conversation and counter over fewer entries: a live
 * session's journal grows one entry (and one import id) at a time, and only its newest counts are
 * worth keeping.
 */
function withoutSuperseded(all: Record<string, TokenCounts>, counts: TokenCounts): Record<string, TokenCounts> {
  const kept: Record<string, TokenCounts> = {};
  for (const [key, value] of Object.entries(all)) {
    if (!(sameJournal(value, counts) && value.totals.length < counts.totals.length)) kept[key] = value;
  }
  return kept;
}

/** The counts of a conversation and counter over the most entries, whatever the import: shown while a growing journal is counted again. */
export function latestCounts(all: Record<string, TokenCounts>, conversationId: string, counter: string): TokenCounts | undefined {
  let best: TokenCounts | undefined;
  for (const value of Object.values(all)) {
    if (value.conversationId === conversationId && value.counter === counter && (!best || value.totals.length > best.totals.length)) best = value;
  }
  return best;
}
