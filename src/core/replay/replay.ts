/**
 * The replay driver: runs a recorded branch call by call under one strategy configuration, as if
 * the agent had used it. Before each call it asks the strategy's own trigger (at the moment the
 * session resumed after an idle gap, then at the call itself, with the transcript's timestamps as
 * the clock); when it fires, the strategy compacts the history so far with the injected
 * summarizer, and later calls are sent that context plus what was recorded since. Pure: the
 * journal is never changed, and the same input gives the same series.
 */
import type { PromptLibrary } from '../compaction/prompts.ts';
import { runCompaction, type CompactionOutcome } from '../compaction/run.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { withUserWindow } from '../compaction/window-option.ts';
import { compactionCancelled, type Summarizer } from '../compaction/summarizer.ts';
import { compressionSavings, countFates } from '../compaction/plan-counts.ts';
import type { CompactionInput, Plan, TriggerDecision } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import type { Price } from '../pricing.ts';
import { extractProbes } from '../probes/index.ts';
import type { Probe } from '../probes/types.ts';
import type { HookRunner } from '../hooks/user-hooks.ts';
import { getStrategy } from '../strategies/index.ts';
import { clockOf, findCalls, idleMoment } from './calls.ts';
import { ReplayContext } from './context.ts';
import { DEFAULT_CACHE_TTL_MS } from './cost.ts';
import { ProbeChecker, probesByEntry, probesOf, scoreOf } from './scoring.ts';
import { recordedCalls, unseenPrefixOf, type UnseenPrefix } from './recorded-usage.ts';
import { replayAfterCompact, replayCompactionHooks, ReplayHookCancel } from './replay-hooks.ts';
import { replayResult } from './replay-result.ts';
import { askTrigger, madeSmaller, planChanged, walkCalls } from './trigger-loop.ts';
import { isCancelled } from '../cancel.ts';
import type { ProbeOutcome, ReplayCompaction, ReplayConfig, ReplayPlan, ReplayProgress, ReplayResult } from './types.ts';

export interface ReplayArgs {
  /** The whole branch, counted (`buildInput`); `previous` is ignored: a replay starts with no compaction. */
  input: CompactionInput;
  config: ReplayConfig;
  summarizer: Summarizer;
  prompts: PromptLibrary;
  /** Price for the cost column, with the model it is for; absent: cost is null. */
  price?: { model: string; price: Price };
  /** Probes of `input.entries` (`extractProbes`), computed once when several configurations share an input. */
  probes?: readonly Probe[];
  /** Probe ids the user dismissed: left out of every score. */
  dismissed?: ReadonlySet<string>;
  /** A call this long after the previous one reads nothing from the prompt cache (default 5 min). */
  cacheTtlMs?: number;
  /** Per summary (default: the orchestrator's 120 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ReplayProgress) => void;
  /** Replay only the first `calls` calls (a prefix of the session). */
  calls?: number;
  /** Input index of the first reply replayed as a call (`buildInput`'s `firstCall`; default 0). */
  firstCall?: number;
  /**
   * Tokens every call sends that the transcript does not hold, added to every call's context and
   * given to every trigger (`unseenPrefixTokens`). Default: derived from the usage the input
   * recorded (`unseenPrefixOf`), 0 where none was recorded.
   */
  unseenPrefix?: UnseenPrefix;
  /** The user's hook module, run at each compaction (replay-hooks.ts); its failures are notes of the result. */
  hooks?: HookRunner;
}

