/**
 * The engine the worker serves: streaming import into the journal, token counting with caching,
 * inspection. Kept free of Comlink and `self` so the same code runs in Node tests on fake-indexeddb.
 */
import { generateSession, type DemoLanguage } from '../../core/demo/generate-session.ts';
import { ImportSession, importText } from '../../core/import/run.ts';
import type { ImportResult } from '../../core/import/types.ts';
import { withSubagentMeta } from '../../core/import/subagent-meta.ts';
import { withKimiFolder } from '../../core/import/kimi-folder.ts';
import { withKimiCodeAgent } from '../../core/import/kimi-code-folder.ts';
import { withKimiCodeCaller } from '../import/kimi-code-caller.ts';
import { withDroidSettings } from '../../core/import/droid-settings.ts';
import { withDroidTaskCall } from '../../core/import/droid-task-call.ts';
import { withCopilotWorkspace } from '../../core/import/copilot-workspace.ts';
import { existingThreadId, threadFileName } from '../import/import-threads.ts';
import { inspect, type InspectReport, type TokenSummary } from '../../core/inspect.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { COUNTER_LABELS, getCounter, type CounterId } from '../../core/tokens/counters.ts';
import { countEntriesSliced } from '../../core/tokens/sliced-count.ts';
import type { EntriesTokens } from '../../core/tokens/entry-tokens.ts';
import { commitImport, deleteConversation, loadEntries } from '../../db/conversations.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import { answeredCounts, cachedCounts, storeCounts } from '../../db/token-counts.ts';
import type { CompactionRow } from '../../db/schema.ts';
import { CompactionJobs, localModelState, sharedLocalModel } from '../compaction/compaction-jobs.ts';
import type { SharedModelSource } from '../../llm/webllm/webllm-shared.ts';
import { LocalModelPorts } from './local-model-ports.ts';
import { setPageOnline } from '../../llm/remote/network.ts';
import { ResumableCompactions } from '../compaction/resumable-compaction.ts';
import { ResumableFolds } from '../fold/resumable-fold.ts';
import { CompareJobs } from '../compare/compare-jobs.ts';
import { ComparisonReads } from '../compare/compare-reads.ts';
import type { CompactionDetailView, ComparisonSummary, ComparisonView } from '../compare/compare-view.ts';
import type { ContextRef } from '../../core/replay/types.ts';
import { POOL_WARM_BYTES, type CountPool } from '../count-pool/count-pool.ts';
import type { CompareProgress, CompareRequest, CompareResult, CompareSave } from '../compare/compare-protocol.ts';
import { FoldJobs, type FoldRequest, type FoldView } from '../fold/fold-jobs.ts';
import type { FoldSimulateRequest, FoldSimulateView } from '../fold/fold-protocol.ts';
import { FoldSimulations } from '../fold/fold-simulate.ts';
import { extendCounts, grownJournal } from '../import/grown-counts.ts';
import { JudgeJobs } from '../judge/judge-jobs.ts';
import type { JudgeJobProgress, JudgeQuote, JudgeRequest, JudgeResult } from '../judge/judge-protocol.ts';
import {
  jobCancelled, SavedBeforeCancelError, type CompactRequest, type EngineApi, type PlanPreview, type ImportOutcome, type ImportRequest, type ProgressCallback, type TokenCounts,
} from './protocol.ts';
import { isCancelled } from '../../core/cancel.ts';

/** Progress is reported at most this often (ms), so the page is not flooded with messages. */
const PROGRESS_INTERVAL_MS = 50;
/** Reading gives the event loop a turn at least this often, so a Cancel is seen. Default 25. Unit: ms. */
const READ_TURN_MS = 25;

export interface EngineOptions {
  /** Counts large journals on several cores (count-pool.ts); without it, or below its threshold, counting stays in this worker. */
  countPool?: CountPool;
  /** The local model live sessions reach through a port; default this worker's WebLLM summarizer (compaction-jobs.ts). */
  localModel?: SharedModelSource;
}

