/**
 * Memory folding (L0-L4, seed 003) replayed call by call as the agent's memory, beside the
 * strategies' driver (replay.ts) and with the same result, so Compare, `cli eval` and their charts
 * need no special case. Before each call the iterations completed so far are pushed into a
 * `FoldSession`, whose own triggers (pressure, critical, adaptive periodic, semantic) decide when
 * to fold; the call is sent the fold's context (its blocks at their levels, the retrieved zone, the
 * dynamic slot) plus the entries of the iteration in progress. Each fold that raised levels is a
 * compaction of the replay. Digests are the offline extraction (no model): summarizer tokens are 0.
 * Pure: the same input gives the same series.
 */
import { iterationOfEntry, toIterations } from '../folding/iterations.ts';
import type { FoldOptions } from '../folding/options.ts';
import { FoldSession } from '../folding/session.ts';
import type { FoldEvent } from '../folding/types.ts';
import { dynamicText } from '../folding/zones.ts';
import { extractProbes } from '../probes/index.ts';
import { clockOf, findCalls } from './calls.ts';
import { foldReplayOptions } from './config-options.ts';
import { DEFAULT_CACHE_TTL_MS } from './cost.ts';
import { FoldContextBuilder, type FoldContext } from './folding-context.ts';
import { foldCompaction, foldOverflowNote } from './folding-record.ts';
import type { ReplayArgs } from './replay.ts';
import { replayResult } from './replay-result.ts';
import { ProbeChecker, probesByEntry, probesOf } from './scoring.ts';
import { walkCalls } from './trigger-loop.ts';
import type { ContextRef, ProbeOutcome, ReplayCompaction, ReplayResult } from './types.ts';

/** A folding replay takes a replay's arguments; it asks no summarizer (its digests are extracted). */
export type FoldingReplayArgs = Omit<ReplayArgs, 'summarizer' | 'prompts' | 'timeoutMs'> & Partial<Pick<ReplayArgs, 'summarizer' | 'prompts' | 'timeoutMs'>>;

/** A fold that raised the level of at least one iteration: the context changed. */
export function isFoldEvent(event: FoldEvent): boolean {
  return (event.action === 'fold' || event.action === 'fold-oldest-l1') && (event.numbers.foldedIterations ?? 0) > 0;
}

/** The context after the last fold: what later calls are sent, with the entries recorded since `appendFrom`. */
interface LastFold {
  context: FoldContext;
  appendFrom: number;
  /** Texts of the summary entries it showed, so a later fold lists only the ones it made. */
  texts: Set<string>;
}

