/** `compact <file> --strategy <id>`: plan and run a compaction with the offline summarizer (or a model's, `--summarizer model`), print the result. */
import { buildInput } from '../core/compaction/input.ts';
import type { InputScope, ReplayFrom } from '../core/compaction/input-scope.ts';
import { runCompaction, type CompactionOutcome } from '../core/compaction/run.ts';
import { withUserWindow } from '../core/compaction/window-option.ts';
import type { ContextEntry } from '../core/compaction/types.ts';
import type { FormatId } from '../core/import/types.ts';
import { getStrategy } from '../core/strategies/index.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { askBeforeFork, notifyAfterCompact, userCompactionHooks, type HookName } from '../core/hooks/user-hooks.ts';
import { loadCliHooks } from './hooks.ts';
import { describeChange } from '../core/compaction/plan-change.ts';
import { sizePlanAfter } from '../core/compaction/planned-after.ts';
import type { PlanAfterBasis } from '../core/compaction/types.ts';
import type { UnseenPrefix } from '../core/replay/recorded-usage.ts';
import { sessionUnseenPrefix } from '../core/replay/session-prefix.ts';
import { importFile, loadPrompts } from './load.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';

export interface CompactArgs {
  file: string;
  format?: FormatId;
  strategy: string;
  options: Record<string, string>;
  counter: CounterId;
  contextWindow: number;
  upTo?: number;
  /** Where the input starts (`--from`, default 'start': the first entry, the source's own compactions left out). */
  from?: ReplayFrom;
  /** A hook module (`--hook`): beforeCompact / afterCompact / beforeFork, run in worker threads. */
  hook?: string;
  /** Time each hook call may take, ms (default 2,000). */
  hookTimeoutMs?: number;
  /** `--unseen-prefix`: tokens or a preset (`parseUnseenPrefix`); default: what the recorded usage gives, else 0. */
  unseenPrefix?: string;
  /** Who writes the summaries (model-command.ts gives the model's); default the offline summarizer. */
  summarizer?: Summarizer;
}

export interface CompactReport {
  strategy: string;
  options: Record<string, unknown>;
  trigger: CompactionOutcome['plan']['trigger'];
  cut: { index: number; entryId: string | undefined; rule: string } | null;
  nothingToDo: string | null;
  /** Tokens of the transcript's context before and after the run (what the plan changes), counter units. */
  tokensBefore: number;
  tokensAfter: number;
  /** The plan's figure for `tokensAfter`, on the same basis: the offline summaries counted as the run writes them. */
  plannedTokensAfter: number;
  /** How the plan found it: 'counted' (no summary), 'offline' (the offline summaries), 'budget' (an estimate). */
  plannedBasis: PlanAfterBasis;
  /** Tokens every call sends beyond the transcript (system prompt, tool definitions), and where the figure comes from. */
  unseenPrefixTokens: number;
  unseenPrefix: { source: UnseenPrefix['source']; note: string };
  /** The context as sent: `tokensBefore` / `tokensAfter` plus the unseen prefix. */
  sentTokensBefore: number;
  sentTokensAfter: number;
  /** The run against the context before, in words: "-46% (21,545 fewer tokens)" or "grows by 2,487 tokens (+6%)". */
  change: string;
  counter: string;
  /** Where the input started, what it held and why. */
  scope: InputScope;
  counts: { input: number; summarized: number; kept: number; compressed: number; dropped: number; contextEntries: number };
  orphanToolResults: number;
  orphanToolCalls: number;
  summaries: Record<string, string>;
  summary: string;
  notes: string[];
  record: CompactionOutcome['record'];
  /** The hooks the `--hook` module exports (empty without one). */
  hooks: HookName[];
}

/** Calls and results in a context without their partner (0 for a valid context). */
export function contextOrphans(context: readonly ContextEntry[]): { orphanToolCalls: number; orphanToolResults: number } {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const item of context) {
    for (const block of item.entry.blocks) {
      if (block.type === 'tool_call' && !block.hosted) calls.add(block.callId);
      if (block.type === 'tool_result') results.add(block.callId);
    }
  }
  let orphanToolCalls = 0;
  let orphanToolResults = 0;
  for (const id of calls) if (!results.has(id)) orphanToolCalls++;
  for (const id of results) if (!calls.has(id)) orphanToolResults++;
  return { orphanToolCalls, orphanToolResults };
}

