// One key for token counts (conversation, import, counter): its string form tells any two keys
// apart, a stored row is current only for the import it was counted on, and Dexie reads and
// writes go through it.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { COUNTER_IDS } from '../core/tokens/counters.ts';
import { FoldlabDatabase, type TokenCountRow } from './schema.ts';
import { answeredCounts, cachedCounts, countsKey, isCurrent, keyOf, storeCounts, storedCounts, type CountsKey } from './token-counts.ts';

const key = fc.record({ conversationId: fc.string(), importId: fc.string(), counter: fc.constantFrom(...COUNTER_IDS) });

function row(conversationId: string, importId: string, totals: number[]): TokenCountRow {
  return {
    conversationId, importId, counter: 'o200k', totals: Uint32Array.from(totals), total: totals.reduce((a, b) => a + b, 0),
    byRole: {} as TokenCountRow['byRole'], byKind: {} as TokenCountRow['byKind'],
  };
}

let db: FoldlabDatabase | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe('the counts key', () => {
  it('gives two keys the same string only when they are the same key, whatever their ids hold', () => {
    fc.assert(fc.property(key, key, (a: CountsKey, b: CountsKey) => {
      const same = a.conversationId === b.conversationId && a.importId === b.importId && a.counter === b.counter;
      expect(keyOf(a) === keyOf(b)).toBe(same);
    }));
    // Ids holding the separator of a joined string stay apart.
    expect(countsKey('a|b', 'c', 'o200k')).not.toBe(countsKey('a', 'b|c', 'o200k'));
  });

  it('is current only for the same conversation, counter and import', () => {
    fc.assert(fc.property(key, key, (a: CountsKey, b: CountsKey) => {
      expect(isCurrent(a, b)).toBe(keyOf(a) === keyOf(b));
    }));
  });

  it('answers a row as it was stored, labelled with its counter', () => {
    const answered = answeredCounts(row('c', 'i', [1, 2]), { label: 'o200k_base', exact: true }, true);
    expect(answered).toMatchObject({ conversationId: 'c', importId: 'i', counter: 'o200k', total: 3, label: 'o200k_base', exact: true, cached: true });
    expect(keyOf(answered)).toBe(countsKey('c', 'i', 'o200k'));
  });
});

describe('stored counts', () => {
  it('are read back for the import they were counted on, not for another one', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    await storeCounts(db, row('c', 'import-1', [4, 5]));
    expect(Array.from((await cachedCounts(db, { conversationId: 'c', importId: 'import-1', counter: 'o200k' }))!.totals)).toEqual([4, 5]);
    expect(await cachedCounts(db, { conversationId: 'c', importId: 'import-2', counter: 'o200k' })).toBeUndefined();
    expect(await cachedCounts(db, { conversationId: 'c', importId: 'import-1', counter: 'cl100k' })).toBeUndefined();
    // Whatever the import, the row is there to extend (a live session's journal that grew).
    expect((await storedCounts(db, 'c', 'o200k'))?.importId).toBe('import-1');
  });

  it('of a later import replace the earlier ones', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    await storeCounts(db, row('c', 'import-1', [4, 5]));
    await storeCounts(db, row('c', 'import-2', [6]));
    expect(await cachedCounts(db, { conversationId: 'c', importId: 'import-1', counter: 'o200k' })).toBeUndefined();
    expect((await cachedCounts(db, { conversationId: 'c', importId: 'import-2', counter: 'o200k' }))?.total).toBe(6);
    expect(await db.tokenCounts.count()).toBe(1);
  });
});
