/**
 * Model summaries for the fold view, in the worker: makes the summarizer a fold request asks for
 * (the same factories as compaction) and applies `enrichRun` to the final run, keeping the model
 * digests per conversation so re-folding, a query or the replay asks the model only for new blocks.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { PromptLibrary } from '../core/compaction/prompts.ts';
import { enrichRun, type ModelDigestCache } from '../core/folding/model-enrich.ts';
import type { FoldRun } from '../core/folding/types.ts';
import type { Entry } from '../core/journal/entry.ts';
import type { TokenCounter } from '../core/tokens/counters.ts';
import type { RemoteConfig } from '../llm/remote.ts';
import { DEFAULT_SUMMARIZERS, type SummarizerFactory } from './compaction-jobs.ts';
import { PROMPTS } from './prompts.ts';

/** The summary fields of a fold request (FoldRequest extends this). */
export interface FoldSummaryRequest {
  /** Job id, to cancel the model summaries (and report their progress). */
  jobId?: string;
  /** 'offline' (default): extraction digests only; 'remote' / 'webllm': the model indexes every block at L2-L4. */
  summarizer?: 'offline' | 'remote' | 'webllm';
  /** The remote provider, key included: held in memory for this request only, never stored. */
  remote?: RemoteConfig;
  localModelId?: string;
  localAppConfig?: AppConfig;
  /** F10: ask the model what each summary misses and add it. Default false. */
  selfCheck?: boolean;
  /** Only model summaries made before are used; the model is not asked (the replay). Default false. */
  cachedOnly?: boolean;
}

/** The summary fields of a fold view (FoldView extends this). */
export interface FoldSummaryView {
  /** Blocks the model could not summarize and what was used instead; self-check results. */
  notes: string[];
  /** Model digests made by this fold, and reused from an earlier one. */
  modelSummaries: { made: number; reused: number };
}

export interface FoldSummaryProgress {
  done: number;
  total: number;
  tokensPerSecond?: number;
}

/** The model this request names, for the cache key (the summarizer's id completes it). */
function modelName(request: FoldSummaryRequest): string {
  return request.summarizer === 'remote' ? `${request.remote?.baseUrl ?? ''}|${request.remote?.model ?? ''}` : (request.localModelId ?? '');
}

export class FoldSummaries {
  /** Model digests per conversation key (the same key as the fold's extraction cache). */
  private readonly caches = new Map<string, ModelDigestCache>();

  constructor(
    private readonly factories: Readonly<Record<string, SummarizerFactory>> = DEFAULT_SUMMARIZERS,
    private readonly prompts: PromptLibrary = PROMPTS,
  ) {}

  /** The run with model digests when the request asks for a model, else the run as it is. */
  async apply(
    key: string,
    run: FoldRun,
    entries: readonly Entry[],
    request: FoldSummaryRequest,
    options: Record<string, unknown>,
    counter: TokenCounter,
    signal?: AbortSignal,
    onProgress?: (progress: FoldSummaryProgress) => void,
  ): Promise<FoldSummaryView & { run: FoldRun }> {
    const kind = request.summarizer ?? 'offline';
    if (kind === 'offline') return { run, notes: [], modelSummaries: { made: 0, reused: 0 } };
    const factory = this.factories[kind];
    if (!factory) throw new Error(`Unknown summarizer "${kind}": use offline, remote or webllm.`);
    let done = 0;
    let total = 0;
    const summarizer = factory(request, (_text, tokensPerSecond) => onProgress?.({ done, total, tokensPerSecond }));
    const cache = this.caches.get(key) ?? new Map();
    this.caches.set(key, cache);
    const result = await enrichRun(run, entries, summarizer, {
      prompts: this.prompts,
      counter,
      cache,
      model: modelName(request),
      options,
      selfCheck: request.selfCheck ?? false,
      cachedOnly: request.cachedOnly ?? false,
      ...(signal ? { signal } : {}),
      onProgress: (progress) => {
        done = progress.done;
        total = progress.total;
        onProgress?.(progress);
      },
    });
    return { run: result.run, notes: result.notes, modelSummaries: { made: result.made, reused: result.reused } };
  }
}