export async function runCompact(args: CompactArgs): Promise<CompactReport> {
  const strategy = getStrategy(args.strategy);
  const options = withUserWindow(strategy, args.options, args.contextWindow);
  strategy.parse(options); // refuse a bad option before reading the file
  const hooks = args.hook !== undefined ? await loadCliHooks(args.hook, args.hookTimeoutMs) : undefined;
  const result = await importFile(args.file, args.format);
  const counter = await getCounter(args.counter);
  const { totals } = countEntries(result.entries, counter);
  const at = { contextWindow: args.contextWindow, wallClock: Date.now(), ...(args.from ? { from: args.from } : {}) };
  const built = buildInput(result.entries, totals, counter, { ...at, ...(args.upTo !== undefined ? { upTo: args.upTo } : {}) });
  const unseenPrefix = sessionUnseenPrefix(built.input, built.firstCall, args.unseenPrefix);
  // The trigger reads the context as sent, like the replay's and the gauge's.
  const input = { ...built.input, unseenPrefixTokens: unseenPrefix.tokens };
  if (hooks && args.upTo !== undefined) {
    // Compacting as of an earlier point forks the session there: before-fork may refuse.
    const whole = buildInput(result.entries, totals, counter, at);
    await askBeforeFork(hooks, whole.input.entries, whole.journalIndex.filter((index) => index <= args.upTo!).length);
  }
  const outcome = await runCompaction({
    strategy,
    input,
    rawOptions: options,
    summarizer: args.summarizer ?? createOfflineSummarizer(),
    prompts: loadPrompts(),
    ...(hooks ? { hooks: userCompactionHooks(hooks, input) } : {}),
  });
  const afterCompactError = hooks ? await notifyAfterCompact(hooks, outcome) : undefined;
  const { plan, context } = outcome;
  // The figure the Compact page's plan shows for the offline summarizer, from the same function.
  const planned = sizePlanAfter(strategy, input, plan, strategy.parse(options), 'offline');
  const fates = plan.fates;
  return {
    strategy: strategy.id,
    options: plan.options,
    trigger: plan.trigger,
    cut: plan.cut ? { index: plan.cut.index, entryId: built.input.entries[plan.cut.index]?.id, rule: plan.cut.rule } : null,
    nothingToDo: plan.nothingToDo ?? null,
    tokensBefore: plan.tokensBefore,
    tokensAfter: context.tokensAfter,
    plannedTokensAfter: planned.tokensAfterEstimate,
    plannedBasis: planned.afterBasis ?? 'budget',
    unseenPrefixTokens: unseenPrefix.tokens,
    unseenPrefix: { source: unseenPrefix.source, note: unseenPrefix.note },
    sentTokensBefore: plan.tokensBefore + unseenPrefix.tokens,
    sentTokensAfter: context.tokensAfter + unseenPrefix.tokens,
    change: describeChange(plan.tokensBefore + unseenPrefix.tokens, context.tokensAfter + unseenPrefix.tokens),
    counter: counter.label,
    scope: built.scope,
    counts: {
      input: built.input.entries.length,
      summarized: fates.filter((f) => f === 'summarize').length,
      kept: fates.filter((f) => f === 'keep').length,
      compressed: fates.filter((f) => f === 'compress').length,
      dropped: fates.filter((f) => f === 'drop').length,
      contextEntries: context.entries.length,
    },
    ...contextOrphans(context.entries),
    summaries: outcome.summaries,
    summary: Object.values(outcome.summaries).join('\n\n'),
    notes: [...(built.note ? [built.note] : []), ...outcome.record.notes, ...(afterCompactError ? [afterCompactError] : [])],
    record: outcome.record,
    hooks: hooks ? [...hooks.hooks] : [],
  };
}
