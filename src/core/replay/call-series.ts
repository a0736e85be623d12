/**
 * A replay's calls as columns (one typed array per figure, index k holding call k): how the chart
 * and the call panel read thousands of calls without an object per call, and how the worker hands
 * them to the page (the arrays' buffers are moved, not copied). Built from `ReplayCall`s and read
 * back one call at a time.
 */
import type { ReplayCall } from './types.ts';

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

/** The calls as columns. */
export function callSeries(calls: readonly ReplayCall[]): CallSeries {
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
