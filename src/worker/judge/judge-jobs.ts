/**
 * The probes' judged mode in the worker: load a saved comparison and its journal, plan the
 * questions with what the cache already holds, estimate the cost before anything is sent, then
 * ask the model chosen in Settings (answers, then grades) and store the new answers and grades in
 * one transaction when the whole run succeeded. A failure or a cancel stores nothing.
 */
import { priceFor, usageCost } from '../../core/pricing.ts';
import { estimateJudge, planJudge, runJudge, aggregateGrades, judgeCancelled, type JudgePlan } from '../../core/replay/judge.ts';
import { getCounter, type CounterId } from '../../core/tokens/counters.ts';
import { loadEntries } from '../../db/conversations.ts';
import { judgementCache, storeJudgements } from '../../db/judgements.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import { DEFAULT_SUMMARIZERS, type SummarizerFactory } from '../compaction/compaction-jobs.ts';
import type { JudgeJobProgress, JudgeQuote, JudgeRequest, JudgeResult } from './judge-protocol.ts';
import { PROMPTS } from '../engine/prompts.ts';

/** Judging needs a model: the offline summarizer cannot answer questions. */
export class JudgeUnavailableError extends Error {
  override name = 'JudgeUnavailableError';
}

/** Progress is sent at most this often (ms), except when a question changes. */
const PROGRESS_INTERVAL_MS = 100;

export class JudgeJobs {
  constructor(
    private readonly db: FoldlabDatabase,
    private readonly summarizers: Readonly<Record<string, SummarizerFactory>> = DEFAULT_SUMMARIZERS,
  ) {}

  /** What a run would send and cost; nothing is sent. */
  async estimate(request: JudgeRequest): Promise<JudgeQuote> {
    const { plan, counterId } = await this.plan(request);
    const counter = await getCounter(counterId);
    const estimate = estimateJudge(plan, PROMPTS, counter, this.price(request));
    return {
      ...estimate,
      comparisonId: request.comparisonId,
      modelLabel: modelLabel(request),
      local: request.summarizer === 'webllm',
      clipped: plan.targets.filter((target) => target.clipped).map((target) => target.label),
      skipped: plan.skipped,
    };
  }

  async judge(request: JudgeRequest, signal: AbortSignal, onProgress: (progress: JudgeJobProgress) => void): Promise<JudgeResult> {
    const started = Date.now();
    const makeSummarizer = this.summarizers[request.summarizer];
    if (!makeSummarizer) throw new Error(`Unknown summarizer "${request.summarizer}".`);
    const { plan } = await this.plan(request);
    let last = 0;
    let lastKey = '';
    const run = await runJudge({
      plan, prompts: PROMPTS, signal,
      summarizer: makeSummarizer(request, () => undefined),
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      onProgress: (progress) => {
        const now = Date.now();
        const key = `${progress.config}:${progress.category}:${progress.phase}`;
        if (key === lastKey && now - last < PROGRESS_INTERVAL_MS && progress.done < progress.total) return;
        last = now;
        lastKey = key;
        onProgress({ ...progress, jobId: request.jobId });
      },
    });
    if (signal.aborted) throw judgeCancelled();
    await storeJudgements(this.db, run.rows);
    const price = this.price(request);
    return {
      comparisonId: request.comparisonId,
      modelLabel: modelLabel(request),
      models: run.models,
      items: run.items,
      grades: aggregateGrades(run.items),
      skipped: plan.skipped,
      requests: run.requests,
      usage: run.usage,
      cost: price === 'free' ? 0 : price ? usageCost(run.usage, price.price) : null,
      durationMs: Date.now() - started,
    };
  }

  private async plan(request: JudgeRequest): Promise<{ plan: JudgePlan; counterId: CounterId }> {
    if (request.summarizer === 'offline' || !request.summarizer) {
      throw new JudgeUnavailableError('The offline summarizer cannot judge: choose a remote or local model in Settings > Models.');
    }
    if (request.summarizer === 'remote' && !request.remote) throw new JudgeUnavailableError('Choose a remote provider in Settings > Models first.');
    if (request.summarizer === 'webllm' && !request.localModelId) throw new JudgeUnavailableError('Download and choose a local model in Settings > Models first.');
    const row = await this.db.comparisons.get(request.comparisonId);
    if (!row) throw new Error(`No saved comparison ${request.comparisonId}: it may have been deleted.`);
    const conversation = await this.db.conversations.get(row.conversationId);
    if (!conversation) throw new Error('The conversation of this comparison was deleted: there is no transcript to judge against.');
    const journal = await loadEntries(this.db, row.conversationId);
    const plan = await planJudge({
      results: row.result.results,
      byId: new Map(journal.map((entry) => [entry.id, entry])),
      model: modelKey(request),
      prompts: PROMPTS,
      cache: judgementCache(this.db),
      ...(request.dismissedProbes ? { dismissed: new Set(request.dismissedProbes) } : {}),
      ...(request.maxContextChars ? { maxContextChars: request.maxContextChars } : {}),
    });
    if (plan.items.length === 0) {
      throw new Error(plan.questions.length === 0
        ? 'Nothing to judge: no retention probe left any configuration\'s verbatim context (no compaction removed a fact).'
        : `Nothing to judge: ${plan.skipped.map((skip) => `${skip.label}: ${skip.reason}`).join('; ')}.`);
    }
    const counterId = request.counter ?? row.result.counter;
    return { plan, counterId: counterId === 'chars' ? 'chars4' : counterId };
  }

  private price(request: JudgeRequest) {
    if (request.summarizer === 'webllm') return 'free' as const;
    return request.remote ? priceFor(request.remote.model.trim()) : undefined;
  }
}

/** What identifies the model in the cache: provider, base URL and model name (never the key). */
export function modelKey(request: Pick<JudgeRequest, 'summarizer' | 'remote' | 'localModelId'>): string {
  if (request.summarizer === 'webllm') return `webllm|${request.localModelId ?? ''}`;
  const remote = request.remote;
  return remote ? `remote|${remote.api}|${remote.baseUrl.trim().replace(/\/+$/, '')}|${remote.model.trim()}` : request.summarizer;
}

function modelLabel(request: JudgeRequest): string {
  if (request.summarizer === 'webllm') return `the local model ${request.localModelId ?? ''}`;
  return request.remote ? `${request.remote.presetId} · ${request.remote.model}` : request.summarizer;
}
