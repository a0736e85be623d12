/** Keeps tool calls and their results together when augment decides what stays verbatim. */
import type { CompactionInput, Fate } from '../../compaction/types.ts';

/**
 * Closes the kept set over tool pairs: a kept result keeps the entry holding its call, and a kept
 * call keeps the entries holding its results (a pinned exchange can straddle an earlier summary's
 * boundary). Only entries before `limit` are changed. Returns how many entries it had to keep.
 */
export function keepToolPairs(entries: CompactionInput['entries'], fates: Fate[], limit: number): number {
  const callAt = new Map<string, number>();
  const resultsAt = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') callAt.set(block.callId, i);
      else if (block.type === 'tool_result') resultsAt.set(block.callId, [...(resultsAt.get(block.callId) ?? []), i]);
    }
  });
  let changed = 0;
  const queue = fates.flatMap((fate, i) => (fate === 'keep' ? [i] : []));
  while (queue.length > 0) {
    const i = queue.pop()!;
    for (const block of entries[i]!.blocks) {
      const partners = block.type === 'tool_call' ? (resultsAt.get(block.callId) ?? []) : block.type === 'tool_result' ? [callAt.get(block.callId)].filter((j): j is number => j !== undefined) : [];
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
