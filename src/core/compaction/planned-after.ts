/**
 * The plan's "after" figure, true to the summarizer that will write the summaries. With the offline
 * summarizer (the default) the summaries are known before the run: the plan makes them with the
 * same function and the same request the run uses, and counts the context they assemble into, so
 * the plan says what the run will give. A model's summary is only known once written: the plan
 * then keeps the strategy's figure, summaries counted at their budget, and says it is an estimate.
 */
import { offlineSummaryText } from '../summarize/offline.ts';
import type { Options, Strategy } from './strategy.ts';
import { taskRequest } from './task-request.ts';
import type { CompactionInput, Plan, PlanAfterBasis } from './types.ts';

/** Who will write the plan's summaries: the offline summarizer, or a model (remote or local). */
export type PlanSummarizer = 'offline' | 'model';

/** The summarizer kind of a request ('offline', 'remote', 'webllm', ...) as the plan needs it. */
export function planSummarizerOf(kind: string | undefined): PlanSummarizer {
  return kind === undefined || kind === 'offline' ? 'offline' : 'model';
}

/** One sentence per basis, for the page and the CLI. */
export const PLAN_AFTER_NOTES: Readonly<Record<PlanAfterBasis, string>> = {
  counted: 'Counted: the plan makes no summary, so this is the context the run assembles.',
  offline: 'Counted with the offline summaries the run will write (the same summaries, made from the same entries).',
  budget: 'An estimate: each summary is counted at its budget, the most the model may write; the real figure is known once it has written them.',
};

/**
 * The strategy's plan with `tokensAfterEstimate` made true for `summarizer`, and `afterBasis` saying
 * how. Pure; costs one assembly, plus one offline summary per task (what the run pays again).
 */
export function planWithAfter<O extends Options>(strategy: Strategy<O>, input: CompactionInput, options: O, summarizer: PlanSummarizer): Plan {
  return sizePlanAfter(strategy, input, strategy.plan(input, options), options, summarizer);
}

/** `plan` with its after figure sized as `planWithAfter` does (for a plan already made). */
export function sizePlanAfter<O extends Options>(strategy: Strategy<O>, input: CompactionInput, plan: Plan, options: O, summarizer: PlanSummarizer): Plan {
  if (plan.summaries.length > 0 && summarizer === 'model') return { ...plan, afterBasis: 'budget' };
  const summaries = new Map(plan.summaries.map((task) => [task.id, offlineSummaryText(taskRequest(input, task))] as const));
  const context = strategy.assemble(input, plan, summaries, options);
  return { ...plan, tokensAfterEstimate: context.tokensAfter, afterBasis: plan.summaries.length > 0 ? 'offline' : 'counted' };
}
