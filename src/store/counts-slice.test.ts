import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { TokenCounts } from '../db/token-counts.ts';
import { countsKey, createCountsSlice, latestCounts, type CountsSlice } from './counts-slice.ts';

function counts(conversationId: string, importId: string, counter: TokenCounts['counter'], entries: number): TokenCounts {
  return { conversationId, importId, counter, label: counter, exact: true, totals: new Uint32Array(entries).fill(3), total: entries * 3, byRole: {} as TokenCounts['byRole'], byKind: {} as TokenCounts['byKind'], cached: false };
}

describe('counts of a growing journal', () => {
  it('keeps only the newest counts of a conversation and counter as its journal grows', () => {
    const store = create<CountsSlice>()(createCountsSlice);
    for (let n = 1; n <= 50; n++) store.getState().putCounts(counts('live', `import-${n}`, 'o200k', n));
    store.getState().putCounts(counts('live', 'import-50', 'chars', 50));
    store.getState().putCounts(counts('other', 'i', 'o200k', 7));
    expect(Object.keys(store.getState().counts).sort()).toEqual([countsKey('live', 'import-50', 'chars'), countsKey('live', 'import-50', 'o200k'), countsKey('other', 'i', 'o200k')].sort());
  });

  it('counts of a shorter journal arriving late do not replace the newer ones', () => {
    const store = create<CountsSlice>()(createCountsSlice);
    store.getState().putCounts(counts('live', 'b', 'o200k', 9));
    store.getState().putCounts(counts('live', 'a', 'o200k', 8));
    expect(store.getState().counts[countsKey('live', 'b', 'o200k')]?.totals.length).toBe(9);
    expect(latestCounts(store.getState().counts, 'live', 'o200k')?.totals.length).toBe(9);
    expect(latestCounts(store.getState().counts, 'live', 'chars')).toBeUndefined();
  });
});
