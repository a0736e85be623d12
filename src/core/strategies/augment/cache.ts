/**
 * The cache-expiry trigger (seed 000 §1.1, §1.5, A1). Augment schedules
 * `delay = cacheTTLMs - cacheAge - bufferTimeBeforeCacheExpirationMs` after each request and, when
 * the timer fires, summarizes with the lower threshold `triggerOnHistorySizeCharsWhenCacheExpiring`.
 * The original never calls its scheduler; here the decision is a pure function of the clock, so a
 * replay can ask at any moment whether the timer has fired. The clock is the transcript's own: the
 * cache was written by the last model call (or by the last summary, which rewrote the prompt), and
 * the moment asked about is the call being planned.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import { formatTime } from '../../journal/clock.ts';
import { fmt } from './format.ts';

export interface CacheExpiryArgs {
  cacheTTLMs: number;
  bufferTimeBeforeCacheExpirationMs: number;
  /** `triggerOnHistorySizeCharsWhenCacheExpiring` (0 disables). */
  threshold: number;
  /** History size in the same unit as `threshold`. */
  historySize: number;
  /** When the prompt cache was last written: the time of the last entry, epoch ms. */
  cacheWrittenAt: number | undefined;
  /** The moment asked about, epoch ms. */
  now: number;
}

export interface CacheExpiryDecision {
  /** The timer would be scheduled at all: threshold > 0 and TTL - buffer > 0 at write time. */
  scheduled: boolean;
  /** now - cacheWrittenAt (0 when the write time is unknown). */
  cacheAgeMs: number;
  /** cacheTTLMs - cacheAge - buffer: time left until the timer fires; <= 0 once it has fired. */
  delayMs: number;
  /** Absolute time the timer fires (write time + TTL - buffer), when scheduled. */
  firesAt?: number;
  /** Absolute time the cache expires (write time + TTL). */
  expiresAt?: number;
  /** The timer has fired by `now`. */
  due: boolean;
  /** Due and the history reaches the threshold: summarize now. */
  fire: boolean;
  /** Why, in words, with the numbers. */
  reason: string;
}

/**
 * When the prompt cache was last written, in the transcript's time: the last model call (an
 * assistant message's timestamp) or the previous augment summary, whichever is later (a summary
 * changes the prompt, so the next request writes a new cache). Undefined when neither is known.
 */
export function cacheWrittenAt(input: CompactionInput): number | undefined {
  let at: number | undefined;
  for (let i = input.entries.length - 1; i >= 0; i--) {
    const entry = input.entries[i]!;
    if (entry.role === 'assistant' && entry.kind === 'message' && entry.timestamp !== undefined) {
      at = entry.timestamp;
      break;
    }
  }
  const summarizedAt = input.previous?.strategy === 'augment' ? input.previous.state?.compactedAt : undefined;
  if (typeof summarizedAt === 'number' && (at === undefined || summarizedAt > at)) at = summarizedAt;
  return at;
}

export function cacheExpiryDecision(args: CacheExpiryArgs): CacheExpiryDecision {
  const { cacheTTLMs: ttl, bufferTimeBeforeCacheExpirationMs: buffer, threshold, historySize, cacheWrittenAt, now } = args;
  if (cacheWrittenAt === undefined) {
    return { scheduled: false, cacheAgeMs: 0, delayMs: ttl - buffer, due: false, fire: false, reason: 'no model call has a timestamp, so the cache age is unknown' };
  }
  const cacheAgeMs = Math.max(0, now - cacheWrittenAt);
  const delayMs = ttl - cacheAgeMs - buffer;
  if (threshold <= 0) {
    return { scheduled: false, cacheAgeMs, delayMs, due: false, fire: false, reason: 'triggerOnHistorySizeCharsWhenCacheExpiring is 0 (disabled)' };
  }
  if (ttl - buffer <= 0) {
    return { scheduled: false, cacheAgeMs, delayMs, due: false, fire: false, reason: `cacheTTLMs ${fmt(ttl)} - bufferTimeBeforeCacheExpirationMs ${fmt(buffer)} <= 0: no timer is scheduled` };
  }
  const firesAt = cacheWrittenAt + ttl - buffer;
  const expiresAt = cacheWrittenAt + ttl;
  const due = delayMs <= 0;
  const formula = `delay = cacheTTLMs ${fmt(ttl)} - cacheAge ${fmt(cacheAgeMs)} - buffer ${fmt(buffer)} = ${fmt(delayMs)} ms`;
  const when = `cache written ${formatTime(cacheWrittenAt)}, timer at ${formatTime(firesAt)}, planned call ${formatTime(now)}`;
  const size = `history ${fmt(historySize)} ${historySize >= threshold ? '>=' : '<'} ${fmt(threshold)}`;
  if (!due) return { scheduled: true, cacheAgeMs, delayMs, firesAt, expiresAt, due, fire: false, reason: `${formula}: the timer has not fired yet, it would fire in ${fmt(delayMs)} ms (${when}; ${size} then)` };
  const fire = historySize >= threshold;
  return { scheduled: true, cacheAgeMs, delayMs, firesAt, expiresAt, due, fire, reason: `${formula}: the timer fired ${fmt(-delayMs)} ms before the planned call (${when}); ${size}` };
}
