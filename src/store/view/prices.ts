/**
 * What a call costs, for the page: the price table with its date, a model's price, the cost of a
 * usage and the dollar format. One set of functions for the page and the CLI (core/pricing.ts).
 */
export { formatUsd, inputCost, priceFor, PRICES, PRICES_AS_OF, usageCost, type Price } from '../../core/pricing.ts';
