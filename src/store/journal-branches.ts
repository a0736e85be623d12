/**
 * The branches of an open journal and its entries by id, worked out in slices: the page steps the
 * work for a few milliseconds at a time and gives the thread back between steps, so a large import
 * (a hundred thousand entries) opens without one long main-thread task. The walk is the core's
 * (listBranchesInSteps); this holds where it stopped.
 */
import type { Entry } from '../core/journal/entry.ts';
import { DEFAULT_TREE_SLICE, listBranchesInSteps, type Branch } from '../core/journal/tree.ts';

export type { Branch } from '../core/journal/tree.ts';

export interface JournalBranches {
  /** Active branch first. */
  branches: Branch[];
  byId: ReadonlyMap<string, Entry>;
}

/** One journal's branch walk: step it until `branches` is set. */
export interface BranchWork {
  steps: Generator<void, JournalBranches, void>;
  branches?: JournalBranches;
}

function* journalSteps(entries: readonly Entry[], slice: number): Generator<void, JournalBranches, void> {
  const byId = new Map<string, Entry>();
  let visited = 0;
  for (const entry of entries) {
    byId.set(entry.id, entry);
    if (++visited % slice === 0) yield;
  }
  return { branches: yield* listBranchesInSteps(entries, slice), byId };
}

/** The walk over `entries`, not started; `slice` entries are visited between two pauses. */
export function branchWork(entries: readonly Entry[], slice = DEFAULT_TREE_SLICE): BranchWork {
  return { steps: journalSteps(entries, slice) };
}

/** Steps `work` until `now()` reaches `until` (checked between slices); true once its branches are known. */
export function stepUntil(work: BranchWork, until: number, now: () => number = () => performance.now()): boolean {
  while (work.branches === undefined) {
    const step = work.steps.next();
    if (step.done) work.branches = step.value;
    else if (now() >= until) return false;
  }
  return true;
}
