import { describe, expect, it } from 'vitest';
import { insertionSequenceId, insertSequenceId, midpointSequenceId } from './sequence.ts';

describe('sequenceId interpolation (seed 000 §5.1.1)', () => {
  it('reproduces the §5.1.1 example: a summary inserted at position 3 of [0..4] gets 2.5', () => {
    const ids = [0, 1, 2, 3, 4];
    expect(insertionSequenceId(ids, 3)).toBe(2.5);
    expect(insertSequenceId(ids, 3)).toEqual([0, 1, 2, 2.5, 3, 4]);
  });

  it('rounds to 6 decimals and can insert again and again', () => {
    expect(midpointSequenceId(0, 1 / 3)).toBe(0.166667);
    let ids = [0, 1];
    for (let k = 0; k < 5; k++) ids = insertSequenceId(ids, 1);
    expect(ids).toEqual([0, 0.03125, 0.0625, 0.125, 0.25, 0.5, 1]);
    expect(midpointSequenceId(2, 2.000001)).toBe(Math.round(2.0000005 * 1e6) / 1e6);
  });

  it('position 0 interpolates from 0; appending takes the history length', () => {
    expect(insertionSequenceId([4, 5], 0)).toBe(2);
    expect(insertionSequenceId([0, 1, 2], 3)).toBe(3);
    expect(insertSequenceId([0, 1, 2], 7)).toEqual([0, 1, 2, 3]);
  });
});
