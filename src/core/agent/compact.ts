/**
 * Compaction inside the live loop: the chosen strategy's trigger asked with the branch's history
 * (A1, before every model call), and when it fires — or when the loop must compact anyway (a
 * context overflow, the model's own `summarize_context`) — the same `runCompaction` the Compact
 * and Runs views use, with the session's summarizer, its timeout (the strategy's fallback, e.g.
 * the layered hard truncation, answers a summary that takes too long) and its progress.
 */
import { runCompaction, type CompactionOutcome, type CompactionProgress } from '../compaction/run.ts';
import type { PromptLibrary } from '../compaction/prompts.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { Summarizer } from '../compaction/summarizer.ts';
import type { CompactionInput, ContextEntry, TriggerDecision } from '../compaction/types.ts';
import { entryText } from '../journal/entry.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import { userCompactionHooks, type HookRunner } from '../hooks/user-hooks.ts';
import { askTrigger, madeSmaller, planChanged } from '../replay/trigger-loop.ts';
import { historyContext, type BranchView, type CompactionState, type TokenCache } from './branch-context.ts';

export interface LoopCompactionArgs {
  strategy: Strategy;
  /** The strategy's raw options with the session's window filled in (`withUserWindow`). */
  rawOptions: Record<string, unknown>;
  view: BranchView;
  tokens: TokenCache;
  contextWindow: number;
  summarizer: Summarizer;
  prompts: PromptLibrary;
  signal: AbortSignal;
  /** Per summary, ms (the orchestrator's default: 120 s, seed 002 §E2). */
  timeoutMs?: number;
  now: () => number;
  /** Compact even when the trigger does not fire (overflow recovery, `summarize_context`). */
  force: boolean;
  /** P8: the user's hooks; `before-compact` sees the plan and may cancel it or write the summary. */
  hooks?: HookRunner;
  onProgress: (progress: CompactionProgress) => void;
}

export type LoopCompaction =
  | { kind: 'skipped'; decision: TriggerDecision }
  | { kind: 'unchanged'; decision: TriggerDecision; reason: string; notes: string[] }
  | {
    kind: 'compacted';
    decision: TriggerDecision;
    outcome: CompactionOutcome;
    state: CompactionState;
    /** What the compaction record holds: the summaries the model now sees in place of the history. */
    text: string;
    firstKeptEntryId?: string;
    tokensBefore: number;
    tokensAfter: number;
  };

/** The branch's model-context entries, counted, with the last compaction's state. */
export function strategyInput(view: BranchView, tokens: TokenCache, contextWindow: number, now: number): CompactionInput {
  const previous = view.compaction?.state.previous;
  return {
    entries: view.messages,
    tokens: new TokenIndex(view.messages.map((entry) => tokens.of(entry))),
    counter: tokens.counter,
    contextWindow,
    ...(previous ? { previous } : {}),
    now,
  };
}

function verbatimIds(context: readonly ContextEntry[]): Set<string> {
  return new Set(context.flatMap((item) => (item.origin === 'journal' ? [item.entry.id] : [])));
}

/** The record's text: every summary the context now holds, or what left it when none was written. */
function recordText(context: readonly ContextEntry[], outcome: CompactionOutcome, removed: number): string {
  const summaries = context.filter((item) => item.origin === 'summary').map((item) => entryText(item.entry).trim()).filter(Boolean);
  if (summaries.length > 0) return summaries.join('\n\n');
  const rewritten = context.filter((item) => item.origin === 'compressed').length;
  return `Compaction (${outcome.plan.strategy}): ${removed} entries left the context without a summary${rewritten > 0 ? `; ${rewritten} rewritten in place` : ''}.`;
}

export async function compactBranch(args: LoopCompactionArgs): Promise<LoopCompaction> {
  const { strategy, view, tokens } = args;
  const options = strategy.parse(args.rawOptions);
  const input = strategyInput(view, tokens, args.contextWindow, args.now());
  const { decision } = askTrigger(strategy, input, options, false);
  if (!decision.fire && !args.force) return { kind: 'skipped', decision };

  const before = historyContext(view);
  const tokensBefore = tokens.ofContext(before);
  const outcome = await runCompaction({
    strategy, input, rawOptions: args.rawOptions, summarizer: args.summarizer, prompts: args.prompts, signal: args.signal,
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    onProgress: args.onProgress, clock: args.now,
    ...(args.hooks ? { hooks: userCompactionHooks(args.hooks, input) } : {}),
  });
  const { plan, context } = outcome;
  const notes = [...context.notes];
  const tokensAfter = tokens.ofContext(context.entries);
  const kept = verbatimIds(context.entries);
  const removed = [...verbatimIds(before)].filter((id) => !kept.has(id)).length;
  if (!planChanged(outcome) || !madeSmaller(removed, tokensBefore, tokensAfter)) {
    return { kind: 'unchanged', decision, reason: plan.nothingToDo ?? 'the plan changed nothing', notes };
  }
  const firstKeptEntryId = context.previous.firstKeptEntryId ?? context.entries.find((item) => item.origin === 'journal')?.entry.id;
  return {
    kind: 'compacted',
    decision,
    outcome,
    state: { context: context.entries, previous: context.previous },
    text: recordText(context.entries, outcome, removed),
    ...(firstKeptEntryId !== undefined ? { firstKeptEntryId } : {}),
    tokensBefore,
    tokensAfter,
  };
}
