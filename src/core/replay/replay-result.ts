/**
 * A replay's result from its calls and compactions, written once for every kind of replay
 * (strategy replays and folding replays): the totals (tokens per task, peak, overflows, cost),
 * the probe scores, and what the page and `cli eval` read beside the series.
 */
import type { Price } from '../pricing.ts';
import { replayCost } from './cost.ts';
import { configLabel } from './label.ts';
import type { UnseenPrefix } from './recorded-usage.ts';
import { emptyScores, scoreOf } from './scoring.ts';
import type { ContextRef, ProbeOutcome, ReplayCall, ReplayCompaction, ReplayConfig, ReplayProgress, ReplayResult } from './types.ts';

export interface ResultParts {
  config: ReplayConfig;
  /** The counter's label. */
  counter: string;
  contextWindow: number;
  calls: ReplayCall[];
  compactions: ReplayCompaction[];
  summarizerTokens: { input: number; output: number };
  /** Probes whose source left the context, checked against `finalContext`. */
  probes: ProbeOutcome[];
  finalContext: ContextRef[];
  price?: { model: string; price: Price };
  notes: string[];
  unseenPrefix?: UnseenPrefix;
  error?: string;
  hookNotes?: string[];
  onProgress?: (progress: ReplayProgress) => void;
  /** Calls the replay was asked for (for the last progress message). */
  callsAsked: number;
}

export function replayResult(parts: ResultParts): ReplayResult {
  const { calls, compactions, summarizerTokens, probes } = parts;
  const contextTokens = calls.reduce((sum, call) => sum + call.contextTokens, 0);
  parts.onProgress?.({ call: calls.length, calls: parts.callsAsked, compactions: compactions.length, phase: 'done' });
  return {
    config: parts.config,
    label: configLabel(parts.config),
    counter: parts.counter,
    contextWindow: parts.contextWindow,
    calls,
    compactions,
    totals: {
      calls: calls.length,
      tokensPerTask: contextTokens + summarizerTokens.input + summarizerTokens.output,
      contextTokens,
      peakTokens: calls.reduce((peak, call) => Math.max(peak, call.contextTokens), 0),
      compactions: compactions.length,
      overflowCalls: calls.filter((call) => call.overflow).length,
      summarizerTokens,
      cost: parts.price ? replayCost(calls, summarizerTokens, parts.price.price) : null,
      costModel: parts.price?.model ?? null,
    },
    probes,
    scores: probes.length > 0 ? scoreOf(probes) : emptyScores(),
    compactionScores: scoreOf(compactions.flatMap((compaction) => compaction.probes)),
    finalContext: parts.finalContext,
    ...(parts.unseenPrefix ? { unseenPrefix: parts.unseenPrefix } : {}),
    ...(parts.error !== undefined ? { error: parts.error } : {}),
    ...(parts.hookNotes ? { hookNotes: parts.hookNotes } : {}),
    notes: parts.notes,
  };
}