export class Engine implements EngineApi {
  private readonly jobs = new Map<string, AbortController>();
  private readonly compactions: CompactionJobs;
  /** Compactions under the conversation's Web Lock, model ones as resumable job records. */
  private readonly resumable: ResumableCompactions<Parameters<CompactionJobs['compact']>[2]>;
  private readonly folds: FoldJobs;
  /** Folds that ask a model for summaries, as resumable job records. */
  private readonly recordedFolds: ResumableFolds;
  private readonly simulations: FoldSimulations;
  private readonly comparisons: CompareJobs;
  private readonly comparisonReads: ComparisonReads;
  private readonly judgements: JudgeJobs;

  private readonly countPool: CountPool | undefined;
  /** Live sessions' ports to the local model, until each is released. */
  readonly localModelPorts: LocalModelPorts;

  constructor(private readonly db: FoldlabDatabase, options: EngineOptions = {}) {
    this.countPool = options.countPool;
    this.localModelPorts = new LocalModelPorts(options.localModel ?? sharedLocalModel);
    const totals = async (conversationId: string, counter: CounterId) =>
      (await this.countTokens(`count-${conversationId}-${counter}`, conversationId, counter, () => undefined)).totals;
    this.compactions = new CompactionJobs(db, totals);
    this.resumable = new ResumableCompactions(db, (request, signal, onProgress) => this.compactions.compact(request, signal, onProgress));
    this.folds = new FoldJobs(db, totals);
    this.recordedFolds = new ResumableFolds(db);
    this.simulations = new FoldSimulations(db, totals);
    this.comparisons = new CompareJobs(db, totals);
    this.comparisonReads = new ComparisonReads(db);
    this.judgements = new JudgeJobs(db);
  }

  /** Replays the configurations on one conversation (a compare of two to eight, or one replay). */
  compare(request: CompareRequest, onProgress: (progress: CompareProgress) => void): Promise<CompareResult> {
    return this.job(request.jobId, (signal) => this.comparisons.compare(request, signal, onProgress));
  }

  /** The same, saved in the worker: the page receives the saved comparison's id. */
  compareAndSave(request: CompareRequest, save: CompareSave, onProgress: (progress: CompareProgress) => void): Promise<{ id: string; view: ComparisonView }> {
    return this.job(request.jobId, (signal) => this.comparisons.compareAndSave(request, save, signal, onProgress));
  }

  listComparisons(conversationId: string): Promise<ComparisonSummary[]> {
    return this.comparisonReads.list(conversationId);
  }

  openComparison(id: string): Promise<ComparisonView | undefined> {
    return this.comparisonReads.open(id);
  }

  comparisonCompaction(id: string, config: number, index: number): Promise<CompactionDetailView | undefined> {
    return this.comparisonReads.compaction(id, config, index);
  }

  comparisonCallContext(id: string, config: number, call: number): Promise<ContextRef[]> {
    return this.comparisonReads.callContext(id, config, call);
  }

  /** What judging a saved comparison would send and cost; nothing is sent. */
  estimateJudge(request: JudgeRequest): Promise<JudgeQuote> {
    return this.judgements.estimate(request);
  }

  /** Judges a saved comparison's final contexts with a model (answers and grades, cached). */
  judge(request: JudgeRequest, onProgress: (progress: JudgeJobProgress) => void): Promise<JudgeResult> {
    return this.job(request.jobId, (signal) => this.judgements.judge(request, signal, onProgress));
  }

  /** With a job id the model summaries can be cancelled and report their progress (unit: blocks, as 'summaries'). */
  fold(request: FoldRequest, onProgress?: ProgressCallback): Promise<FoldView> {
    const jobId = request.jobId;
    if (!jobId) return this.folds.fold(request);
    return this.job(jobId, (signal) =>
      this.recordedFolds.run(request, signal, (effective) =>
        this.folds.fold(effective, signal, (progress) =>
          onProgress?.({ jobId, phase: 'summarizing', done: progress.done, total: progress.total, unit: 'summaries', ...(progress.tokensPerSecond !== undefined ? { tokensPerSecond: progress.tokensPerSecond } : {}) }),
        ),
      ),
    );
  }

