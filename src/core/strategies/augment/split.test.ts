import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitHistory } from './split.ts';

const size = (item: { size: number }) => item.size;

describe('splitHistory (Wtt, seed 000 §4.1-4.2)', () => {
  it('reproduces the §4.2 example: tail E8-E10 (2,400 chars), head E1-E7, total 10,800 >= 10,000', () => {
    // E8-E10 are 800 chars each (tail 800 -> 1,600 -> 2,400); E7 (800) would make 3,200 >= 3,000.
    // E1-E6 make up the rest of the example's 10,800 total.
    const sizes = [1200, 1200, 1200, 1200, 1400, 1400, 800, 800, 800, 800];
    const history = sizes.map((s, i) => ({ name: `E${i + 1}`, size: s }));
    const split = splitHistory(history, size, 3000, 10_000, 1);
    expect(split.head.map((e) => e.name)).toEqual(['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7']);
    expect(split.tail.map((e) => e.name)).toEqual(['E8', 'E9', 'E10']);
    expect(split.tailSize).toBe(2400);
    expect(split.headSize).toBe(8400);
    expect(split.totalSize).toBe(10_800);
  });

  it('summarizes nothing when the whole history is under the threshold', () => {
    const history = [5000, 3000, 2999].map((s) => ({ size: s }));
    const split = splitHistory(history, size, 1000, 11_000, 1);
    expect(split.head).toEqual([]);
    expect(split.tail).toEqual(history);
    expect(split.tailSize).toBe(10_999);
  });

  it('keeps minTailExchanges even when the newest exchange alone passes the tail size', () => {
    const history = [100, 200, 50_000].map((s) => ({ size: s }));
    const split = splitHistory(history, size, 1000, 0, 1);
    expect(split.tail).toEqual([history[2]]);
    expect(split.head).toEqual([history[0], history[1]]);
    const two = splitHistory(history, size, 1000, 0, 2);
    expect(two.tail).toEqual([history[1], history[2]]);
  });

  it('tail limit is strict: cumulative size must stay below it', () => {
    const history = [500, 500].map((s) => ({ size: s }));
    expect(splitHistory(history, size, 1000, 0, 0).tail).toEqual([history[1]]);
    expect(splitHistory(history, size, 1001, 0, 0).tail).toEqual(history);
  });

  it('head is always an older prefix and tail a newer suffix, sizes add up', () => {
    fc.assert(fc.property(
      fc.array(fc.nat(5000), { maxLength: 40 }), fc.nat(20_000), fc.nat(60_000), fc.nat(4),
      (sizes, tailLimit, threshold, minTail) => {
        const history = sizes.map((s, i) => ({ i, size: s }));
        const split = splitHistory(history, size, tailLimit, threshold, minTail);
        expect([...split.head, ...split.tail]).toEqual(history);
        expect(split.headSize + split.tailSize).toBe(split.totalSize);
        if (split.head.length > 0) {
          expect(split.totalSize).toBeGreaterThanOrEqual(threshold);
          expect(split.tailSize < tailLimit || split.tail.length <= minTail).toBe(true);
        }
      },
    ));
  });
});
