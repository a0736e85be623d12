/**
 * Compaction in the worker: build the strategy's input from the stored journal and cached counts,
 * preview the plan, run it with a summarizer, and store the run (plan, context by entry id, log
 * record) in one transaction. A failure or cancel stores nothing.
 */
import { buildInput } from '../../core/compaction/input.ts';
import { runCompaction, type CompactionProgress } from '../../core/compaction/run.ts';
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import type { CompactedContext, CompactionInput, Plan, PreviousCompaction } from '../../core/compaction/types.ts';
import { pluginEntries } from '../../core/strategies/custom-plugin.ts';
import { runPlugin } from '../sandbox/plugin-runner.ts';
import { loadHookRunner } from '../../core/hooks/runner.ts';
import { askBeforeFork, notifyAfterCompact, userCompactionHooks } from '../../core/hooks/user-hooks.ts';
import { browserHookWorker, type HookWorkerFactory } from '../sandbox/hook-worker.ts';
import { getStrategy } from '../../core/strategies/index.ts';
import { withUserWindow } from '../../core/compaction/window-option.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { planSummarizerOf, planWithAfter } from '../../core/compaction/planned-after.ts';
import { createRemoteSummarizer } from '../../llm/remote/remote.ts';
import { inertResponse } from '../../llm/inert-output.ts';
import { createWebLLMSummarizer, type WebLLMSummarizer } from '../../llm/webllm/webllm.ts';
import type { SharedModelSource } from '../../llm/webllm/webllm-shared.ts';
import type { AppConfig } from '@mlc-ai/web-llm';
import { getCounter } from '../../core/tokens/counters.ts';
import { commitRun, loadEntries } from '../../db/conversations.ts';
import { buildProvenance, type Provenance } from '../../core/compaction/provenance.ts';
import type { CompactionRow, FoldlabDatabase, StoredContextEntry } from '../../db/schema.ts';
import { PROMPTS } from '../engine/prompts.ts';
import { sessionUnseenPrefix } from '../../core/replay/session-prefix.ts';
import type { CompactRequest, JobWait, PlanPreview } from '../engine/protocol.ts';

type CountTokens = (conversationId: string, counter: CompactRequest['counter']) => Promise<Uint32Array>;

/** Streaming text of a remote summarizer, forwarded as progress. */
export type OnText = (text: string, tokensPerSecond: number) => void;
/** What a summarizer is made from: the provider settings of a request (compaction or folding). */
export type SummarizerSettings = Pick<CompactRequest, 'remote' | 'localModelId' | 'localAppConfig'>;
/** A wait before a model request is tried again, forwarded as progress. */
export type OnWait = (wait: JobWait) => void;
export type SummarizerFactory = (request: SummarizerSettings, onText: OnText, onWait?: OnWait) => Summarizer;

/** The summarizers by request kind: 'offline' (default), 'remote', 'webllm'. Also used by folding (fold-summaries.ts). */
export const DEFAULT_SUMMARIZERS: Readonly<Record<string, SummarizerFactory>> = {
  offline: () => createOfflineSummarizer(),
  remote: (request, onText, onWait) => {
    if (!request.remote) throw new Error('Choose a remote provider in Settings > Models first.');
    return createRemoteSummarizer(
      request.remote,
      (_delta, progress) => onText(progress.text, progress.tokensPerSecond),
      onWait && (({ attempt, delayMs, error, waitingForNetwork }) => onWait({ reason: waitingForNetwork ? 'network' : error.status === 429 ? 'rate-limit' : 'busy', until: Date.now() + delayMs, attempt })),
    );
  },
  webllm: (request, onText) => {
    if (!request.localModelId) throw new Error('Download and choose a local model in Settings > Models first.');
    return inertOutput(localSummarizer(request.localModelId, request.localAppConfig, onText));
  },
};

/** The local model's replies made inert like the remote ones (src/llm/inert-output.ts) before anything stores them. */
function inertOutput(summarizer: Summarizer): Summarizer {
  return {
    id: summarizer.id,
    label: summarizer.label,
    ...(summarizer.systemPrompt !== undefined ? { systemPrompt: summarizer.systemPrompt } : {}),
    summarize: (request) => summarizer.summarize(request).then(inertResponse),
  };
}

type OnLoadProgress = (report: { progress: number; text: string; timeElapsed: number }) => void;

/** One WebLLM engine per model for the worker's lifetime: loading weights onto the GPU is slow. */
let local: { key: string; summarizer: WebLLMSummarizer; onText: { current: OnText }; onProgress: { current: OnLoadProgress } } | undefined;
function localModel(modelId: string, appConfig: AppConfig | undefined): NonNullable<typeof local> {
  const key = `${modelId}|${appConfig ? JSON.stringify(appConfig) : ''}`;
  if (local?.key !== key) {
    void local?.summarizer.unload();
    const sink: { current: OnText } = { current: () => undefined };
    const progress: { current: OnLoadProgress } = { current: () => undefined };
    local = {
      key, onText: sink, onProgress: progress,
      summarizer: createWebLLMSummarizer({ modelId, ...(appConfig ? { appConfig } : {}), onToken: (text, tps) => sink.current(text, tps), onProgress: (report) => progress.current(report) }),
    };
  }
  return local;
}
function localSummarizer(modelId: string, appConfig: AppConfig | undefined, onText: OnText): WebLLMSummarizer {
  const shared = localModel(modelId, appConfig);
  shared.onText.current = onText;
  return shared.summarizer;
}

