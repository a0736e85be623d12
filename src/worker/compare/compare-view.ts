/**
 * What the Compare tab reads of a saved comparison, and how the worker slims a stored one down to
 * it. A stored result can weigh megabytes (thousands of calls and compactions, each compaction with
 * its context, plan, summaries and probes); decoding it on the page would hold the main thread for
 * seconds. The page gets the list without results, the opened result without the per-compaction
 * details, and asks the worker for one compaction or one call's context when the user opens it.
 * The per-call figures travel as typed-array columns whose buffers the worker hands over (moved,
 * not copied), so the page reads thousands of calls without decoding an object per call.
 */
import type { ContextRef, ReplayCall, ReplayCompaction, ReplayResult } from '../../core/replay/types.ts';
import type { ComparisonRow } from '../../db/schema.ts';
import type { CompareResult } from './compare-protocol.ts';

/** A saved comparison as the list shows it: everything but the result. */
export type ComparisonSummary = Omit<ComparisonRow, 'result'>;

/** A compaction as the chart and the marker list draw it; the rest is read on demand. */
export type CompactionMarker = Pick<ReplayCompaction, 'call' | 'trigger' | 'tokensBefore' | 'tokensAfter'>;

/**
 * A configuration's calls as columns, index k holding call k (calls are numbered in order from 0):
 * what the chart draws and the call panel reads. The entry of each call stays in the worker,
 * which builds a call's context on demand.
 */
export interface CallSeries {
  /** Calls replayed (a configuration whose summarizer failed has fewer than the others). */
  length: number;
  /** `ReplayCall.contextTokens` per call (counter units). */
  contextTokens: Float64Array;
  /** `ReplayCall.cachedTokens` per call. */
  cachedTokens: Float64Array;
  /** `ReplayCall.outputTokens` per call. */
  outputTokens: Float64Array;
  /** Per call: bit 0 set when a compaction ran just before it, bit 1 when it was over the window. */
  flags: Uint8Array;
  /** `ReplayCall.note` of the few calls that have one, by call number. */
  notes: Record<number, string>;
}

/** One call read back from its series: the figures the call panel shows. */
export type CallView = Pick<ReplayCall, 'contextTokens' | 'cachedTokens' | 'outputTokens' | 'compacted' | 'overflow' | 'note'>;

const COMPACTED = 1;
const OVERFLOW = 2;

/** One configuration's result with its calls as columns and its compactions as markers. */
export type ReplayResultView = Omit<ReplayResult, 'compactions' | 'calls'> & { calls: CallSeries; compactions: CompactionMarker[] };

/** A compare result as the page shows it (the entry ids stay in the worker, which builds contexts). */
export type CompareResultView = Omit<CompareResult, 'results' | 'entryIds'> & { results: ReplayResultView[] };

/** The opened comparison. */
export type ComparisonView = ComparisonSummary & { result: CompareResultView };

/** One compaction opened: all of it, with the context right after it in full. */
export type CompactionDetailView = Omit<ReplayCompaction, 'context'> & { context: ContextRef[] };

export function comparisonSummary(row: ComparisonRow): ComparisonSummary {
  return { id: row.id, conversationId: row.conversationId, importId: row.importId, createdAt: row.createdAt, name: row.name, request: row.request };
}

export function compactionMarker(compaction: ReplayCompaction): CompactionMarker {
  return { call: compaction.call, trigger: compaction.trigger, tokensBefore: compaction.tokensBefore, tokensAfter: compaction.tokensAfter };
}

function callSeries(calls: readonly ReplayCall[]): CallSeries {
  const length = calls.length;
  const series: CallSeries = {
    length,
    contextTokens: new Float64Array(length),
    cachedTokens: new Float64Array(length),
    outputTokens: new Float64Array(length),
    flags: new Uint8Array(length),
    notes: {},
  };
  calls.forEach((call, k) => {
    series.contextTokens[k] = call.contextTokens;
    series.cachedTokens[k] = call.cachedTokens;
    series.outputTokens[k] = call.outputTokens;
    series.flags[k] = (call.compacted ? COMPACTED : 0) | (call.overflow ? OVERFLOW : 0);
    if (call.note !== undefined) series.notes[k] = call.note;
  });
  return series;
}

/** Call `k` of a series, or undefined past its end. */
export function callAt(series: CallSeries, k: number): CallView | undefined {
  if (!Number.isInteger(k) || k < 0 || k >= series.length) return undefined;
  const flags = series.flags[k] ?? 0;
  const note = series.notes[k];
  return {
    contextTokens: series.contextTokens[k] ?? 0,
    cachedTokens: series.cachedTokens[k] ?? 0,
    outputTokens: series.outputTokens[k] ?? 0,
    compacted: (flags & COMPACTED) !== 0,
    overflow: (flags & OVERFLOW) !== 0,
    ...(note !== undefined ? { note } : {}),
  };
}

/** Tokens of call `k`'s context, or undefined past the series' end. */
export function contextTokensAt(series: CallSeries, k: number): number | undefined {
  return Number.isInteger(k) && k >= 0 && k < series.length ? series.contextTokens[k] : undefined;
}

/** The stored row (its shape unchanged since comparisons were first saved) slimmed to what the page shows. */
export function comparisonView(row: ComparisonRow): ComparisonView {
  const { entryIds: _entryIds, results, ...rest } = row.result;
  return {
    ...comparisonSummary(row),
    result: { ...rest, results: results.map(({ compactions, calls, ...result }) => ({ ...result, calls: callSeries(calls), compactions: compactions.map(compactionMarker) })) },
  };
}

/** The buffers of a view's series, each listed once: handed to the page rather than copied. */
export function viewBuffers(view: ComparisonView): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const { calls } of view.result.results) {
    for (const column of [calls.contextTokens, calls.cachedTokens, calls.outputTokens, calls.flags]) buffers.add(column.buffer as ArrayBuffer);
  }
  return [...buffers];
}
