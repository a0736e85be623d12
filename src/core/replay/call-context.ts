/**
 * The context a replay sent at one call, rebuilt from a stored result: the last compaction's
 * context (if any) followed by the recorded entries appended since. What the Compare tab shows
 * when the user opens a call; the worker builds it from the saved comparison.
 */
import { compactionContext } from './compaction-context.ts';
import type { ContextRef, ReplayCompaction, ReplayResult } from './types.ts';

/** The last compaction that ran at or before call `k` (the one whose context call k builds on). */
export function compactionBefore<C extends Pick<ReplayCompaction, 'call'>>(result: { compactions: readonly C[] }, k: number): { compaction: C; index: number } | undefined {
  for (let i = result.compactions.length - 1; i >= 0; i--) {
    const compaction = result.compactions[i]!;
    if (compaction.call <= k) return { compaction, index: i };
  }
  return undefined;
}

/**
 * The context the model was sent at call `k`: the last compaction's context (if any) followed by
 * the recorded entries appended since, up to (not including) the entry that answered the call.
 */
export function contextAtCall(result: ReplayResult, entryIds: readonly string[], k: number): ContextRef[] {
  const call = result.calls[k];
  if (!call) return [];
  const before = compactionBefore(result, k);
  const from = before ? before.compaction.appendFrom : 0;
  const appended = entryIds.slice(from, Math.max(from, call.entryIndex)).map((entryId): ContextRef => ({ origin: 'journal', entryId }));
  return before ? [...compactionContext(result.compactions, before.index, entryIds), ...appended] : appended;
}
