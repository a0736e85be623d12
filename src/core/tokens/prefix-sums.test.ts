import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenIndex } from './prefix-sums.ts';

const naive = (counts: readonly number[], i: number, j: number) => counts.slice(i, j + 1).reduce((a, b) => a + b, 0);
const u32 = fc.integer({ min: 0, max: 0xffffffff });

describe('TokenIndex', () => {
  it('range(i, j) equals the naive sum, for built and appended entries', () => {
    fc.assert(
      fc.property(
        fc.array(u32, { maxLength: 50 }),
        fc.array(u32, { maxLength: 80 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }),
        (initial, appended, pairs) => {
          const index = new TokenIndex(Uint32Array.from(initial));
          for (const count of appended) index.append(count);
          const all = [...initial, ...appended];
          expect(index.length).toBe(all.length);
          expect(index.total).toBe(naive(all, 0, all.length - 1));
          if (all.length === 0) return;
          for (const [a, b] of pairs) {
            const i = a % all.length;
            const j = i + (b % (all.length - i));
            expect(index.range(i, j)).toBe(naive(all, i, j));
          }
          all.forEach((count, k) => expect(index.countAt(k)).toBe(count));
        },
      ),
    );
  });

  it('stays right while interleaving appends and queries', () => {
    fc.assert(
      fc.property(fc.array(u32, { minLength: 1, maxLength: 300 }), (counts) => {
        const index = new TokenIndex();
        counts.forEach((count, k) => {
          index.append(count);
          expect(index.range(0, k)).toBe(index.total);
          expect(index.range(k, k)).toBe(count);
          expect(index.range(Math.floor(k / 2), k)).toBe(naive(counts, Math.floor(k / 2), k));
        });
      }),
    );
  });

  it('sums past 2^32 exactly', () => {
    const index = new TokenIndex(new Uint32Array(1000).fill(0xffffffff));
    expect(index.total).toBe(1000 * 0xffffffff);
    expect(index.range(10, 19)).toBe(10 * 0xffffffff);
  });

  it('treats range(i, i - 1) as empty', () => {
    const index = new TokenIndex([5, 6, 7]);
    expect(index.range(0, -1)).toBe(0);
    expect(index.range(3, 2)).toBe(0);
    expect(new TokenIndex().range(0, -1)).toBe(0);
    expect(new TokenIndex().total).toBe(0);
  });

  it('throws a RangeError for indices outside the entries', () => {
    const index = new TokenIndex([1, 2, 3]);
    expect(() => index.range(0, 3)).toThrow(RangeError);
    expect(() => index.range(0, 3)).toThrow('Token range 0..3 is outside the 3 counted entries');
    expect(() => index.range(-1, 1)).toThrow(RangeError);
    expect(() => index.range(2, 0)).toThrow(RangeError);
    expect(() => index.range(0.5, 1)).toThrow(RangeError);
    expect(() => index.range(4, 3)).toThrow(RangeError);
    expect(() => index.countAt(3)).toThrow('Entry index 3 is outside the 3 counted entries.');
    expect(() => index.countAt(-1)).toThrow(RangeError);
    expect(() => index.countAt(Number.NaN)).toThrow(RangeError);
  });

  it('refuses counts that are not non-negative integers', () => {
    const index = new TokenIndex();
    expect(() => index.append(-1)).toThrow(/Token count -1 at entry 0/);
    expect(() => index.append(1.5)).toThrow(RangeError);
    expect(() => index.append(Number.NaN)).toThrow(RangeError);
    expect(() => new TokenIndex([1, -2])).toThrow(/at entry 1/);
    expect(index.length).toBe(0);
  });
});
