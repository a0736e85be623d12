/**
 * When a replayed compaction happened, in words: before the call it precedes, or, for a trigger
 * that fires on its own timer (A1, Augment's cache-expiry trigger), between two calls at the
 * moment the timer fired, as a live session runs it. The Compare detail and `cli eval` say the same.
 */
import { formatTime } from '../journal/clock.ts';
import type { TriggerDecision } from '../compaction/types.ts';

/** `call` is the 0-based call the compaction ran before. */
export function compactionMoment(compaction: { call: number; trigger: Pick<TriggerDecision, 'rule' | 'numbers'> }): string {
  const firedAt = compaction.trigger.numbers.cacheFiresAt;
  if (compaction.trigger.rule === 'cacheExpiring' && firedAt !== undefined && compaction.call > 0) {
    return `between calls ${compaction.call} and ${compaction.call + 1}, when the cache-expiry timer fired (${formatTime(firedAt)})`;
  }
  return `before call ${compaction.call + 1}`;
}
