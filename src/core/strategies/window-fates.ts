/**
 * The fates of a window plan (sliding window, query on demand): every entry kept but those of the
 * groups before the window, which are dropped unless they are system entries or kept on purpose
 * (the task, pinned iterations). A replay plans at nearly every call while the window moves
 * forward, so the fates continue the last plan's for the branch: its list copied, the entries
 * between the old and the new cut dropped, and the context builder told where the two first differ.
 */
import type { CompactionInput, Fate } from '../compaction/types.ts';
import { allKeep, fatesDerived } from './context-builder.ts';
import { dropOld, systemIndices } from './group-facts.ts';
import type { IterationGroup } from './iteration-index.ts';
import { countBelow } from './num-list.ts';

export interface WindowFates {
  fates: Fate[];
  /** Entries dropped and their tokens (as `dropOld` counts them). */
  dropped: number;
  droppedTokens: number;
}

/** The last window plan's fates and what they were made from. One slot: the lists are as long as the branch. */
interface Last {
  fates: readonly Fate[];
  n: number;
  from: number;
  cut: number;
  /** The window's first group then, and its place: the same object there means the same groups before it. */
  start: number;
  startGroup: IterationGroup;
  kept: ReadonlySet<number>;
}

let last: Last | undefined;

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function isSystem(input: CompactionInput, i: number): boolean {
  const entry = input.entries[i]!;
  return entry.role === 'system' && entry.kind === 'message';
}

/**
 * Fates keeping `groups[start..]` and everything outside the groups before it, but `kept`; the
 * same list and counts as `dropOld` on a list of keeps.
 */
export function windowFates(input: CompactionInput, groups: readonly IterationGroup[], start: number, kept: ReadonlySet<number>): WindowFates {
  const n = input.entries.length;
  const startGroup = groups[start]!;
  const cut = startGroup.indices[0]!;
  const from = groups[0]?.indices[0] ?? cut;
  const l = last;
  if (!l || l.n > n || l.from !== from || from > l.cut || l.cut > cut || groups[l.start] !== l.startGroup || !sameSet(l.kept, kept)) {
    const fates = allKeep(n);
    const counts = dropOld(input, fates, groups, cut, kept);
    last = { fates, n, from, cut, start, startGroup, kept };
    return { fates, ...counts };
  }
  // The groups before the old cut are the same: so are the fates there. Those after it are redone.
  const fates = n > l.n ? l.fates.concat(allKeep(n - l.n)) : l.fates.slice();
  const system = systemIndices(input.entries);
  if (cut > l.cut) {
    fates.fill('drop', l.cut, cut);
    for (let k = countBelow(system, l.cut); k < system.length && system[k]! < cut; k++) fates[system[k]!] = 'keep';
    for (const i of kept) if (i >= l.cut && i < cut) fates[i] = 'keep';
  }
  fatesDerived(fates, l.fates, l.cut);
  last = { fates, n, from, cut, start, startGroup, kept };
  // The counts in `dropOld`'s order of operations (the same sums to the last bit).
  if (from >= cut) return { fates, dropped: 0, droppedTokens: 0 };
  let dropped = cut - from;
  let droppedTokens = input.tokens.range(from, cut - 1);
  for (let k = countBelow(system, from); k < system.length && system[k]! < cut; k++) {
    dropped--;
    droppedTokens -= input.tokens.countAt(system[k]!);
  }
  for (const i of kept) {
    if (i < from || i >= cut || isSystem(input, i)) continue;
    dropped--;
    droppedTokens -= input.tokens.countAt(i);
  }
  return { fates, dropped, droppedTokens };
}
