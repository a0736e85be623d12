import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from './format-number.ts';

describe('formatNumber', () => {
  it('writes what toLocaleString("en-US") writes', () => {
    const n = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constantFrom(0, -0, 999, 1000, -1000, 123456789, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, Infinity, NaN));
    fc.assert(fc.property(n, (x) => {
      expect(formatNumber(x)).toBe(x.toLocaleString('en-US'));
    }), { numRuns: 2000, seed: 20261126 });
  });
});
