/**
 * The model calls of a recorded branch: each assistant response is one request to the model (a
 * Claude Code response split over several lines was merged into one entry at import). Synthetic
 * assistant text (an API error shown as a message, "No response requested.") was never a call.
 */
import type { Entry } from '../journal/entry.ts';

/**
 * Input indices of the entries that answered a model call, ascending, from input index `from` on
 * (the replies before it are context the input starts with: the entries pi kept at a compaction).
 */
export function findCalls(entries: readonly Entry[], from = 0): number[] {
  const calls: number[] = [];
  for (let index = from; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.role === 'assistant' && entry.kind === 'message' && !entry.flags?.synthetic) calls.push(index);
  }
  return calls;
}

/** A minute without a recorded entry: long enough for a prompt-cache timer to fire in between. */
export const IDLE_GAP_MS = 60_000;

/**
 * Within `from..to - 1`, the entry after which the recording went quiet longest (at least
 * `IDLE_GAP_MS` before the next entry), or undefined. Time-based triggers are asked at that moment.
 */
export function idleMoment(entries: readonly Entry[], from: number, to: number): { after: number; at: number } | undefined {
  let best: { after: number; at: number; gap: number } | undefined;
  let last: number | undefined;
  let lastIndex = -1;
  for (let i = from; i < to; i++) {
    const at = entries[i]?.timestamp;
    if (at === undefined) continue;
    if (last !== undefined && at - last >= IDLE_GAP_MS && (!best || at - last > best.gap)) best = { after: lastIndex, at, gap: at - last };
    last = at;
    lastIndex = i;
  }
  return best ? { after: best.after, at: best.at } : undefined;
}

export { clockOf } from '../journal/clock.ts';