/** The same local model for a live session's port (webllm-shared.ts): summaries and the session share one copy on the GPU. */
export const sharedLocalModel: SharedModelSource = (modelId, appConfig, onProgress) => {
  const shared = localModel(modelId, appConfig);
  shared.onProgress.current = onProgress;
  return shared.summarizer;
};

/** The local model this worker holds and whether it is on the GPU ('ready'), loading, or not loaded ('idle'). */
export function localModelState(): { modelId: string; state: WebLLMSummarizer['state'] } | undefined {
  return local && { modelId: local.summarizer.modelId, state: local.summarizer.state };
}

export class CompactionJobs {
  constructor(
    private readonly db: FoldlabDatabase,
    private readonly countTokens: CountTokens,
    private readonly summarizers: Readonly<Record<string, SummarizerFactory>> = DEFAULT_SUMMARIZERS,
    private readonly hookWorker: HookWorkerFactory = browserHookWorker,
  ) {}

  private async prepare(request: CompactRequest, signal?: AbortSignal) {
    const conversation = await this.db.conversations.get(request.conversationId);
    if (!conversation) throw new Error(`No conversation ${request.conversationId}: it may have been deleted.`);
    const [journal, totals, counter, previousRow, pins] = await Promise.all([
      loadEntries(this.db, request.conversationId),
      this.countTokens(request.conversationId, request.counter),
      getCounter(request.counter),
      request.continueFrom === 'none' ? undefined : this.previousRun(request),
      this.db.pins.where('conversationId').equals(request.conversationId).toArray(),
    ]);
    const previous: PreviousCompaction | undefined = previousRow?.previous;
    const built = buildInput(journal, totals, counter, {
      ...(request.leafId ? { leafId: request.leafId } : {}),
      ...(request.upTo !== undefined ? { upTo: request.upTo } : {}),
      ...(request.from ? { from: request.from } : {}),
      contextWindow: request.contextWindow,
      ...(previous ? { previous } : {}),
      pinned: new Set(pins.map((pin) => pin.entryId)),
      ...(request.now !== undefined ? { now: request.now } : {}),
      wallClock: Date.now(),
    });
    // The whole branch, when the run takes it up at an earlier point (a fork: before-fork is asked).
    // The context as sent: the same prefix the CLI and the replays add (recorded usage, else the user's estimate).
    const unseenPrefix = sessionUnseenPrefix(built.input, built.firstCall, request.unseenPrefix, 'fallback');
    built.input = { ...built.input, unseenPrefixTokens: unseenPrefix.tokens };
    const whole = request.upTo !== undefined ? buildInput(journal, totals, counter, { ...(request.leafId ? { leafId: request.leafId } : {}), ...(request.from ? { from: request.from } : {}), contextWindow: request.contextWindow, wallClock: 0 }) : undefined;
    return { conversation, journal, built, whole, previousRow, unseenPrefix, options: await this.pluginOptions(request, built.input, signal) };
  }

  /** The custom strategy's options: the user's plugin runs first and its checked answer becomes the plan. */
  private async pluginOptions(request: CompactRequest, input: CompactionInput, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (request.strategy !== 'custom') return withUserWindow(getStrategy(request.strategy), request.options, request.contextWindow);
    const source = request.pluginSource?.trim();
    if (!source) throw new Error('Paste a plugin module first: export default function plan(entries, options) { return { keep: [...] } }.');
    const plan = await runPlugin(source, pluginEntries(input), request.options, signal ? { signal } : {});
    return { ...request.options, plan: JSON.stringify(plan) };
  }

  private async previousRun(request: CompactRequest): Promise<CompactionRow | undefined> {
    const rows = await this.db.compactions.where('[conversationId+createdAt]').between([request.conversationId, -Infinity], [request.conversationId, Infinity]).toArray();
    const candidates = rows.filter((row) => row.strategy === request.strategy && (request.continueFrom === undefined || request.continueFrom === 'latest' || row.id === request.continueFrom));
    return candidates.at(-1);
  }

  async plan(request: CompactRequest): Promise<PlanPreview> {
    const { built, previousRow, options, unseenPrefix } = await this.prepare(request);
    const strategy = getStrategy(request.strategy);
    // The after figure true to who writes the summaries: the offline ones counted, a model's at their budget.
    const plan: Plan = planWithAfter(strategy, built.input, strategy.parse(options), planSummarizerOf(request.summarizer));
    return {
      plan,
      journalIndex: built.journalIndex,
      entryIds: built.input.entries.map((entry) => entry.id),
      ...(built.note ? { inputNote: built.note } : {}),
      scope: built.scope,
      ...(previousRow ? { previousRunId: previousRow.id } : {}),
      unseenPrefix,
    };
  }

