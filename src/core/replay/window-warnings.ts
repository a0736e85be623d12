/**
 * Warnings for a replayed configuration that cannot keep its context inside the window, each with
 * the number of the run's calls sent over it. One function gives them to the Compare totals and to
 * `cli eval` (text, Markdown, CSV and `--json`). The kinds, precisely:
 *
 * - `trigger-past-window`: the trigger point (trigger-point.ts) is at or above the window, so the
 *   context is over the window before the trigger can fire (tool-result-clearing's 100,000 tokens
 *   over a 50,000 window; augment's characters read at a small window).
 * - `keep-past-trigger`: pi's `keepRecentTokens` is above `contextWindow - reserveTokens`: the
 *   newest tokens pi keeps verbatim are already past its own trigger, so a compaction cannot bring
 *   the context under it.
 * - `kept-past-window`: at least one of the run's compactions left a context over the window (what
 *   the strategy keeps verbatim, such as layered's 10 whole turns, is larger than the window).
 * - `overflow`: calls went over the window and none of the above explains it; the first such call's
 *   reason is given (the trigger did not fire, or fired with nothing to compact).
 */
import { replayOptions, triggerPoint } from './trigger-point.ts';
import type { ReplayCall, ReplayCompaction, ReplayConfig, ReplayResult, TriggerPoint, WindowWarning, WindowWarningKind } from './types.ts';

export type { WindowWarning, WindowWarningKind } from './types.ts';

/** What the warnings read of a replay. */
export interface WarningInput {
  config: Pick<ReplayConfig, 'strategy'>;
  /** The configuration's parsed options (pi's `keepRecentTokens` and `reserveTokens` are read). */
  options: Record<string, unknown>;
  contextWindow: number;
  trigger: TriggerPoint;
  calls: ReadonlyArray<Pick<ReplayCall, 'call' | 'overflow' | 'note'>>;
  compactions: ReadonlyArray<Pick<ReplayCompaction, 'call' | 'tokensAfter'>>;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const callsText = (n: number): string => `${fmt(n)} call${n === 1 ? '' : 's'}`;

export function windowWarnings(run: WarningInput): WindowWarning[] {
  const window = run.contextWindow;
  const overflowCalls = run.calls.filter((call) => call.overflow).length;
  const over = `${callsText(overflowCalls)} over the window`;
  const warnings: WindowWarning[] = [];
  const warn = (kind: WindowWarningKind, message: string) => warnings.push({ kind, overflowCalls, message });

  const { tokens } = run.trigger;
  if (tokens !== null && tokens >= window) {
    warn('trigger-past-window', `The trigger fires at ${fmt(tokens)} tokens (${run.trigger.rule}), at or past the ${fmt(window)}-token window: the context is over the window before it can fire; ${over}.`);
  }
  if (run.config.strategy === 'pi') {
    const keep = Number(run.options.keepRecentTokens);
    const reserve = Number(run.options.reserveTokens);
    if (keep > window - reserve) {
      warn('keep-past-trigger', `keepRecentTokens ${fmt(keep)} > contextWindow ${fmt(window)} - reserveTokens ${fmt(reserve)} = ${fmt(window - reserve)}: what pi keeps verbatim is already past its trigger, so a compaction cannot bring the context under it; ${over}.`);
    }
  }
  const leftOver = run.compactions.filter((c) => c.tokensAfter > window);
  if (leftOver.length > 0) {
    const largest = leftOver.reduce((max, c) => Math.max(max, c.tokensAfter), 0);
    warn('kept-past-window', `${fmt(leftOver.length)} of ${fmt(run.compactions.length)} compactions left the context over the ${fmt(window)}-token window (up to ${fmt(largest)} tokens, first before call ${fmt(leftOver[0]!.call + 1)}): what the strategy keeps verbatim does not fit; ${over}.`);
  }
  if (warnings.length === 0 && overflowCalls > 0) {
    const first = run.calls.find((call) => call.overflow)!;
    warn('overflow', `${over}, the first at call ${fmt(first.call + 1)}${first.note ? `: ${first.note}` : ''}`);
  }
  return warnings;
}

/** `result` with its trigger point and window warnings (`charsPerToken`: the branch's, see `charsPerToken`). */
export function withWindowCheck(result: ReplayResult, charsPerToken: number): ReplayResult {
  const trigger = triggerPoint(result.config, result.contextWindow, charsPerToken);
  const options = replayOptions(result.config, result.contextWindow);
  return { ...result, trigger, warnings: windowWarnings({ ...result, options, trigger }) };
}
