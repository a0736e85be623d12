/**
 * P1's recovery when the provider refused the prompt as too long but the session's strategy, at
 * its options, has nothing to compact (a history smaller than pi's keepRecentTokens, fewer turns
 * than layered keeps, under budget's window: the window the user gave is larger than the model's).
 * The loop then summarizes the branch as pi does, keeping only the newest half of the history
 * verbatim, so the one retry sends about half as much. When not even that changes the context, the
 * turn fails with a message that says what the user can change.
 */
import type { Strategy } from '../compaction/strategy.ts';
import { getStrategy } from '../strategies/index.ts';

/** Share of the history's tokens the fallback keeps verbatim (the newest part). Default 0.5. */
export const OVERFLOW_KEEP_SHARE = 0.5;

/** The fallback compaction: pi with keepRecentTokens at OVERFLOW_KEEP_SHARE of what the history holds now. */
export function overflowFallback(historyTokens: number): { strategy: Strategy; rawOptions: Record<string, unknown> } {
  return { strategy: getStrategy('pi'), rawOptions: { keepRecentTokens: Math.floor(historyTokens * OVERFLOW_KEEP_SHARE) } };
}

/** The note said when the strategy had nothing to compact and the fallback runs. */
export function fallbackNote(strategyLabel: string, reason: string, historyTokens: number): string {
  const kept = Math.floor(historyTokens * OVERFLOW_KEEP_SHARE).toLocaleString('en-US');
  return `Context overflow: ${strategyLabel} had nothing to compact at its options (${reason}); the older half of the branch is summarized as pi does instead, keeping the newest ${kept} tokens verbatim.`;
}

/** Why recovery failed and what the user can change: the two reasons the compactions gave. */
export function recoveryFailedMessage(strategyLabel: string, reason: string, fallbackReason: string): string {
  return `Context overflow: recovery failed: ${strategyLabel} had nothing to compact (${reason}), nor had a summary of the older half of the branch (${fallbackReason}). ` +
    'What you can change: set the context window to the model\'s real one, or lower what the strategy keeps (its options), or start a new branch with a shorter message, or choose a model with a larger window.';
}
