/**
 * Replays and compares in the worker: load the stored journal and its cached counts, build one
 * summarizer for every configuration, and run the core's compare. Nothing is written to the
 * journal; `compareAndSave` saves the result here in the worker (src/db/comparisons.ts) and
 * answers with the saved row's id, so the result never crosses to the page and back.
 */
import { compactionCancelled } from '../../core/compaction/summarizer.ts';
import { compareConfigs } from '../../core/replay/compare.ts';
import { parseUnseenPrefix } from '../../core/replay/unseen-estimate.ts';
import { getCounter, type CounterId } from '../../core/tokens/counters.ts';
import * as Comlink from 'comlink';
import { saveComparison } from '../../db/comparisons.ts';
import { comparisonView, viewBuffers, type ComparisonView } from './compare-view.ts';
import { loadEntries } from '../../db/conversations.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import { DEFAULT_SUMMARIZERS, type SummarizerFactory } from '../compaction/compaction-jobs.ts';
import type { CompareProgress, CompareRequest, CompareResult, CompareSave } from './compare-protocol.ts';
import { MAX_COMPARE_CONFIGS } from '../../core/replay/config-options.ts';
import { PROMPTS } from '../engine/prompts.ts';
import { loadHookRunner } from '../../core/hooks/runner.ts';
import { browserHookWorker, type HookWorkerFactory } from '../sandbox/hook-worker.ts';

type CountTokens = (conversationId: string, counter: CounterId) => Promise<Uint32Array>;

/** Progress is sent at most this often (ms). */
const PROGRESS_INTERVAL_MS = 100;

export class CompareJobs {
  constructor(
    private readonly db: FoldlabDatabase,
    private readonly countTokens: CountTokens,
    private readonly summarizers: Readonly<Record<string, SummarizerFactory>> = DEFAULT_SUMMARIZERS,
    private readonly hookWorker: HookWorkerFactory = browserHookWorker,
  ) {}

  /**
   * Runs the compare and saves it from the worker (the secrets stripped as `saveComparison` does):
   * the page gets the id and the chart-ready view of the saved row (its series moved, not copied),
   * never the result of megabytes, and needs no second request to draw the chart.
   */
  async compareAndSave(request: CompareRequest, save: CompareSave, signal: AbortSignal, onProgress: (progress: CompareProgress) => void): Promise<{ id: string; view: ComparisonView }> {
    const result = await this.compare(request, signal, onProgress);
    if (signal.aborted) throw compactionCancelled();
    const row = await saveComparison(this.db, { conversationId: request.conversationId, importId: save.importId, name: save.name, request, result });
    const view = comparisonView(row);
    return Comlink.transfer({ id: row.id, view }, viewBuffers(view));
  }

  async compare(request: CompareRequest, signal: AbortSignal, onProgress: (progress: CompareProgress) => void): Promise<CompareResult> {
    const started = Date.now();
    if (request.configs.length === 0) throw new Error('Choose at least one configuration to replay.');
    if (request.configs.length > MAX_COMPARE_CONFIGS) throw new Error(`A compare holds at most ${MAX_COMPARE_CONFIGS} configurations; got ${request.configs.length}.`);
    const conversation = await this.db.conversations.get(request.conversationId);
    if (!conversation) throw new Error(`No conversation ${request.conversationId}: it may have been deleted.`);
    const makeSummarizer = this.summarizers[request.summarizer];
    if (!makeSummarizer) throw new Error(`Unknown summarizer "${request.summarizer}".`);
    const [journal, totals, counter] = await Promise.all([
      loadEntries(this.db, request.conversationId),
      this.countTokens(request.conversationId, request.counter),
      getCounter(request.counter),
    ]);
    const hookSource = request.configs.some((config) => config.hooks) ? request.hookSource?.trim() : undefined;
    const hooks = hookSource ? await loadHookRunner(() => this.hookWorker(hookSource), { signal, ...(request.hookTimeoutMs !== undefined ? { timeoutMs: request.hookTimeoutMs } : {}) }) : undefined;
    let last = 0;
    const output = await compareConfigs({
      journal, totals, counter, contextWindow: request.contextWindow, configs: request.configs,
      summarizer: makeSummarizer(request, () => undefined), prompts: PROMPTS,
      ...(request.leafId ? { leafId: request.leafId } : {}),
      ...(request.from ? { from: request.from } : {}),
      ...(request.priceModel ? { priceModel: request.priceModel } : {}),
      ...(request.dismissedProbes ? { dismissed: new Set(request.dismissedProbes) } : {}),
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(request.unseenPrefix?.trim() ? { unseenPrefix: parseUnseenPrefix(request.unseenPrefix), unseenPrefixUse: 'fallback' as const } : {}),
      ...(hooks ? { hooks } : {}),
      signal,
      onProgress: (config, progress) => {
        const now = Date.now();
        if (now - last < PROGRESS_INTERVAL_MS && progress.phase === 'replaying') return;
        last = now;
        onProgress({ ...progress, jobId: request.jobId, config, configs: request.configs.length });
      },
    });
    if (signal.aborted) throw compactionCancelled();
    return {
      conversationId: request.conversationId,
      ...(request.leafId ? { leafId: request.leafId } : {}),
      counter: request.counter,
      counterLabel: counter.label,
      contextWindow: request.contextWindow,
      ...(output.priceModel ? { priceModel: output.priceModel } : {}),
      entryIds: output.entryIds,
      scope: output.scope,
      results: output.results,
      recorded: output.recorded,
      uncompacted: output.uncompacted,
      unseenPrefix: output.unseenPrefix,
      durationMs: Date.now() - started,
    };
  }
}
