import { describe, expect, it } from 'vitest';
import { estimateSize, saveBatchEnds, SAVE_BATCH_ROWS } from './save-batches.ts';

/** Sizes of the batches `ends` cuts `items` into. */
function batchSizes(items: readonly unknown[], ends: readonly number[]): number[][] {
  let start = 0;
  return ends.map((end) => {
    const sizes = items.slice(start, end).map(estimateSize);
    start = end;
    return sizes;
  });
}

describe('estimateSize', () => {
  it('counts string lengths, keys included, and a constant per other value', () => {
    expect(estimateSize('abcd')).toBe(4);
    expect(estimateSize({ text: 'x'.repeat(100) })).toBe(8 + 4 + 100);
    expect(estimateSize([1, 'ab', null])).toBe(8 + 8 + 2 + 8);
    expect(estimateSize({ blocks: [{ type: 'text', text: 'x'.repeat(1000) }] })).toBeGreaterThan(1000);
  });
});

describe('saveBatchEnds', () => {
  it('puts each huge item in a batch of its own', () => {
    const huge = 'x'.repeat(600);
    const items = ['a', huge, huge, 'b', 'c', huge, 'd'];
    const ends = saveBatchEnds(items, { rows: 100, size: 1000 });
    for (const sizes of batchSizes(items, ends)) expect(sizes.filter((s) => s >= 600).length).toBeLessThanOrEqual(1);
    expect(ends.at(-1)).toBe(items.length);
  });

  it('groups many tiny items up to the row cap', () => {
    const items = Array.from({ length: 2500 }, () => 'tiny');
    expect(saveBatchEnds(items)).toEqual([SAVE_BATCH_ROWS, 2 * SAVE_BATCH_ROWS, 2500]);
  });

  it('closes a batch once its estimated size is reached, whatever the row count', () => {
    const items = Array.from({ length: 40 }, () => 'x'.repeat(100));
    const ends = saveBatchEnds(items, { rows: 1000, size: 1000 });
    expect(ends).toEqual([10, 20, 30, 40]);
  });

  it('ends strictly increasing at the item count; nothing for nothing', () => {
    const items = Array.from({ length: 333 }, (_, i) => 'y'.repeat((i * 7919) % 3000));
    const ends = saveBatchEnds(items, { rows: 50, size: 20_000 });
    expect(ends.at(-1)).toBe(333);
    for (let i = 1; i < ends.length; i++) expect(ends[i]!).toBeGreaterThan(ends[i - 1]!);
    expect(saveBatchEnds([])).toEqual([]);
  });
});
