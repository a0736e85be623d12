/**
 * The transcript's own clock: a recorded session says when each entry happened, so time-based
 * decisions (augment's cache-expiry timer) are taken at the transcript's moments, never at the
 * moment someone happens to look at it. Shared by the replay (each call) and a single plan (the
 * call that would follow the last entry).
 */
import type { Entry } from './entry.ts';

/** For each index, the latest recorded time at or before it (the clock of the session there). */
export function clockOf(entries: readonly Entry[]): Array<number | undefined> {
  let last: number | undefined;
  return entries.map((entry) => (last = entry.timestamp ?? last));
}

/**
 * When the call after `entries` would be sent, in the transcript's time: the latest timestamp
 * recorded (the replay asks each call at the time of the entry before it). Undefined when no entry
 * has a timestamp.
 */
export function nextCallAt(entries: readonly Entry[]): number | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const at = entries[i]!.timestamp;
    if (at !== undefined) return at;
  }
  return undefined;
}

/** "2026-03-02 09:04:30 UTC": a transcript time as people read it, the same in every locale. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
