/**
 * The branches of an open journal and its entries by id, worked out in short slices that yield to
 * the browser: a large import (a hundred thousand entries) opens without one long main-thread task,
 * and a click meanwhile is answered at once. A journal that takes less than one slice is done
 * during the render.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import { DEFAULT_TREE_SLICE, listBranchesInSteps, type Branch } from '../../core/journal/tree.ts';

/** Main-thread time one slice may take before the page gets the thread back. Default 8. Unit: ms. */
export const BRANCH_SLICE_MS = 8;

export interface JournalBranches {
  /** Active branch first. */
  branches: Branch[];
  byId: ReadonlyMap<string, Entry>;
}

interface BranchWork {
  steps: Generator<void, JournalBranches, void>;
  branches?: JournalBranches;
}

function* journalSteps(entries: readonly Entry[]): Generator<void, JournalBranches, void> {
  const byId = new Map<string, Entry>();
  let visited = 0;
  for (const entry of entries) {
    byId.set(entry.id, entry);
    if (++visited % DEFAULT_TREE_SLICE === 0) yield;
  }
  return { branches: yield* listBranchesInSteps(entries), byId };
}

/** Steps `work` for up to `budgetMs`; true once its branches are known. */
function stepFor(work: BranchWork, budgetMs: number): boolean {
  const until = performance.now() + budgetMs;
  while (work.branches === undefined) {
    const step = work.steps.next();
    if (step.done) work.branches = step.value;
    else if (performance.now() >= until) return false;
  }
  return true;
}

/** The journal's branches and entries by id, or undefined while they are still being worked out. */
export function useBranches(entries: readonly Entry[]): JournalBranches | undefined {
  const work = useMemo(() => {
    const started: BranchWork = { steps: journalSteps(entries) };
    stepFor(started, BRANCH_SLICE_MS);
    return started;
  }, [entries]);
  const [finished, setFinished] = useState<{ work: BranchWork; branches: JournalBranches }>();
  useEffect(() => {
    if (work.branches !== undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      if (stepFor(work, BRANCH_SLICE_MS) && work.branches) setFinished({ work, branches: work.branches });
      else timer = setTimeout(next, 0);
    };
    timer = setTimeout(next, 0);
    return () => clearTimeout(timer);
  }, [work]);
  if (work.branches !== undefined) return work.branches;
  return finished?.work === work ? finished.branches : undefined;
}
