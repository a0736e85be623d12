/**
 * Sessions are trees (pi `parentId`, Claude Code `parentUuid` rewinds). This finds the branches —
 * leaves of the tree, not counting the fan-out a parallel tool call leaves behind — and the path
 * from the root to a chosen leaf, which is the conversation the model saw on that branch.
 */
import type { Entry } from './entry.ts';

export interface Branch {
  /** Id of the leaf entry that ends the branch. */
  leafId: string;
  /** Number of entries on the path root -> leaf. */
  length: number;
  /** Id of the entry where this branch leaves the active one (undefined for the active branch). */
  forkId?: string;
  /** First words of the leaf's last user message, for the picker. */
  label: string;
  active: boolean;
}

function childCounts(entries: readonly Entry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (entry.parentId !== null) counts.set(entry.parentId, (counts.get(entry.parentId) ?? 0) + 1);
  }
  return counts;
}

/** Leaves that end a real branch, in file order. Sidechain entries are not part of the main tree. */
export function branchLeaves(entries: readonly Entry[]): Entry[] {
  const main = entries.filter((entry) => !entry.flags?.sidechain);
  const counts = childCounts(main);
  const last = main[main.length - 1];
  return main.filter((entry) => {
    if ((counts.get(entry.id) ?? 0) > 0) return false;
    if (entry === last) return true;
    // A tool result left as a leaf by a parallel-call fan-out is not a branch.
    const siblingCount = entry.parentId === null ? 0 : (counts.get(entry.parentId) ?? 0);
    return !(entry.role === 'tool' && siblingCount > 1);
  });
}

/** The active leaf: the last main-chain entry in file order (the one appended last). */
export function activeLeaf(entries: readonly Entry[]): Entry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry && !entry.flags?.sidechain) return entry;
  }
  return undefined;
}

/** Indices of the entries on the path from the root to `leafId`, in order. */
export function pathTo(entries: readonly Entry[], leafId: string, byId: ReadonlyMap<string, Entry> = indexById(entries)): number[] {
  const path: number[] = [];
  const seen = new Set<string>();
  let current = byId.get(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current.index);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return path.reverse();
}

function indexById(entries: readonly Entry[]): Map<string, Entry> {
  const byId = new Map<string, Entry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return byId;
}

/** All branches with their lengths and fork points; the active one first. O(entries) overall. */
export function listBranches(entries: readonly Entry[]): Branch[] {
  const leaves = branchLeaves(entries);
  const active = activeLeaf(entries);
  const byId = indexById(entries);
  const activePath = new Set(active ? pathTo(entries, active.id, byId) : []);
  const branches = leaves.map((leaf): Branch => {
    // Walk up only until the active path is reached: that entry is the fork.
    let length = 0;
    let forkIndex: number | undefined;
    let label: string | undefined;
    let current: Entry | undefined = leaf;
    const seen = new Set<string>();
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      if (activePath.has(current.index) && leaf.id !== active?.id) {
        forkIndex = current.index;
        break;
      }
      length++;
      if (label === undefined && current.role === 'user' && !current.flags?.injected) label = firstText(current);
      current = current.parentId === null ? undefined : byId.get(current.parentId);
    }
    if (forkIndex !== undefined) {
      const forkPathLength = pathTo(entries, entries[forkIndex]!.id, byId).length;
      length += forkPathLength;
      if (label === undefined) label = labelOnPath(entries, pathTo(entries, entries[forkIndex]!.id, byId));
    }
    return {
      leafId: leaf.id,
      length,
      forkId: forkIndex === undefined ? undefined : entries[forkIndex]?.id,
      label: label ?? '(no user message)',
      active: leaf.id === active?.id,
    };
  });
  return branches.sort((a, b) => Number(b.active) - Number(a.active));
}

function firstText(entry: Entry): string | undefined {
  const text = entry.blocks.find((block) => block.type === 'text');
  return text && text.type === 'text' ? text.text.slice(0, 60) : undefined;
}

function labelOnPath(entries: readonly Entry[], path: number[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = entries[path[i] ?? -1];
    if (entry?.role === 'user' && !entry.flags?.injected) {
      const text = firstText(entry);
      if (text !== undefined) return text;
    }
  }
  return undefined;
}
