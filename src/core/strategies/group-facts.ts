/**
 * Facts the window strategies read about the older part of a branch at every call of a replay,
 * kept as the branch grows instead of read again from the start: which iteration groups hold a
 * pinned entry (running counts over the shared group objects) and where the system entries are;
 * and the drop of everything older than a window in one fill.
 * A group object is made once and replaced when it changes, so the same object at the same place
 * means the same groups before it.
 */
import type { CompactionInput, Fate } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { BranchScans } from './branch-scan.ts';
import type { IterationGroup } from './iteration-index.ts';
import { countBelow } from './num-list.ts';

class PinnedGroups {
  /** The groups read, in order, and the positions of those holding a pinned entry. */
  readonly seen: IterationGroup[] = [];
  readonly pinnedAt: number[] = [];

  constructor(readonly pinned: CompactionInput['pinned']) {}

  /** Reads `groups[0..upTo)`, first dropping what it read of groups since replaced. */
  advance(input: CompactionInput, groups: readonly IterationGroup[], upTo: number): void {
    let n = Math.min(this.seen.length, upTo);
    while (n > 0 && this.seen[n - 1] !== groups[n - 1]) n--;
    if (n < this.seen.length) {
      this.seen.length = n;
      while (this.pinnedAt.length > 0 && this.pinnedAt[this.pinnedAt.length - 1]! >= n) this.pinnedAt.pop();
    }
    for (let k = n; k < upTo; k++) {
      const group = groups[k]!;
      this.seen.push(group);
      if (group.indices.some((i) => input.pinned?.has(input.entries[i]!.id) || input.entries[i]!.flags?.pinned)) this.pinnedAt.push(k);
    }
  }
}

const pinnedScans = new WeakMap<IterationGroup, PinnedGroups>();

/** Positions (ascending) of the groups among `groups[0..upTo)` that hold an entry the user pinned. */
export function pinnedGroupsBefore(input: CompactionInput, groups: readonly IterationGroup[], upTo: number): number[] {
  const first = groups[0];
  if (!first || upTo === 0) return [];
  // Group objects belong to one branch (its iteration index), and an entry's pin flag comes with
  // the entry: the same groups read from another array of that branch hold the same pins.
  let scan = pinnedScans.get(first);
  if (!scan || scan.pinned !== input.pinned) {
    scan = new PinnedGroups(input.pinned);
    pinnedScans.set(first, scan);
  }
  scan.advance(input, groups, upTo);
  const out: number[] = [];
  for (const k of scan.pinnedAt) {
    if (k >= upTo) break;
    out.push(k);
  }
  return out;
}

class SystemEntries {
  readonly at: number[] = [];

  add(entry: Entry, index: number): void {
    if (entry.role === 'system' && entry.kind === 'message') this.at.push(index);
  }
}

const systemScans = new BranchScans(() => new SystemEntries());

/** Input indices of the system entries of `entries`, ascending (read-only: shared with later calls). */
export function systemIndices(entries: readonly Entry[]): readonly number[] {
  return systemScans.of(entries).at;
}

/**
 * Marks every entry of the groups before input index `cut` as dropped, but `kept`. The groups
 * split the non-system entries into consecutive runs, so they are the range from the first
 * group's first entry to `cut` less its system entries: one fill, not a walk over every group.
 */
export function dropOld(
  input: CompactionInput, fates: Fate[], groups: readonly IterationGroup[], cut: number, kept: ReadonlySet<number>,
): { dropped: number; droppedTokens: number } {
  const from = groups[0]?.indices[0] ?? cut;
  if (from >= cut) return { dropped: 0, droppedTokens: 0 };
  fates.fill('drop', from, cut);
  let dropped = cut - from;
  let droppedTokens = input.tokens.range(from, cut - 1);
  const system = systemIndices(input.entries);
  for (let k = countBelow(system, from); k < system.length && system[k]! < cut; k++) {
    fates[system[k]!] = 'keep';
    dropped--;
    droppedTokens -= input.tokens.countAt(system[k]!);
  }
  for (const i of kept) {
    if (i < from || i >= cut || fates[i] !== 'drop') continue;
    fates[i] = 'keep';
    dropped--;
    droppedTokens -= input.tokens.countAt(i);
  }
  return { dropped, droppedTokens };
}

/**
 * The entries of the groups before input index `cut` that are not in `kept`: how many, their
 * tokens, the first and the last (the range from the first group's first entry to `cut` less its
 * system entries and `kept`). `first` and `last` are -1 when there is none.
 */
export function oldRange(
  input: CompactionInput, groups: readonly IterationGroup[], cut: number, kept: ReadonlySet<number>,
): { count: number; tokens: number; first: number; last: number } {
  const from = groups[0]?.indices[0] ?? cut;
  if (from >= cut) return { count: 0, tokens: 0, first: -1, last: -1 };
  let count = cut - from;
  let tokens = input.tokens.range(from, cut - 1);
  const system = systemIndices(input.entries);
  for (let k = countBelow(system, from); k < system.length && system[k]! < cut; k++) {
    count--;
    tokens -= input.tokens.countAt(system[k]!);
  }
  for (const i of kept) {
    if (i < from || i >= cut || isSystem(input.entries[i]!)) continue;
    count--;
    tokens -= input.tokens.countAt(i);
  }
  const out = (i: number) => isSystem(input.entries[i]!) || kept.has(i);
  let first = from;
  while (first < cut && out(first)) first++;
  let last = cut - 1;
  while (last >= from && out(last)) last--;
  return count > 0 ? { count, tokens, first, last } : { count: 0, tokens: 0, first: -1, last: -1 };
}

function isSystem(entry: Entry): boolean {
  return entry.role === 'system' && entry.kind === 'message';
}
