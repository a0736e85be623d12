/**
 * The budget precheck (seed 004 B1): the input's tokens against the input budget, context window
 * minus the output reserve, as a decision with its numbers — and the rejection that the same
 * numbers give when trimming cannot help (B2 reuses it unchanged).
 */
import { OptionError } from '../../compaction/options.ts';
import type { CompactionInput, TriggerDecision } from '../../compaction/types.ts';
import { formatNumber } from '../format-number.ts';

/** The seed's rejection code (its server answers HTTP 400 with it). */
export const BUDGET_REJECTION_CODE = 'context_length_exceeded';

export interface BudgetNumbers {
  /** Tokens of the whole input (`input.tokens.total`). */
  input: number;
  contextWindow: number;
  reservedOutputTokens: number;
  /** contextWindow - reservedOutputTokens. */
  budget: number;
}

/** The input is over its budget and trimming could not bring it under: the precheck's own rejection. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
  readonly code = BUDGET_REJECTION_CODE;
  constructor(readonly numbers: BudgetNumbers) {
    super(`${BUDGET_REJECTION_CODE}: ${overDetail(numbers)}`);
  }
}

export function fmt(n: number): string {
  return formatNumber(n);
}

function overDetail(n: BudgetNumbers): string {
  return `input ${fmt(n.input)} > budget ${fmt(n.contextWindow)} - ${fmt(n.reservedOutputTokens)} = ${fmt(n.budget)}`;
}

/** The numbers of the precheck; refuses a reserve that leaves no input budget. */
export function budgetNumbers(input: CompactionInput, reservedOutputTokens: number): BudgetNumbers {
  const contextWindow = input.contextWindow;
  if (!Number.isFinite(contextWindow) || contextWindow <= 0) {
    throw new OptionError('contextWindow', `The context window must be a positive number of tokens; got ${contextWindow}.`);
  }
  const budget = contextWindow - reservedOutputTokens;
  if (budget <= 0) {
    throw new OptionError(
      'reservedOutputTokens',
      `Option reservedOutputTokens (${fmt(reservedOutputTokens)} tokens) leaves no input budget in a context window of ${fmt(contextWindow)} tokens; set it below ${fmt(contextWindow)}.`,
    );
  }
  return { input: input.tokens.total, contextWindow, reservedOutputTokens, budget };
}

/** B1: fires (rejects the input as it is, which starts trimming) when input > budget. */
export function precheck(numbers: BudgetNumbers): TriggerDecision {
  const fire = numbers.input > numbers.budget;
  const detail = fire
    ? overDetail(numbers)
    : `input ${fmt(numbers.input)} <= budget ${fmt(numbers.contextWindow)} - ${fmt(numbers.reservedOutputTokens)} = ${fmt(numbers.budget)}`;
  return { fire, rule: 'input-budget', detail, numbers: { ...numbers } };
}
