/**
 * Runs several strategy configurations over one recorded branch, the same way in the worker (the
 * compare view) and in Node (`cli eval`): the input is built once, probes are extracted once, and
 * each configuration is replayed in turn. A configuration that fails (a bad option, a summarizer
 * error) carries its reason and the others still run; a cancel stops everything.
 */
import { buildInput } from '../compaction/input.ts';
import type { InputScope, ReplayFrom } from '../compaction/input-scope.ts';
import type { PromptLibrary } from '../compaction/prompts.ts';
import { compactionCancelled, type Summarizer } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { branchLeaves, rootFinder } from '../journal/tree.ts';
import { priceFor } from '../pricing.ts';
import { extractProbes } from '../probes/index.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { configLabel } from './label.ts';
import { emptyScores } from './scoring.ts';
import type { HookRunner } from '../hooks/user-hooks.ts';
import { replaySession } from './replay.ts';
import { isFoldingConfig } from './config-options.ts';
import { replayFolding } from './folding-replay.ts';
import type { ReplayConfig, ReplayProgress, ReplayResult } from './types.ts';
import { charsPerToken } from './trigger-point.ts';
import { withWindowCheck } from './window-warnings.ts';
import { recordedRun, uncompactedRun, type RecordedRun, type UncompactedRun } from './recorded-run.ts';
import { recordedCalls, unseenPrefixOf, type UnseenPrefix } from './recorded-usage.ts';
import { chooseUnseenPrefix } from './unseen-estimate.ts';
import { isCancelled } from '../cancel.ts';

export interface CompareArgs {
  journal: readonly Entry[];
  /** Per-entry token counts of `journal` with `counter`. */
  totals: ArrayLike<number>;
  counter: TokenCounter;
  contextWindow: number;
  configs: readonly ReplayConfig[];
  summarizer: Summarizer;
  prompts: PromptLibrary;
  /** Branch leaf (default: the active branch). */
  leafId?: string;
  /** Where the replay starts (default 'start': the first entry, the source's own compactions left out). */
  from?: ReplayFrom;
  /** Price table model or window preset for the cost; default: the model the transcript recorded, when priced. */
  priceModel?: string;
  dismissed?: ReadonlySet<string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (config: number, progress: ReplayProgress) => void;
  /** An unseen prefix the user entered (`parseUnseenPrefix`); default: the one the recorded usage gives, else 0. */
  unseenPrefix?: UnseenPrefix;
  /** 'fallback' (the page's setting): the entered prefix applies only where no call recorded usage; default 'override'. */
  unseenPrefixUse?: 'override' | 'fallback';
  /** The user's hook module: run in the replay of each configuration whose `hooks` is set (replay-hooks.ts). */
  hooks?: HookRunner;
}

export interface CompareOutput {
  entryIds: string[];
  calls: number;
  /** Where the replay started, what it covered and why. */
  scope: InputScope;
  priceModel?: string;
  /** The tokens every configuration's calls hold beyond the transcript, and where the figure comes from. */
  unseenPrefix: UnseenPrefix;
  results: ReplayResult[];
  /** The source agent's own run over the same calls (recorded-run.ts); null when none of them recorded usage. */
  recorded: RecordedRun | null;
  /** The same calls with nothing ever compacted, each with the unseen prefix a replay adds: the baseline of `ratioToUncompacted`. */
  uncompacted: UncompactedRun;
}

export async function compareConfigs(args: CompareArgs): Promise<CompareOutput> {
  const built = buildInput(args.journal, args.totals, args.counter, {
    contextWindow: args.contextWindow,
    now: 0,
    ...(args.leafId ? { leafId: args.leafId } : {}),
    ...(args.from ? { from: args.from } : {}),
  });
  const { input } = built;
  const probes = extractProbes(input.entries);
  const priceModel = args.priceModel ?? recordedModel(input.entries);
  const price = priceModel ? priceFor(priceModel) : undefined;
  const recordedPrefix = unseenPrefixOf(recordedCalls(input.entries, input.tokens, built.firstCall));
  const unseenPrefix = args.unseenPrefixUse === 'fallback' && recordedPrefix.source === 'recorded' ? recordedPrefix : chooseUnseenPrefix(recordedPrefix, args.unseenPrefix);
  const results: ReplayResult[] = [];
  let ratio: number | undefined;
  for (let i = 0; i < args.configs.length; i++) {
    const config = args.configs[i]!;
    if (args.signal?.aborted) throw compactionCancelled();
    try {
      if (config.hooks && !args.hooks) throw new Error('This configuration runs your hook module, and none is loaded: load one (the Compact tab\'s hook module, or --hook in the CLI), or turn its hooks off.');
      if (config.hooks && isFoldingConfig(config)) throw new Error('Memory folding makes no compactions for hooks to see: turn this configuration\'s hooks off.');
      const result = await (isFoldingConfig(config) ? replayFolding : replaySession)({
        input, config, summarizer: args.summarizer, prompts: args.prompts, probes, firstCall: built.firstCall, unseenPrefix,
        ...(price ? { price } : {}),
        ...(args.dismissed ? { dismissed: args.dismissed } : {}),
        ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
        ...(args.signal ? { signal: args.signal } : {}),
        ...(config.hooks && args.hooks ? { hooks: args.hooks } : {}),
        onProgress: (progress) => args.onProgress?.(i, progress),
      });
      ratio ??= charsPerToken(input.entries, input.tokens.total);
      results.push(withWindowCheck(result, ratio));
    } catch (error) {
      if (isCancelled(error) || args.signal?.aborted) throw compactionCancelled();
      results.push(failed(config, args, (error as Error).message));
    }
  }
  return {
    entryIds: input.entries.map((entry) => entry.id),
    calls: built.scope.calls,
    scope: built.scope,
    ...(price ? { priceModel: price.model } : {}),
    unseenPrefix,
    results,
    recorded: recordedRun({
      journal: args.journal, ...(args.leafId ? { leafId: args.leafId } : {}), entries: input.entries, journalIndex: built.journalIndex,
      firstCall: built.firstCall, contextWindow: args.contextWindow,
    }),
    uncompacted: uncompactedRun(input, built.firstCall, unseenPrefix.tokens),
  };
}

/** The first priced model the transcript's responses name (a session may switch models; the first is the one it started with). */
export function recordedModel(entries: readonly Entry[]): string | undefined {
  for (const entry of entries) if (entry.role === 'assistant' && entry.model && priceFor(entry.model)) return entry.model;
  return undefined;
}

/** The root conversations of a journal (a file may hold several, like tau-bench's): the last leaf of each. */
export function conversationLeaves(journal: readonly Entry[]): string[] {
  const root = rootFinder(journal);
  const lastLeaf = new Map<string, string>();
  for (const leaf of branchLeaves(journal)) lastLeaf.set(root(leaf), leaf.id);
  return [...lastLeaf.values()];
}

function failed(config: ReplayConfig, args: CompareArgs, message: string): ReplayResult {
  return {
    config,
    label: configLabel(config),
    counter: args.counter.label,
    contextWindow: args.contextWindow,
    calls: [],
    compactions: [],
    totals: { calls: 0, tokensPerTask: 0, contextTokens: 0, peakTokens: 0, compactions: 0, overflowCalls: 0, summarizerTokens: { input: 0, output: 0 }, cost: null, costModel: null },
    probes: [],
    scores: emptyScores(),
    compactionScores: emptyScores(),
    finalContext: [],
    error: message,
    notes: [],
  };
}
