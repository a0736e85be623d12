/**
 * The one trigger loop: how a replay walks a recorded branch call by call (before each call its
 * memory is brought up to the call and asked whether to compact; the call is then sent that
 * context), and the "compact now?" steps every caller shares. Strategy replays (replay.ts) and
 * folding replays (folding-replay.ts) walk their calls with `walkCalls`; they and the live
 * session (agent/compact.ts) ask a strategy's trigger with `askTrigger` and judge what a
 * compaction did with `planChanged` and `madeSmaller`, so the three decide the same way; the live
 * session arms its between-calls timer for the moment `wakeAfterCall` asks it again.
 */
import type { CompactionOutcome } from '../compaction/run.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { compactionCancelled } from '../compaction/summarizer.ts';
import type { CompactionInput, TriggerDecision } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import type { TokenIndex } from '../tokens/prefix-sums.ts';
import { replayCall } from './cost.ts';
import type { ReplayCall, ReplayProgress } from './types.ts';

/** Yield to the event loop after this much work, so a cancel or a progress message can get through. Unit: ms. */
export const YIELD_EVERY_MS = 25;

/** The trigger's answer, and when it fires, why the strategy already knows its plan would change nothing. */
export interface TriggerAnswer {
  decision: TriggerDecision;
  idle?: string;
}

/**
 * Asks `strategy`'s trigger with `input`; when it fires and `cheapCheck` is set, also asks the
 * strategy's cheap "nothing to do" check, so a replay does not plan a compaction it can tell is empty.
 */
export function askTrigger(strategy: Strategy, input: CompactionInput, options: Options, cheapCheck: boolean): TriggerAnswer {
  const decision = strategy.trigger(input, options);
  const idle = decision.fire && cheapCheck ? strategy.nothingToDo?.(input, options) : undefined;
  return idle === undefined ? { decision } : { decision, idle };
}

/**
 * After a call: the moment (epoch ms) the trigger wants to be asked again if no call comes first
 * (A1: Augment's cache-expiry timer, seed 000 §1.5), or undefined. The live session arms its timer
 * for it; a replay asks at the recording's idle gap, and its decision names the same moment
 * (`numbers.cacheFiresAt`).
 */
export function wakeAfterCall(strategy: Strategy, input: CompactionInput, options: Options): number | undefined {
  return askTrigger(strategy, input, options, false).decision.wakeAt;
}

/** The plan found something to do, or the run changed the context anyway (a fallback truncation). */
export function planChanged(outcome: CompactionOutcome): boolean {
  const { plan, context } = outcome;
  return !plan.nothingToDo || context.summaryApplied || context.truncationApplied || plan.compressions.length > 0;
}

/** A compaction that took no entry out and made nothing smaller left the context as it was: it is not recorded. */
export function madeSmaller(removed: number, tokensBefore: number, tokensAfter: number): boolean {
  return removed > 0 || tokensAfter < tokensBefore;
}

/** The context one call is sent, as the caller's memory worked it out before the call. */
export interface SentContext {
  /** A compaction (or fold) ran just before this call. */
  compacted: boolean;
  contextTokens: number;
  /** Why the call is over the window (asked only when it is). */
  overflowNote: () => string;
}

export interface CallLoopArgs {
  entries: readonly Entry[];
  /** Input indices of the calls to replay, ascending. */
  callIndices: readonly number[];
  /** Epoch ms of each entry (`clockOf`). */
  clock: ReadonlyArray<number | undefined>;
  tokens: Pick<TokenIndex, 'countAt'>;
  contextWindow: number;
  cacheTtlMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: ReplayProgress) => void;
  /** Compactions made so far (for progress messages). */
  compactions: () => number;
  /**
   * Brings the memory up to call `k` (input index `c`, after `previous`), compacting when its
   * trigger asks; returns what the call is sent, or an error that ends the replay there.
   */
  beforeCall(k: number, c: number, previous: ReplayCall | undefined): SentContext | { error: string } | Promise<SentContext | { error: string }>;
}

/**
 * Walks the calls: the memory before each one (`beforeCall`), then the call as sent, with its
 * cache and overflow; yields now and then for progress and a cancel (which throws
 * a `CancelledError`). Stops at the first error `beforeCall` returns, keeping the calls so far.
 */
export async function walkCalls(args: CallLoopArgs): Promise<{ calls: ReplayCall[]; error?: string }> {
  const { entries, callIndices, clock, signal } = args;
  const calls: ReplayCall[] = [];
  let lastYield = Date.now();
  for (let k = 0; k < callIndices.length; k++) {
    if (signal?.aborted) throw compactionCancelled();
    const c = callIndices[k]!;
    const previous = calls[k - 1];
    const sent = await args.beforeCall(k, c, previous);
    if ('error' in sent) return { calls, error: sent.error };
    calls.push(replayCall({
      call: k, entryIndex: c, entry: entries[c]!, contextTokens: sent.contextTokens, countedOutput: args.tokens.countAt(c), previous, compacted: sent.compacted,
      requestAt: clock[c - 1] ?? clock[c], cacheTtlMs: args.cacheTtlMs, contextWindow: args.contextWindow, overflowNote: sent.overflowNote,
    }));
    if (Date.now() - lastYield > YIELD_EVERY_MS) {
      args.onProgress?.({ call: k + 1, calls: callIndices.length, compactions: args.compactions(), phase: 'replaying' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastYield = Date.now();
      if (signal?.aborted) throw compactionCancelled();
    }
  }
  return { calls };
}
