// The tabs' keys follow the WAI-ARIA tabs pattern: arrows wrap, Home / End go to the ends, other keys do nothing.
import { describe, expect, it } from 'vitest';
import { tabKeyTarget } from './tab-keys.ts';

describe('tabKeyTarget', () => {
  it('moves with the arrows, wrapping at both ends', () => {
    expect(tabKeyTarget('ArrowRight', 0, 5)).toBe(1);
    expect(tabKeyTarget('ArrowRight', 4, 5)).toBe(0);
    expect(tabKeyTarget('ArrowLeft', 0, 5)).toBe(4);
    expect(tabKeyTarget('ArrowLeft', 3, 5)).toBe(2);
  });

  it('Home and End go to the first and the last tab; other keys and no tabs give nothing', () => {
    expect(tabKeyTarget('Home', 3, 5)).toBe(0);
    expect(tabKeyTarget('End', 1, 5)).toBe(4);
    expect(tabKeyTarget('Enter', 1, 5)).toBeUndefined();
    expect(tabKeyTarget('ArrowDown', 1, 5)).toBeUndefined();
    expect(tabKeyTarget('ArrowRight', 0, 0)).toBeUndefined();
  });
});
