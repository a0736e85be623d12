/**
 * The branches of an open journal and its entries by id, worked out in short slices that yield to
 * the browser: a large import (a hundred thousand entries) opens without one long main-thread task,
 * and a click meanwhile is answered at once. A journal that takes less than one slice is done
 * during the render. The walk is the store's (store/journal-branches.ts); this hook gives it the thread.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import { branchWork, stepUntil, type BranchWork, type JournalBranches } from '../../store/journal-branches.ts';

export type { JournalBranches } from '../../store/journal-branches.ts';

/** Main-thread time one slice may take before the page gets the thread back. Default 8. Unit: ms. */
export const BRANCH_SLICE_MS = 8;

/** Steps `work` for up to `budgetMs`; true once its branches are known. */
const stepFor = (work: BranchWork, budgetMs: number) => stepUntil(work, performance.now() + budgetMs);

/** The journal's branches and entries by id, or undefined while they are still being worked out. */
export function useBranches(entries: readonly Entry[]): JournalBranches | undefined {
  const work = useMemo(() => {
    const started = branchWork(entries);
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
