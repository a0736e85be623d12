/**
 * The budget precheck (seed 004 B1): the input's tokens against the input budget, context window
 * minus the output reserve, as a decision with its numbers — and the rejection that the same
 * numbers give when trimming cannot help (B2 reuses it unchanged).
 */
import { OptionError } from '../../compaction/options.ts';
import type { CompactionInput, TriggerDecision } from '../../compaction/types.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';
import { formatNumber } from '../format-number.ts';

/** The seed's rejection code (its server answers HTTP 400 with it). */
export const BUDGET_REJECTION_CODE = 'context_length_exceeded';

export interface BudgetNumbers {
  /** Tokens of the whole input (`input.tokens.total`). */
  input: number;
  contextWindow: number;
  reservedOutputTokens: number;
  /** Tokens every request sends that the transcript does not hold (`input.unseenPrefixTokens`, 0 when not given). */
  unseenPrefixTokens: number;
  /** contextWindow - reservedOutputTokens - unseenPrefixTokens: the room for the transcript. */
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

function budgetDetail(n: BudgetNumbers): string {
  const unseen = n.unseenPrefixTokens > 0 ? ` - ${fmt(n.unseenPrefixTokens)} not in the transcript` : '';
  return `budget ${fmt(n.contextWindow)} - ${fmt(n.reservedOutputTokens)}${unseen} = ${fmt(n.budget)}`;
}

function overDetail(n: BudgetNumbers): string {
  return `input ${fmt(n.input)} > ${budgetDetail(n)}`;
}

/** The numbers of the precheck; refuses a reserve that leaves no input budget. */
export function budgetNumbers(input: CompactionInput, reservedOutputTokens: number): BudgetNumbers {
  const contextWindow = input.contextWindow;
  if (!Number.isFinite(contextWindow) || contextWindow <= 0) {
    throw new OptionError('contextWindow', `The context window must be a positive number of tokens; got ${contextWindow}.`);
  }
  const unseenPrefixTokens = unseenTokens(input);
  const budget = contextWindow - reservedOutputTokens - unseenPrefixTokens;
  if (budget <= 0 && unseenPrefixTokens > 0 && contextWindow - reservedOutputTokens > 0) {
    throw new OptionError(
      'reservedOutputTokens',
      `Option reservedOutputTokens (${fmt(reservedOutputTokens)} tokens) and the ${fmt(unseenPrefixTokens)} tokens every request sends outside the transcript (system prompt, tool definitions) leave no input budget in a context window of ${fmt(contextWindow)} tokens.`,
    );
  }
  if (budget <= 0) {
    throw new OptionError(
      'reservedOutputTokens',
      `Option reservedOutputTokens (${fmt(reservedOutputTokens)} tokens) leaves no input budget in a context window of ${fmt(contextWindow)} tokens; set it below ${fmt(contextWindow)}.`,
    );
  }
  return { input: input.tokens.total, contextWindow, reservedOutputTokens, unseenPrefixTokens, budget };
}

/** B1: fires (rejects the input as it is, which starts trimming) when input > budget. */
export function precheck(numbers: BudgetNumbers): TriggerDecision {
  const fire = numbers.input > numbers.budget;
  const detail = fire
    ? overDetail(numbers)
    : `input ${fmt(numbers.input)} <= ${budgetDetail(numbers)}`;
  return { fire, rule: 'input-budget', detail, numbers: { ...numbers } };
}
