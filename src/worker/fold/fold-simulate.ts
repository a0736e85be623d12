/**
 * Simulate (F13) in the worker: replays the folding of a stored conversation's branch as a fold
 * request describes it (position, options, recalls), then asks `simulateFold` what folding a range
 * of it into one block would save, with the summarizer the request names. Nothing is stored and no
 * fold session or summary cache of the fold view is touched: the simulation folds on its own.
 */
import type { PromptLibrary } from '../../core/compaction/prompts.ts';
import { simulateFold } from '../../core/folding/simulate.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import { DEFAULT_SUMMARIZERS, type SummarizerFactory } from '../compaction/compaction-jobs.ts';
import type { FoldSimulateRequest, FoldSimulateView, FoldSummaryProgress } from './fold-protocol.ts';
import { conversationOf, loadFoldInput, type CountTokens } from './fold-input.ts';
import { FoldSessions } from './fold-sessions.ts';
import { PROMPTS } from '../engine/prompts.ts';

export class FoldSimulations {
  constructor(
    private readonly db: FoldlabDatabase,
    private readonly countTokens: CountTokens,
    private readonly factories: Readonly<Record<string, SummarizerFactory>> = DEFAULT_SUMMARIZERS,
    private readonly prompts: PromptLibrary = PROMPTS,
  ) {}

  /**
   * The simulation of `request.range` (iterations of the branch as of `upToIteration`). Progress:
   * 0 of 1 when the summarizer starts (with its tok/s while a model streams), 1 of 1 when done.
   */
  async simulate(request: FoldSimulateRequest, signal?: AbortSignal, onProgress?: (progress: FoldSummaryProgress) => void): Promise<FoldSimulateView> {
    await conversationOf(this.db, request.conversationId);
    const { all, upTo, entries, counts, counter } = await loadFoldInput(this.db, this.countTokens, request);
    const raw = { contextWindow: request.contextWindow, ...request.options };
    const { session } = new FoldSessions().advance('simulate', all, counts, upTo + 1, request.recalls ?? [], raw, new Map(), counter);
    const run = session.snapshot();
    const kind = request.summarizer ?? 'offline';
    let summarizer;
    if (kind !== 'offline') {
      const factory = this.factories[kind];
      if (!factory) throw new Error(`Unknown summarizer "${kind}": use offline, remote or webllm.`);
      summarizer = factory(request, (_text, tokensPerSecond) => onProgress?.({ done: 0, total: 1, tokensPerSecond }));
    }
    onProgress?.({ done: 0, total: 1 });
    const simulation = await simulateFold(run, entries, counts.slice(0, entries.length), {
      from: request.range.from,
      to: request.range.to,
      level: request.level ?? 2,
      counter,
      ...(summarizer ? { summarizer, prompts: this.prompts } : {}),
      ...(signal ? { signal } : {}),
    });
    onProgress?.({ done: 1, total: 1 });
    return simulation;
  }
}
