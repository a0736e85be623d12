import { describe, expect, it } from 'vitest';
import { formatUsd, inputCost, priceFor, PRICES_AS_OF, usageCost } from './pricing.ts';

describe('price table', () => {
  it('prices models and presets from our own dated table', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(priceFor('gpt-4o')?.price.input).toBe(2.5);
    expect(priceFor('claude-200k')?.model).toBe('claude-sonnet-4-5');
    expect(priceFor('unknown-model')).toBeUndefined();
    expect(priceFor('gpt-4o-mini-2024-07-18')?.model).toBe('gpt-4o-mini');
    expect(priceFor('claude-haiku-4-5-20251001')?.model).toBe('claude-haiku-4-5');
  });
  it('computes input cost per million tokens', () => {
    expect(inputCost(200_000, { input: 3, output: 15 })).toBeCloseTo(0.6);
    expect(formatUsd(0.6)).toBe('$0.60');
    expect(formatUsd(0.0012)).toBe('$0.0012');
    expect(usageCost({ input: 1_000_000, output: 100_000 }, { input: 3, output: 15 })).toBeCloseTo(4.5);
  });
});
