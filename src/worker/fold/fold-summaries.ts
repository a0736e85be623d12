/**
 * Model summaries for the fold view, in the worker: makes the summarizer a fold request asks for
 * (the same factories as compaction) and applies `enrichRun` to the final run, keeping the model
 * digests per conversation so re-folding, a query or the replay asks the model only for new blocks.
 */
import type { PromptLibrary } from '../../core/compaction/prompts.ts';
import { foldSummaryProvenance } from '../../core/compaction/provenance.ts';
import { enrichRun, modelCacheKey, type ModelDigestCache } from '../../core/folding/model-enrich.ts';
import type { FoldedBlock, FoldRun, Level } from '../../core/folding/types.ts';
import type { Entry } from '../../core/journal/entry.ts';
import type { TokenCounter } from '../../core/tokens/counters.ts';
import type { FoldSummaryProgress, FoldSummaryRequest, FoldSummaryView } from './fold-protocol.ts';
import { DEFAULT_SUMMARIZERS, type SummarizerFactory } from '../compaction/compaction-jobs.ts';
import { PROMPTS } from '../engine/prompts.ts';
import { loadFoldSummaries, StoredDigestCache, storeFoldSummary } from '../../db/folds.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';

export type { FoldSummaryProgress, FoldSummaryRequest, FoldSummaryView } from './fold-protocol.ts';

/** Where model digests are stored so no reload asks (and pays) the model twice. */
export interface FoldSummaryStore {
  db: FoldlabDatabase;
  conversationId: string;
}

function walkBlocks(blocks: readonly FoldedBlock[], visit: (block: FoldedBlock) => void): void {
  for (const block of blocks) {
    visit(block);
    walkBlocks(block.children, visit);
  }
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

  /**
   * The digests of `key`: kept in memory, else read from the store, which then receives every new
   * one with its provenance as it is made.
   */
  private async cacheFor(key: string, store: FoldSummaryStore | undefined, run: FoldRun, model: string, selfCheck: boolean): Promise<ModelDigestCache> {
    const kept = this.caches.get(key);
    if (kept) return kept;
    if (!store) {
      const cache: ModelDigestCache = new Map();
      this.caches.set(key, cache);
      return cache;
    }
    const ranges = new Map<string, { from: number; to: number }>();
    walkBlocks(run.blocks, (block) => ranges.set(block.sourceHash, { from: block.from, to: block.to }));
    const cache = new StoredDigestCache(await loadFoldSummaries(store.db, store.conversationId), (cacheKey, entry) => {
      const [sourceHash = '', level = ''] = cacheKey.split('|');
      const range = ranges.get(sourceHash) ?? { from: -1, to: -1 };
      return storeFoldSummary(store.db, {
        conversationId: store.conversationId, key: cacheKey, createdAt: Date.now(), entry,
        provenance: foldSummaryProvenance(model, level, selfCheck, range, sourceHash),
      });
    });
    this.caches.set(key, cache);
    return cache;
  }

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
    store?: FoldSummaryStore,
  ): Promise<FoldSummaryView & { run: FoldRun; complete: boolean }> {
    const kind = request.summarizer ?? 'offline';
    if (kind === 'offline') return { run, notes: [], modelSummaries: { made: 0, reused: 0 }, complete: true };
    const factory = this.factories[kind];
    if (!factory) throw new Error(`Unknown summarizer "${kind}": use offline, remote or webllm.`);
    let done = 0;
    let total = 0;
    const summarizer = factory(request, (_text, tokensPerSecond) => onProgress?.({ done, total, tokensPerSecond }));
    const cache = await this.cacheFor(key, store, run, `${summarizer.id}:${modelName(request)}`, request.selfCheck ?? false);
    const flush = async () => {
      if (cache instanceof StoredDigestCache) await cache.flush();
    };
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
    }).catch(async (error: unknown) => {
      // The summaries made before a cancel or a failure are paid for: keep them.
      await flush().catch(() => undefined);
      throw error;
    });
    const notes = [...result.notes];
    await flush().catch((error: unknown) => notes.push(`The model summaries could not be stored (${error instanceof Error ? error.message : String(error)}); they will be asked for again after a reload.`));
    // Complete when every block at L2-L4 has its model digest (none failed or was skipped).
    let complete = true;
    walkBlocks(result.run.blocks, (block) => {
      if (block.level >= 2 && !cache.has(modelCacheKey(block.sourceHash, block.level as Level, summarizer.id, modelName(request), request.selfCheck ?? false))) complete = false;
    });
    return { run: result.run, notes, modelSummaries: { made: result.made, reused: result.reused }, complete };
  }
}