export async function replaySession(args: ReplayArgs): Promise<ReplayResult> {
  const { config } = args;
  const strategy = resolveStrategy(config);
  const unseenPrefix = args.unseenPrefix ?? unseenPrefixOf(recordedCalls(args.input.entries, args.input.tokens, args.firstCall));
  const unseen = unseenPrefix.tokens;
  // Every trigger reads the context as sent: the transcript plus what the transcript never shows.
  const input: CompactionInput = { ...args.input, unseenPrefixTokens: unseen };
  const raw = withUserWindow(strategy, config.options, input.contextWindow);
  const options = strategy.parse(raw) as Options;
  delete input.previous;
  const entries = input.entries;
  const allCalls = findCalls(entries, args.firstCall);
  const callIndices = args.calls === undefined ? allCalls : allCalls.slice(0, args.calls);
  const clock = clockOf(entries);
  const byEntry = probesByEntry(args.probes ?? extractProbes(entries), args.dismissed ?? new Set());
  const cacheTtl = args.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const context = new ReplayContext(input);
  const checker = new ProbeChecker();
  const compactions: ReplayCompaction[] = [];
  const removedEver: string[] = [];
  const notes: string[] = [];
  /** What the user's hooks did that the result must say (a cancel, a failure), by call. */
  const hookNotes: string[] = [];
  let previous: CompactionInput['previous'];
  let summarizerTokens = { input: 0, output: 0 };
  let nothingToDo = 0;
  /** The context changed at a compaction that was not recorded (it made nothing smaller). */
  let unrecorded = false;

  const prefix = (end: number, now: number | undefined, list: readonly Entry[]): CompactionInput => ({
    ...input,
    entries: list,
    tokens: input.tokens.prefixOf(end),
    ...(previous ? { previous } : {}),
    now: now ?? input.now,
  });
  /** The first `end` entries as one array that grows with the replay, for the trigger and the compaction (they only read their input): no copy of the history per call. */
  const live: Entry[] = [];
  const liveView = (end: number): readonly Entry[] => {
    if (live.length > end) live.length = end;
    while (live.length < end) live.push(entries[live.length]!);
    return live;
  };

  /** The last trigger answer before the current call, and why a firing trigger changed nothing (said when the call overflows). */
  let lastDecision: TriggerDecision | undefined;
  let lastNothing: string | undefined;

  /** Asks the trigger with the first `end` entries recorded; compacts when it fires. Returns whether it compacted. */
  const consider = async (end: number, now: number | undefined, call: number): Promise<boolean> => {
    if (end <= context.appendFrom) return false;
    lastNothing = undefined;
    const asked = prefix(end, now, liveView(end));
    // A strategy that tells cheaply that its plan would change nothing is not asked for one.
    const { decision, idle } = askTrigger(strategy, asked, options, true);
    lastDecision = decision;
    if (!decision.fire) return false;
    if (idle !== undefined) {
      nothingToDo++;
      lastNothing = idle;
      return false;
    }
    // The compaction reads the growing branch itself, through the very input the trigger read (what
    // a strategy worked out for its trigger serves its plan too).
    const at = asked;
    args.onProgress?.({ call, calls: callIndices.length, compactions: compactions.length, phase: 'summarizing' });
    const tokensBefore = context.tokensAt(end) + unseen;
    let outcome: CompactionOutcome;
    try {
      outcome = await runCompaction({
        strategy, input: at, rawOptions: raw, summarizer: args.summarizer, prompts: args.prompts,
        ...(args.signal ? { signal: args.signal } : {}), ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
        ...(args.hooks ? { hooks: replayCompactionHooks(args.hooks, at, call, hookNotes) } : {}),
      });
    } catch (caught) {
      if (!(caught instanceof ReplayHookCancel)) throw caught;
      lastNothing = caught.message;
      return false;
    }
    if (args.hooks && planChanged(outcome)) await replayAfterCompact(args.hooks, outcome, call, hookNotes);
    if (!planChanged(outcome)) {
      nothingToDo++;
      lastNothing = outcome.plan.nothingToDo ?? 'the plan changed nothing';
      return false;
    }
    const { removed: removedIds, delta } = context.apply(outcome.context, end);
    if (!madeSmaller(removedIds.length, tokensBefore, context.tokensAt(end) + unseen)) {
      // Assembled to the same context (nothing left it, nothing got smaller): not a compaction.
      nothingToDo++;
      previous = outcome.context.previous;
      // The next compaction's delta would be against this unrecorded context: it keeps its context in full.
      unrecorded = true;
      return false;
    }
    removedEver.push(...removedIds);
    previous = outcome.context.previous;
    summarizerTokens = {
      input: summarizerTokens.input + outcome.record.summary_usage.input,
      output: summarizerTokens.output + outcome.record.summary_usage.output,
    };
    const probes = checker.check(probesOf(removedIds, byEntry), () => context.parts(context.refs), end);
    compactions.push(compactionOf(call, decision, outcome, tokensBefore, context.tokensAt(end) + unseen, end, unrecorded ? { context: context.refs.slice() } : { contextDelta: delta }, removedIds, probes));
    unrecorded = false;
    return true;
  };

  const walked = await walkCalls({
    entries, callIndices, clock, tokens: input.tokens, contextWindow: input.contextWindow, cacheTtlMs: cacheTtl,
    ...(args.signal ? { signal: args.signal } : {}), ...(args.onProgress ? { onProgress: args.onProgress } : {}),
    compactions: () => compactions.length,
    beforeCall: async (k, c) => {
      let compacted = false;
      try {
        if (k > 0) {
          const idle = idleMoment(entries, callIndices[k - 1]!, c);
          if (idle) compacted = await consider(idle.after + 1, idle.at, k);
        }
        compacted = (await consider(c, clock[c - 1] ?? clock[c], k)) || compacted;
      } catch (caught) {
        if (isCancelled(caught) || args.signal?.aborted) throw compactionCancelled();
        return { error: `Call ${k + 1}: ${(caught as Error).message}` };
      }
      const contextTokens = context.tokensAt(c) + unseen;
      return { compacted, contextTokens, overflowNote: () => overflowNote(compacted, lastDecision, lastNothing, contextTokens, input.contextWindow) };
    },
  });
  const { calls, error } = walked;

  notes.push(unseen > 0
    ? `Every call's context is the transcript (${input.counter.label}) plus ${unseen.toLocaleString('en-US')} tokens not in it (system prompt, tool definitions), and every trigger reads that size: ${unseenPrefix.note}`
    : `Every call's context counts the transcript alone (${input.counter.label}): ${unseenPrefix.note}`);
  notes.push(...hookNotes);
  if (nothingToDo > 0) notes.push(`The trigger fired ${nothingToDo} time(s) with nothing to compact; the context was left as it was.`);
  const end = error === undefined ? (callIndices.length === allCalls.length ? entries.length : callIndices.at(-1)! + 1) : (calls.at(-1)?.entryIndex ?? -1) + 1;
  const finalContext = context.snapshot(Math.max(end, context.appendFrom));
  const probes: ProbeOutcome[] = checker.check(probesOf([...new Set(removedEver)], byEntry), () => context.parts(finalContext), Math.max(end, context.appendFrom));
  return replayResult({
    config, counter: input.counter.label, contextWindow: input.contextWindow, calls, compactions, summarizerTokens, probes, finalContext, notes, unseenPrefix,
    callsAsked: callIndices.length,
    ...(args.price ? { price: args.price } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(args.hooks ? { hookNotes } : {}),
    ...(args.onProgress ? { onProgress: args.onProgress } : {}),
  });
}

function overflowNote(compacted: boolean, decision: TriggerDecision | undefined, nothing: string | undefined, tokens: number, window: number): string {
  const over = `${tokens.toLocaleString('en-US')} tokens > window ${window.toLocaleString('en-US')}`;
  if (compacted) return `${over} even after compacting: what the strategy keeps verbatim is larger than the window.`;
  if (!decision) return `${over}: the strategy was not asked (no new entry since its last compaction).`;
  if (decision.fire) return `${over}: the trigger fired (${decision.rule}) but the strategy had nothing to compact: ${nothing ?? 'the plan changed nothing'}`;
  return `${over}: the trigger did not fire (${decision.rule}: ${decision.detail})`;
}

function resolveStrategy(config: ReplayConfig): Strategy {
  if (config.strategy === 'custom') {
    throw new Error('The custom plugin strategy cannot be replayed: its plan comes from your plugin at one moment, not before every call.');
  }
  return getStrategy(config.strategy);
}

function replayPlan(plan: Plan): ReplayPlan {
  const fates = countFates(plan.fates);
  return {
    strategy: plan.strategy,
    options: plan.options,
    trigger: plan.trigger,
    ...(plan.cut ? { cut: plan.cut } : {}),
    notes: plan.notes,
    tokensBefore: plan.tokensBefore,
    tokensAfterEstimate: plan.tokensAfterEstimate,
    ...(plan.nothingToDo !== undefined ? { nothingToDo: plan.nothingToDo } : {}),
    summaries: plan.summaries.map((task) => ({ id: task.id, prompt: task.prompt, from: task.from, to: task.to, ...(task.maxTokens !== undefined ? { maxTokens: task.maxTokens } : {}) })),
    fates,
    compressions: { count: plan.compressions.length, tokensSaved: compressionSavings(plan.compressions) },
  };
}

function compactionOf(
  call: number, trigger: TriggerDecision, outcome: CompactionOutcome, tokensBefore: number,
  tokensAfter: number, end: number, stored: Pick<ReplayCompaction, 'context' | 'contextDelta'>, removedIds: string[], probes: ProbeOutcome[],
): ReplayCompaction {
  return {
    call,
    trigger,
    plan: replayPlan(outcome.plan),
    summaries: outcome.summaries,
    record: outcome.record,
    tokensBefore,
    tokensAfter,
    ...stored,
    appendFrom: end,
    removedIds,
    probes,
    scores: scoreOf(probes),
  };
}
