/** Keeps tool calls and their results together when augment decides what stays verbatim. */
import type { CompactionInput, Fate } from '../../compaction/types.ts';
import { branchIndex } from './branch-index.ts';

/**
 * Closes the kept set over tool pairs: a kept result keeps the entry holding its call, and a kept
 * call keeps the entries holding its results (a pinned exchange can straddle an earlier summary's
 * boundary). Only entries before `limit` are changed. Returns how many entries it had to keep.
 */
export function keepToolPairs(entries: CompactionInput['entries'], fates: Fate[], limit: number): number {
  const index = branchIndex(entries);
  const none: readonly number[] = [];
  let changed = 0;
  const queue: number[] = [];
  for (let i = 0; i < fates.length; i++) if (fates[i] === 'keep') queue.push(i);
  while (queue.length > 0) {
    const i = queue.pop()!;
    for (const block of entries[i]!.blocks) {
      let partners = none;
      if (block.type === 'tool_call') partners = index.resultsOf(block.callId);
      else if (block.type === 'tool_result') {
        const call = index.lastCallOf(block.callId);
        partners = call === undefined ? none : [call];
      }
      for (const j of partners) {
        if (j < limit && fates[j] !== 'keep') {
          fates[j] = 'keep';
          changed++;
          queue.push(j);
        }
      }
    }
  }
  return changed;
}
