/**
 * What a model run will send and cost, known before its first request: the same replays run once
 * with a stand-in summarizer that answers from the cache where it can and with the offline
 * summary otherwise, counting every request it would have sent (its prompt and system message in
 * the run's counter, its output at the request's cap, or the offline summary's size where the
 * strategy sets none), and the judge's questions counted by the page's own estimate. A cached
 * request costs nothing; a price the table does not know is "unknown price", never $0.
 */
import type { Summarizer, SummaryRequest, SummaryResponse } from '../core/compaction/summarizer.ts';
import { formatUsd, usageCost, type Price } from '../core/pricing.ts';
import type { JudgeEstimate } from '../core/replay/judge.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import type { TokenCounter } from '../core/tokens/counters.ts';
import type { RequestCache } from './model-cache.ts';

/** A run's estimate, by part (summaries, judge) and in total. */
export interface ModelEstimate {
  /** Requests to send (not in the cache). */
  requests: number;
  /** Requests the cache already answers. */
  cached: number;
  inputTokens: number;
  /** At most: the caps of the requests to send. */
  outputTokens: number;
  counter: string;
  /** USD; null when a model's price is unknown. */
  cost: number | null;
  /** Models without a price in the table. */
  unknownPrice: string[];
  parts: Array<{ part: 'summaries' | 'judge'; model: string; requests: number; cached: number; inputTokens: number; outputTokens: number; cost: number | null }>;
}

/** Counts the requests of one model (summaries, or the judge's) without sending any. */
export class EstimatePart {
  requests = 0;
  cached = 0;
  inputTokens = 0;
  outputTokens = 0;

  constructor(readonly part: 'summaries' | 'judge', readonly model: string, readonly price: Price | undefined) {}

  get cost(): number | null {
    return this.price ? usageCost({ input: this.inputTokens, output: this.outputTokens }, this.price) : null;
  }

  add(judge: JudgeEstimate): void {
    this.requests += judge.requests;
    this.cached += judge.cached * 2;
    this.inputTokens += judge.inputTokens;
    this.outputTokens += judge.outputTokens;
  }
}

/**
 * The stand-in for the model summarizer `identity` during the estimate: a cached reply where the
 * cache has one (so the replay goes where the real run will), else the offline summary, each
 * uncached request counted into `part`.
 */
export function estimatingSummarizer(part: EstimatePart, cache: RequestCache, identity: string, systemPromptId: string, systemPrompt: string, counter: TokenCounter): Summarizer {
  const offline = createOfflineSummarizer();
  return {
    id: 'estimate',
    label: `estimate for ${part.model}`,
    systemPrompt: systemPromptId,
    async summarize(request: SummaryRequest): Promise<SummaryResponse> {
      const hit = cache.get(cache.key(identity, request, systemPromptId));
      if (hit) {
        part.cached++;
        return hit;
      }
      const response = await offline.summarize(request);
      part.requests++;
      part.inputTokens += counter.count(systemPrompt) + counter.count(request.prompt);
      part.outputTokens += request.maxTokens ?? counter.count(response.text);
      return response;
    },
  };
}

export function totalEstimate(parts: readonly EstimatePart[], counter: string): ModelEstimate {
  const sum = (pick: (part: EstimatePart) => number) => parts.reduce((n, part) => n + pick(part), 0);
  return {
    requests: sum((p) => p.requests),
    cached: sum((p) => p.cached),
    inputTokens: sum((p) => p.inputTokens),
    outputTokens: sum((p) => p.outputTokens),
    counter,
    cost: parts.some((p) => p.cost === null && p.requests > 0) ? null : sum((p) => p.cost ?? 0),
    unknownPrice: [...new Set(parts.filter((p) => !p.price).map((p) => p.model))],
    parts: parts.map((p) => ({ part: p.part, model: p.model, requests: p.requests, cached: p.cached, inputTokens: p.inputTokens, outputTokens: p.outputTokens, cost: p.cost })),
  };
}

/** The estimate in a few lines, before anything is sent. */
export function formatEstimate(estimate: ModelEstimate): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const cost = (value: number | null) => (value === null ? 'unknown price' : formatUsd(value));
  const lines = [`Estimate: ${n(estimate.requests)} requests to send${estimate.cached > 0 ? ` (${n(estimate.cached)} more answered by the cache)` : ''}, ${n(estimate.inputTokens)} input tokens, at most ${n(estimate.outputTokens)} output tokens (${estimate.counter}), ${cost(estimate.cost)}.`];
  for (const part of estimate.parts) {
    lines.push(`  ${part.part.padEnd(9)} ${part.model}: ${n(part.requests)} requests, ${n(part.inputTokens)} in, at most ${n(part.outputTokens)} out, ${cost(part.cost)}`);
  }
  if (estimate.unknownPrice.length > 0) lines.push(`  No price in the table for ${estimate.unknownPrice.join(', ')}: a local model costs nothing but time; an API model's cost is not counted.`);
  return lines.join('\n');
}

/** Why the run is refused under `--max-cost`, or undefined when it may go. */
export function capRefusal(estimate: ModelEstimate, maxCost: number | undefined): string | undefined {
  if (maxCost === undefined || estimate.requests === 0) return undefined;
  if (estimate.cost === null) return `--max-cost ${formatUsd(maxCost)}: the price of ${estimate.unknownPrice.join(', ')} is unknown, so the cap cannot be checked; nothing was sent (drop --max-cost for a local model).`;
  if (estimate.cost > maxCost) return `--max-cost ${formatUsd(maxCost)}: the estimate is ${formatUsd(estimate.cost)}; nothing was sent.`;
  return undefined;
}