export async function replayFolding(args: FoldingReplayArgs): Promise<ReplayResult> {
  const { config, input } = args;
  const options: FoldOptions = foldReplayOptions(config.options, input.contextWindow);
  const entries = input.entries;
  const counts = Array.from({ length: entries.length }, (_, i) => input.tokens.countAt(i));
  const iterations = toIterations(entries);
  const iterationOf = iterationOfEntry(iterations, entries.length);
  const allCalls = findCalls(entries, args.firstCall);
  const callIndices = args.calls === undefined ? allCalls : allCalls.slice(0, args.calls);
  const clock = clockOf(entries);
  const byEntry = probesByEntry(args.probes ?? extractProbes(entries), args.dismissed ?? new Set());
  const indexOf = new Map(entries.map((entry, index) => [entry.id, index]));
  const cacheTtl = args.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const session = new FoldSession(options, new Map(), input.counter);
  const builder = new FoldContextBuilder(entries, counts, input.counter);
  const checker = new ProbeChecker();
  const compactions: ReplayCompaction[] = [];
  const removedEver = new Set<number>();
  let last: LastFold = { context: { refs: [], verbatim: new Set(), compressed: { count: 0, tokensSaved: 0 }, folded: [] }, appendFrom: 0, texts: new Set() };
  let pushed = 0;

  /** Pushes the iterations before `target` (the ones complete before the call); returns the events they logged. */
  const pushUpTo = (target: number): FoldEvent[] => {
    const from = session.events.length;
    for (; pushed < target; pushed++) {
      const it = iterations[pushed]!;
      session.push(entries.slice(it.from, it.to + 1), counts.slice(it.from, it.to + 1));
    }
    return session.events.slice(from);
  };
  /** The fold's context now, with the dynamic slot as of the latest iteration. */
  const contextNow = (now: ReturnType<FoldSession['current']>): FoldContext =>
    builder.build(now.blocks(), now.retrieved, session.its, session.iterations > 0 ? dynamicText(session.infos, session.iterations - 1, options) : '');
  const withAppended = (refs: readonly ContextRef[], from: number, to: number): ContextRef[] => [...refs, ...builder.journal(from, to - 1)];

  const { calls } = await walkCalls({
    entries, callIndices, clock, tokens: input.tokens, contextWindow: input.contextWindow, cacheTtlMs: cacheTtl,
    ...(args.signal ? { signal: args.signal } : {}), ...(args.onProgress ? { onProgress: args.onProgress } : {}),
    compactions: () => compactions.length,
    // The fold's own triggers decide as the iterations before the call are pushed.
    beforeCall: (k, c, previousCall) => {
      const started = Date.now();
      const target = iterationOf[c]!;
      const pushedBefore = pushed;
      const folds = pushUpTo(target).filter(isFoldEvent);
      const partialFrom = iterations[target]!.from;
      const now = session.current();
      const contextTokens = now.tokens + input.tokens.range(partialFrom, c - 1);
      const compacted = folds.length > 0;
      if (compacted) {
        const context = contextNow(now);
        const before = previousCall ? previousCall.contextTokens + input.tokens.range(previousCall.entryIndex, c - 1) : input.tokens.range(0, c - 1);
        const removed = removedSince(last, context, partialFrom, c);
        for (const i of removed) removedEver.add(i);
        const removedIds = removed.map((i) => entries[i]!.id);
        const probes = checker.check(probesOf(removedIds, byEntry), () => builder.parts(withAppended(context.refs, partialFrom, c), indexOf), c);
        compactions.push(foldCompaction({
          call: k, folds, options, counter: input.counter.label, context, previousTexts: last.texts, tokensBefore: before, tokensAfter: contextTokens,
          appendFrom: partialFrom, end: c, removedIds, probes, levels: session.levels, keyMoments: session.moments.filter((m) => m !== undefined).length, durationMs: Date.now() - started,
        }));
        last = { context, appendFrom: partialFrom, texts: new Set(context.folded.map((f) => f.text)) };
      }
      return {
        compacted, contextTokens,
        overflowNote: () => foldOverflowNote({ compacted, lastEvent: lastFoldEvent(session.events), partialTokens: input.tokens.range(partialFrom, c - 1), tokens: contextTokens, window: input.contextWindow, measured: session.iterations > 0 ? session.usage(session.iterations - 1) : 0, foldWindow: options.contextWindow, iteration: target, pushedNow: pushed > pushedBefore }),
      };
    },
  });

  // What the next call would be sent: the fold as of the last call, and everything recorded after it.
  const end = callIndices.length === allCalls.length ? entries.length : callIndices.length > 0 ? callIndices.at(-1)! + 1 : 0;
  const appendFrom = pushed < iterations.length ? iterations[pushed]!.from : entries.length;
  const finalContext = withAppended(contextNow(session.current()).refs, appendFrom, Math.max(end, appendFrom));
  const finalIds = [...removedEver].sort((a, b) => a - b).map((i) => entries[i]!.id);
  const probes: ProbeOutcome[] = checker.check(probesOf(finalIds, byEntry), () => builder.parts(finalContext, indexOf), Math.max(end, appendFrom));
  return replayResult({
    config, counter: input.counter.label, contextWindow: input.contextWindow, calls, compactions, summarizerTokens: { input: 0, output: 0 }, probes, finalContext,
    notes: replayNotes(session.events, compactions.length), callsAsked: callIndices.length,
    ...(args.price ? { price: args.price } : {}),
    ...(args.onProgress ? { onProgress: args.onProgress } : {}),
  });
}

/** Input indices that were verbatim before the fold (the last fold's context and the entries since) and are not after it. */
function removedSince(last: LastFold, context: FoldContext, partialFrom: number, end: number): number[] {
  const kept = (i: number) => context.verbatim.has(i) || (i >= partialFrom && i < end);
  const removed: number[] = [];
  for (const i of last.context.verbatim) if (!kept(i)) removed.push(i);
  for (let i = last.appendFrom; i < end; i++) if (!last.context.verbatim.has(i) && !kept(i)) removed.push(i);
  return removed.sort((a, b) => a - b);
}

function lastFoldEvent(events: readonly FoldEvent[]): FoldEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.action === 'fold' || event.action === 'fold-oldest-l1' || event.action === 'nothing-to-fold') return event;
  }
  return undefined;
}

function replayNotes(events: readonly FoldEvent[], compactions: number): string[] {
  const notes = ['Memory folding with the offline digests (extraction, no model): summarizer tokens are 0. Model-written digests (the Fold tab) are not used in a replay.'];
  const idle = events.filter((e) => (e.action === 'fold' || e.action === 'fold-oldest-l1' || e.action === 'nothing-to-fold') && !isFoldEvent(e)).length;
  if (idle > 0) notes.push(`The folding triggers fired ${idle} time(s) with nothing to fold further; the context was left as it was.`);
  const between = events.filter((e) => e.action === 'recall' || e.action === 'fade' || e.action === 'near').length;
  if (between > 0 && compactions > 0) {
    notes.push(`${between} recall, fade or nearer-level event(s) changed the context between folds: each call's tokens include them, while the context listed for a call is the last fold's plus the entries recorded since.`);
  }
  return notes;
}