  /** F13: what folding a range would save; with a job id it can be cancelled and reports progress (unit: summaries). */
  simulateFold(request: FoldSimulateRequest, onProgress?: ProgressCallback): Promise<FoldSimulateView> {
    const jobId = request.jobId ?? `simulate-${request.conversationId}`;
    return this.job(jobId, (signal) =>
      this.simulations.simulate(request, signal, (progress) =>
        onProgress?.({ jobId, phase: 'summarizing', done: progress.done, total: progress.total, unit: 'summaries', ...(progress.tokensPerSecond !== undefined ? { tokensPerSecond: progress.tokensPerSecond } : {}) }),
      ),
    );
  }

  planCompaction(request: CompactRequest): Promise<PlanPreview> {
    return this.compactions.plan(request);
  }

  compact(request: CompactRequest, onProgress: ProgressCallback): Promise<CompactionRow> {
    return this.job(request.jobId, (signal) =>
      this.resumable.run(
        request,
        signal,
        (progress) =>
          onProgress({
            jobId: request.jobId, phase: progress.phase, done: progress.done, total: progress.total, unit: 'summaries',
            ...(progress.partial !== undefined ? { partial: progress.partial.slice(-2000) } : {}),
            ...(progress.tokensPerSecond !== undefined ? { tokensPerSecond: progress.tokensPerSecond } : {}),
            ...(progress.wait ? { wait: progress.wait } : {}),
          }),
        () => onProgress({ jobId: request.jobId, phase: 'waiting', done: 0, total: 1, unit: 'summaries' }),
      ),
    );
  }

  cancel(jobId: string): void {
    this.jobs.get(jobId)?.abort();
  }

  serveLocalModel(port: MessagePort, key?: string): void {
    this.localModelPorts.serve(port, key);
  }

  releaseLocalModelPorts(keys: string[]): Promise<void> {
    return this.localModelPorts.releaseKeys(keys);
  }

  async localModel(): Promise<{ modelId: string; state: 'idle' | 'loading' | 'ready' } | undefined> {
    return localModelState();
  }

  setOnline(online: boolean): void {
    setPageOnline(online);
  }

