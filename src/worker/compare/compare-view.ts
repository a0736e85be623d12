/**
 * What the Compare tab reads of a saved comparison, and how the worker slims a stored one down to
 * it. A stored result can weigh megabytes (thousands of calls and compactions, each compaction with
 * its context, plan, summaries and probes); decoding it on the page would hold the main thread for
 * seconds. The page gets the list without results, the opened result without the per-compaction
 * details, and asks the worker for one compaction or one call's context when the user opens it.
 * The per-call figures travel as typed-array columns (core/replay/call-series.ts) whose buffers the worker hands over (moved,
 * not copied), so the page reads thousands of calls without decoding an object per call.
 */
import { callSeries, type CallSeries } from '../../core/replay/call-series.ts';
import type { ContextRef, ReplayCompaction, ReplayResult } from '../../core/replay/types.ts';
import type { ComparisonRow } from '../../db/schema.ts';
import type { CompareResult } from './compare-protocol.ts';

export type { CallSeries, CallView } from '../../core/replay/call-series.ts';

/** A saved comparison as the list shows it: everything but the result. */
export type ComparisonSummary = Omit<ComparisonRow, 'result'>;

/** A compaction as the chart and the marker list draw it; the rest is read on demand. */
export type CompactionMarker = Pick<ReplayCompaction, 'call' | 'trigger' | 'tokensBefore' | 'tokensAfter'>;

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
