/**
 * The tool-output rewrites of the iteration groups older than a masking window, kept across the
 * calls of a replay: the window only moves forward, so each call reads the groups that newly left
 * it instead of every older group again. Prefix sums of the tokens saved answer "how much does
 * masking save from entry i on" in O(log n).
 */
import type { CompactionInput } from '../../compaction/types.ts';
import type { Block } from '../../journal/entry.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import type { IterationGroup } from '../sliding-window.ts';
import { isPinned, rewriteEntry, type Rewrite } from './rewrite.ts';

export type MaskBlock = (block: Block, own: () => number) => Block | undefined;

/** The masking of groups [0, upTo): what is rewritten, and what stays and why. */
export interface MaskedGroups {
  /** Rewrites, ascending by input index (read-only: later calls append to it; read its first entries at once). */
  masked: readonly Rewrite[];
  /** saved[k] = tokens the first k rewrites save (read at once: later calls append to it). */
  saved: readonly number[];
  /** Tool-output entries left verbatim: in a pinned group, or no longer than their placeholder. */
  pinned: number;
  small: number;
}

interface Run extends MaskedGroups {
  masked: Rewrite[];
  saved: number[];
  upTo: number;
  last: IterationGroup | undefined;
  pinnedIds: CompactionInput['pinned'];
}

/** One run per (counter, mask, first group): groups are immutable objects shared by every call on a branch. */
const runs = new WeakMap<TokenCounter, WeakMap<MaskBlock, WeakMap<IterationGroup, Run>>>();

function runsOf(counter: TokenCounter, mask: MaskBlock): WeakMap<IterationGroup, Run> {
  let byMask = runs.get(counter);
  if (!byMask) runs.set(counter, (byMask = new WeakMap()));
  let byGroup = byMask.get(mask);
  if (!byGroup) byMask.set(mask, (byGroup = new WeakMap()));
  return byGroup;
}

/**
 * Masks the tool outputs of `groups[0..upTo)`. A group with a pinned entry stays whole; an output
 * no longer than its placeholder stays (masking would grow it).
 */
export function maskedGroups(input: CompactionInput, groups: readonly IterationGroup[], upTo: number, mask: MaskBlock): MaskedGroups {
  const first = groups[0];
  if (!first || upTo === 0) return { masked: [], saved: [0], pinned: 0, small: 0 };
  const cache = runsOf(input.counter, mask);
  let run = cache.get(first);
  const continues = run !== undefined && run.pinnedIds === input.pinned && run.upTo <= upTo && (run.upTo === 0 || groups[run.upTo - 1] === run.last);
  if (!run || !continues) {
    run = { masked: [], saved: [0], pinned: 0, small: 0, upTo: 0, last: undefined, pinnedIds: input.pinned };
    cache.set(first, run);
  }
  for (let k = run.upTo; k < upTo; k++) read(input, groups[k]!, run, mask);
  run.upTo = upTo;
  run.last = groups[upTo - 1];
  // The sums only grow at their end: the first masked.length + 1 of them stay valid.
  // The run only grows at its end while the window moves forward: its rewrites are handed out as they are.
  return { masked: run.masked, saved: run.saved, pinned: run.pinned, small: run.small };
}

function read(input: CompactionInput, group: IterationGroup, run: Run, mask: MaskBlock): void {
  const pinned = group.indices.some((i) => isPinned(input, input.entries[i]!));
  for (const i of group.indices) {
    if (!input.entries[i]!.blocks.some((b) => b.type === 'tool_result')) continue;
    if (pinned) {
      run.pinned++;
      continue;
    }
    const r = rewriteEntry(input, i, mask);
    if (!r || r.tokensAfter >= r.tokensBefore) {
      run.small++;
      continue;
    }
    run.masked.push(r);
    run.saved.push(run.saved[run.saved.length - 1]! + r.tokensBefore - r.tokensAfter);
  }
}

/** Position of the first rewrite at input index `from` or later. */
export function firstFrom(masked: readonly Rewrite[], from: number): number {
  let lo = 0;
  let hi = masked.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (masked[mid]!.index < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