  async importBlob(blob: Blob, request: ImportRequest, onProgress: ProgressCallback): Promise<ImportOutcome> {
    return this.job(request.jobId, async (signal) => {
      const session = new ImportSession({ fileName: request.fileName, size: blob.size, ...(request.format ? { format: request.format } : {}) });
      // A file this large is likely counted by the pool: its workers load their tables while it is read.
      if (blob.size >= POOL_WARM_BYTES) this.countPool?.warm('o200k');
      const reader = blob.stream().getReader();
      const report = throttle(onProgress);
      try {
        let turn = performance.now();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (signal.aborted) throw jobCancelled();
          session.push(value);
          report({ jobId: request.jobId, phase: 'reading', done: session.bytes, total: blob.size, unit: 'bytes' });
          // Chunks already read resolve without leaving the microtask queue: give the event loop a
          // turn now and then, or a Cancel (a message, a task of its own) waits for the whole file.
          if (performance.now() - turn >= READ_TURN_MS) {
            await yieldToEventLoop();
            turn = performance.now();
          }
        }
      } finally {
        reader.releaseLock();
      }
      const imported = session.finish();
      const described = request.subagentMeta ? withSubagentMeta(imported, request.subagentMeta) : imported;
      const inKimiFolder = request.kimiFolder ? withKimiFolder(described, request.kimiFolder) : described;
      const inKimiCode = request.kimiCodeAgent && inKimiFolder.format === 'kimi-code' ? withKimiCodeAgent(inKimiFolder, request.kimiCodeAgent) : inKimiFolder;
      const inFolder = request.kimiCodeParents && inKimiCode.format === 'kimi-code' ? await withKimiCodeCaller(inKimiCode, request.kimiCodeParents) : inKimiCode;
      const settings = inFolder.format === 'droid' ? request.droidSettings : undefined;
      const withSettings = settings ? withDroidSettings(inFolder, settings.settings, settings.fileName) : inFolder;
      const withCall = request.droidTaskCall && withSettings.format === 'droid' ? withDroidTaskCall(withSettings, request.droidTaskCall) : withSettings;
      const result = request.copilotWorkspace && withCall.format === 'copilot-cli' ? withCopilotWorkspace(withCall, request.copilotWorkspace) : withCall;
      const outcome = await this.commit(result, request, blob.size, signal, onProgress);
      // Subagents written inline (older Claude Code) are saved as conversations of their own.
      // A Cancel after the session was saved stops here and keeps what was saved.
      const { jobId, origin, format } = request;
      for (const thread of result.threads ?? []) {
        if (signal.aborted) break;
        const fileName = threadFileName(request.fileName, thread);
        const replaceId = await existingThreadId(this.db, fileName, thread);
        await this.commit(thread, { jobId, origin, fileName, ...(format ? { format } : {}), ...(replaceId ? { replaceId } : {}) }, 0, signal, onProgress)
          .catch((error: unknown) => {
            if (!signal.aborted) throw error;
          });
      }
      return outcome;
    });
  }

  async importDemo(request: ImportRequest & { iterations?: number; seed?: number; language?: DemoLanguage }, onProgress: ProgressCallback): Promise<ImportOutcome> {
    return this.job(request.jobId, async (signal) => {
      onProgress({ jobId: request.jobId, phase: 'generating', done: 0, total: 1, unit: 'entries' });
      const text = generateSession({ iterations: request.iterations ?? 300, seed: request.seed ?? 1, language: request.language ?? 'english' });
      const result = importText(text, { fileName: request.fileName, format: 'claude-code' });
      return this.commit(result, request, text.length, signal, onProgress);
    });
  }

  async countTokens(jobId: string, conversationId: string, counterId: CounterId, onProgress: ProgressCallback): Promise<TokenCounts> {
    return this.job(jobId, async (signal) => {
      const conversation = await this.db.conversations.get(conversationId);
      if (!conversation) throw new Error(`No conversation ${conversationId}: it may have been deleted.`);
      const counter = await getCounter(counterId);
      const hit = await cachedCounts(this.db, { conversationId, importId: conversation.importId, counter: counterId });
      if (hit) return answeredCounts(hit, counter, true);
      // A live session's journal grew since it was last counted: only its new entries are counted.
      const grown = await grownJournal(this.db, conversation, counterId);
      const entries = grown?.entries ?? await loadEntries(this.db, conversationId);
      const counted = await this.countInSlices(entries, counterId, jobId, signal, onProgress);
      const counts = grown ? extendCounts(grown.earlier, counted) : counted;
      const row = { conversationId, counter: counterId, importId: conversation.importId, ...counts };
      // The conversation may have been re-imported or deleted meanwhile: store only if still current.
      const current = await this.db.conversations.get(conversationId);
      if (current?.importId === conversation.importId) await storeCounts(this.db, row);
      return answeredCounts(row, counter, false);
    });
  }

  async inspect(conversationId: string, counterId: CounterId): Promise<InspectReport> {
    const conversation = await this.db.conversations.get(conversationId);
    if (!conversation) throw new Error(`No conversation ${conversationId}: it may have been deleted.`);
    const entries = await loadEntries(this.db, conversationId);
    const counts = await this.countTokens(`inspect-${conversationId}-${counterId}`, conversationId, counterId, () => undefined);
    return inspect(
      {
        format: conversation.format, entries, issues: conversation.issues, meta: conversation.meta, lines: conversation.lines, ignoredLines: conversation.ignoredLines,
        issueCount: conversation.issueCount ?? conversation.issues.length, blankLines: conversation.blankLines ?? 0,
      },
      summaryOf(counts),
    );
  }

  /**
   * Counts the import (o200k) before anything is written, so a failure or a cancel while counting
   * leaves the library untouched; then writes it in one transaction, which a cancel abandons
   * between two batches of rows. A cancel that arrives as the transaction commits removes a new
   * conversation again; a re-import already saved is kept and said so.
   */
  private async commit(result: ImportResult, request: ImportRequest, size: number, signal: AbortSignal, onProgress: ProgressCallback): Promise<ImportOutcome> {
    if (signal.aborted) throw jobCancelled();
    const counted = await this.countInSlices(result.entries, 'o200k', request.jobId, signal, onProgress);
    if (signal.aborted) throw jobCancelled();
    onProgress({ jobId: request.jobId, phase: 'saving', done: 0, total: result.entries.length, unit: 'entries' });
    // A Cancel while the entries are written abandons the transaction: nothing was stored. One
    // report per batch, batches cut by rows and size (save-batches.ts), some 50 ms of writing each.
    const conversation = await commitImport(this.db, result, {
      fileName: request.fileName,
      size,
      origin: request.origin,
      ...(request.replaceId ? { replaceId: request.replaceId } : {}),
      ...(request.title ? { title: request.title } : {}),
      signal,
      onSaved: (saved) => onProgress({ jobId: request.jobId, phase: 'saving', done: saved, total: result.entries.length, unit: 'entries' }),
    }).catch((error: unknown) => {
      throw isCancelled(error) || signal.aborted ? jobCancelled() : error;
    });
    // The Cancel came while the transaction committed: what it wrote is undone where it can be.
    if (signal.aborted) {
      if (request.replaceId) throw new SavedBeforeCancelError(`Cancel arrived after "${request.fileName}" was saved: the conversation now holds the new import (${result.entries.length} entries).`);
      await deleteConversation(this.db, conversation.id);
      throw jobCancelled();
    }
    onProgress({ jobId: request.jobId, phase: 'saving', done: result.entries.length, total: result.entries.length, unit: 'entries' });
    const counts = { conversationId: conversation.id, counter: 'o200k' as const, importId: conversation.importId, ...counted };
    // Only a cache: if it cannot be written, the counts are made again when asked for.
    await storeCounts(this.db, counts).catch(() => undefined);
    const answered = answeredCounts(counts, await getCounter('o200k'), false);
    return { conversation, report: inspect(result, summaryOf(answered)), counts: answered };
  }

  /**
   * Counts on the pool when it takes the journal (large, exact counter), else here in slices of bounded
   * work, yielding between them so cancel messages and progress get through. Same figures either way.
   */
  private async countInSlices(entries: Entry[], counterId: CounterId, jobId: string, signal: AbortSignal, onProgress: ProgressCallback) {
    const counter = await getCounter(counterId);
    const report = throttle(onProgress);
    const finished = (counts: EntriesTokens) => {
      let total = 0;
      for (const value of counts.totals) total += value;
      report({ jobId, phase: 'counting', done: entries.length, total: entries.length, unit: 'entries' });
      return { ...counts, total };
    };
    const work = this.countPool?.prepare(entries, counter);
    if (work !== undefined && this.countPool !== undefined) {
      report({ jobId, phase: 'counting', done: 0, total: entries.length, unit: 'entries' });
      return finished(await this.countPool.count(work, counterId, signal, (done, total) => report({ jobId, phase: 'counting', done, total, unit: 'entries' })));
    }
    const slices = countEntriesSliced(entries, counter);
    for (;;) {
      if (signal.aborted) throw jobCancelled();
      const step = slices.next();
      if (step.done) return finished(step.value);
      report({ jobId, phase: 'counting', done: step.value.done, total: entries.length, unit: 'entries' });
      await yieldToEventLoop();
    }
  }

  private async job<T>(jobId: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.jobs.set(jobId, controller);
    try {
      return await run(controller.signal);
    } finally {
      this.jobs.delete(jobId);
    }
  }
}

function summaryOf(counts: TokenCounts): TokenSummary {
  return { counter: counts.counter, label: COUNTER_LABELS[counts.counter], total: counts.total, byRole: counts.byRole, byKind: counts.byKind };
}

function throttle(onProgress: ProgressCallback): ProgressCallback {
  let last = 0;
  return (progress) => {
    const now = Date.now();
    if (now - last >= PROGRESS_INTERVAL_MS || progress.done >= progress.total) {
      last = now;
      onProgress(progress);
    }
  };
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