  async compact(request: CompactRequest, signal: AbortSignal, onProgress: (progress: CompactionProgress & { tokensPerSecond?: number; wait?: JobWait }) => void): Promise<CompactionRow> {
    const { conversation, built, whole, options, unseenPrefix } = await this.prepare(request, signal);
    const strategy = getStrategy(request.strategy);
    const makeSummarizer = this.summarizers[request.summarizer];
    if (!makeSummarizer) throw new Error(`Unknown summarizer "${request.summarizer}".`);
    const hookSource = request.hookSource?.trim();
    const hooks = hookSource ? await loadHookRunner(() => this.hookWorker(hookSource), { signal, ...(request.hookTimeoutMs !== undefined ? { timeoutMs: request.hookTimeoutMs } : {}) }) : undefined;
    if (hooks && whole) await askBeforeFork(hooks, whole.input.entries, whole.journalIndex.filter((index) => index <= request.upTo!).length);
    // The streamed text and waits belong to the summary being made: its place among all of them.
    let step = { done: 0, total: 1 };
    const outcome = await runCompaction({
      strategy,
      input: built.input,
      rawOptions: options,
      summarizer: makeSummarizer(
        request,
        (text, tokensPerSecond) => onProgress({ phase: 'summarizing', ...step, partial: text, tokensPerSecond }),
        (wait) => onProgress({ phase: 'summarizing', ...step, wait }),
      ),
      prompts: PROMPTS,
      signal,
      onProgress: (progress) => {
        if (progress.phase === 'summarizing') step = { done: progress.done, total: progress.total };
        onProgress(progress);
      },
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(hooks ? { hooks: userCompactionHooks(hooks, built.input) } : {}),
    });
    const afterCompactError = hooks ? await notifyAfterCompact(hooks, outcome) : undefined;
    if (afterCompactError) outcome.record.notes.push(afterCompactError);
    if (outcome.plan.nothingToDo && !outcome.context.summaryApplied && !outcome.context.truncationApplied && outcome.plan.compressions.length === 0) {
      throw new NothingToCompactError(outcome.plan.nothingToDo);
    }
    const row: CompactionRow & { provenance: Provenance[] } = {
      id: request.runId ?? crypto.randomUUID(),
      conversationId: conversation.id,
      importId: conversation.importId,
      createdAt: Date.now(),
      strategy: strategy.id,
      ...(request.leafId ? { leafId: request.leafId } : {}),
      ...(request.upTo !== undefined ? { upTo: request.upTo } : {}),
      counter: request.counter,
      contextWindow: request.contextWindow,
      plan: outcome.plan,
      context: storeContext(outcome.context),
      summaries: outcome.summaries,
      previous: outcome.context.previous,
      record: outcome.record,
      journalIndex: built.journalIndex,
      provenance: runProvenance(outcome, built.input.entries, built.journalIndex),
      // The prefix the trigger read: reopening the run states the same figures.
      unseenPrefix,
    };
    if (signal.aborted) throw new Error('Compaction cancelled: nothing was changed.');
    await commitRun(this.db, row);
    return row;
  }
}

/** The conversation is too short (or already small enough) for this strategy. */
export class NothingToCompactError extends Error {
  override name = 'NothingToCompactError';
}

/** One provenance record per summary the run stored: who made it, with which prompt, from which entries. */
function runProvenance(outcome: Awaited<ReturnType<typeof runCompaction>>, entries: CompactionInput['entries'], journalIndex: readonly number[]): Provenance[] {
  const { record, plan, summaries } = outcome;
  return plan.summaries.filter((task) => summaries[task.id] !== undefined).flatMap((task) => {
    const indices = task.indices ?? Array.from({ length: task.to - task.from + 1 }, (_, k) => task.from + k);
    const source = indices.flatMap((i) => {
      const entry = entries[i];
      return entry ? [{ id: entry.id, index: journalIndex[i] ?? entry.index, role: entry.role, blocks: entry.blocks }] : [];
    });
    if (source.length === 0) return [];
    return [buildProvenance({
      summarizer: record.summarizer,
      model: record.summarizer_model,
      method: `compaction:${record.strategy}/${task.id}`,
      prompt: { id: task.prompt, text: PROMPTS[task.prompt] ?? '' },
      entries: source,
      at: record.at,
    })];
  });
}

function storeContext(context: CompactedContext): StoredContextEntry[] {
  return context.entries.map((item) =>
    item.origin === 'journal'
      ? { origin: 'journal', entryId: item.entry.id }
      : { origin: item.origin, entry: item.entry, ...(item.replaces ? { replaces: item.replaces } : {}) },
  );
}
