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

/** Entries visited between two pauses of `listBranchesInSteps`. Default 2,000. */
export const DEFAULT_TREE_SLICE = 2_000;

/** The entries from `leafId` up to its root, leaf first (a cycle stops the walk). */
function* ancestors(byId: ReadonlyMap<string, Entry>, leafId: string): Generator<Entry, void, void> {
  const seen = new Set<string>();
  let current = byId.get(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    yield current;
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
}

/** Indices of the entries on the path from the root to `leafId`, in order. */
export function pathTo(entries: readonly Entry[], leafId: string, byId: ReadonlyMap<string, Entry> = indexById(entries)): number[] {
  const path: number[] = [];
  for (const entry of ancestors(byId, leafId)) path.push(entry.index);
  return path.reverse();
}

function indexById(entries: readonly Entry[]): Map<string, Entry> {
  const byId = new Map<string, Entry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return byId;
}

/** All branches with their lengths and fork points; the active one first. O(entries) overall. */
export function listBranches(entries: readonly Entry[]): Branch[] {
  const steps = listBranchesInSteps(entries, Number.POSITIVE_INFINITY);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `listBranches` as steps: it pauses (yields) after about every `slice` entries it visits, so a
 * page can spread a journal of a hundred thousand entries over short tasks. Same result.
 */
export function* listBranchesInSteps(entries: readonly Entry[], slice = DEFAULT_TREE_SLICE): Generator<void, Branch[], void> {
  let visited = 0;
  const counts = new Map<string, number>();
  const byId = new Map<string, Entry>();
  let active: Entry | undefined;
  for (const entry of entries) {
    byId.set(entry.id, entry);
    if (!entry.flags?.sidechain) {
      active = entry;
      if (entry.parentId !== null) counts.set(entry.parentId, (counts.get(entry.parentId) ?? 0) + 1);
    }
    if (++visited % slice === 0) yield;
  }
  // Leaves in file order (as branchLeaves), then the active path.
  const leaves: Entry[] = [];
  for (const entry of entries) {
    if (!entry.flags?.sidechain && (counts.get(entry.id) ?? 0) === 0) {
      const siblingCount = entry.parentId === null ? 0 : (counts.get(entry.parentId) ?? 0);
      if (entry === active || !(entry.role === 'tool' && siblingCount > 1)) leaves.push(entry);
    }
    if (++visited % slice === 0) yield;
  }
  const activePath = new Set<number>();
  if (active) {
    for (const entry of ancestors(byId, active.id)) {
      activePath.add(entry.index);
      if (++visited % slice === 0) yield;
    }
  }
  const branches: Branch[] = [];
  for (const leaf of leaves) {
    // Walk up only until the active path is reached: that entry is the fork.
    let length = 0;
    let fork: Entry | undefined;
    let label: string | undefined;
    for (const current of ancestors(byId, leaf.id)) {
      if (++visited % slice === 0) yield;
      if (activePath.has(current.index) && leaf.id !== active?.id) {
        fork = current;
        break;
      }
      length++;
      if (label === undefined && current.role === 'user' && !current.flags?.injected) label = firstText(current);
    }
    if (fork !== undefined) {
      const forkPath = pathTo(entries, fork.id, byId);
      visited += forkPath.length;
      length += forkPath.length;
      if (label === undefined) label = labelOnPath(entries, forkPath);
    }
    branches.push({ leafId: leaf.id, length, forkId: fork?.id, label: label ?? '(no user message)', active: leaf.id === active?.id });
  }
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

/**
 * A memoized lookup of each entry's root: the topmost ancestor reachable through `parentId` (an
 * entry whose parent is null or not in `entries` is a root). A cycle stops the walk after as many
 * steps as there are entries. Paths already walked are remembered, so finding every root is linear.
 */
export function rootFinder(entries: readonly Entry[]): (entry: Entry) => string {
  const byId = indexById(entries);
  const rootOf = new Map<string, string>();
  return (entry) => {
    const path: Entry[] = [];
    let current: Entry = entry;
    let found: string;
    for (;;) {
      const known = rootOf.get(current.id);
      if (known !== undefined) {
        found = known;
        break;
      }
      path.push(current);
      found = current.id;
      const parent = current.parentId === null ? undefined : byId.get(current.parentId);
      if (parent === undefined || path.length > entries.length) break;
      current = parent;
    }
    for (const step of path) rootOf.set(step.id, found);
    return found;
  };
}
