/**
 * The project's own price table (USD per million tokens), dated, because gpt-tokenizer's bundled
 * prices are wrong for several models. Used to say what a context costs as one request's input.
 */

export interface Price {
  /** USD per 1M input tokens. */
  input: number;
  /** USD per 1M output tokens. */
  output: number;
  /** USD per 1M cached input tokens, when the provider discounts them. */
  cachedInput?: number;
}

/** When the prices below were last checked against the providers' public price pages. */
export const PRICES_AS_OF = '2025-12-01';

export const PRICES: Readonly<Record<string, Price>> = {
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
};

/** Window presets that stand for a family: the model whose price is shown for them. */
const PRESET_MODEL: Readonly<Record<string, string>> = {
  'claude-200k': 'claude-sonnet-4-5',
  'claude-1m': 'claude-sonnet-4-5',
};

/** The price for a model id or window preset id, with the model it is for; undefined when unknown. */
export function priceFor(id: string): { model: string; price: Price } | undefined {
  const model = PRESET_MODEL[id] ?? id;
  const price = PRICES[model];
  if (price) return { model, price };
  // Providers report dated snapshots (gpt-4o-mini-2024-07-18, claude-haiku-4-5-20251001).
  const undated = model.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
  const base = PRICES[undated];
  return base ? { model: undated, price: base } : undefined;
}

/** USD for a request's usage. */
export function usageCost(usage: { input: number; output: number }, price: Price): number {
  return (usage.input / 1_000_000) * price.input + (usage.output / 1_000_000) * price.output;
}

/** USD for `tokens` input tokens at `price`. */
export function inputCost(tokens: number, price: Price): number {
  return (tokens / 1_000_000) * price.input;
}

export function formatUsd(amount: number): string {
  if (amount === 0) return '$0';
  if (amount < 0.01) return `$${amount.toFixed(4)}`;
  return `$${amount.toFixed(2)}`;
}
