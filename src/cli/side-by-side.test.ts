import { describe, expect, it } from 'vitest';
import { sideBySide } from './side-by-side.ts';

describe('sideBySide', () => {
  it('keeps at most n pending and returns the results in order', async () => {
    let pending = 0;
    let most = 0;
    const release: Array<() => void> = [];
    const run = sideBySide([1, 2, 3, 4, 5], 2, async (n) => {
      pending++;
      most = Math.max(most, pending);
      await new Promise<void>((resolve) => release.push(resolve));
      pending--;
      return n * 10;
    });
    while (release.length > 0 || pending > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      release.pop()?.(); // the latest first: results still come back in the items' order
    }
    expect(await run).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
  });

  it('handles no items', async () => {
    expect(await sideBySide([], 3, () => Promise.resolve(1))).toEqual([]);
  });
});
