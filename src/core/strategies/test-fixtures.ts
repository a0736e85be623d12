/**
 * Helpers shared by the strategies' property tests: the run every invariant starts from (a plan and
 * the context assembled from it with the same summary text for every task), which must be
 * deterministic and must leave the input's entries as they were; and a branch grown one entry at a
 * time, as a replay grows it, for the checks that incremental state equals a fresh reading.
 */
import { expect } from 'vitest';
import type { Options, Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Plan, PreviousCompaction } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';

/** Plans and assembles with `summary` for every summary task; checks both are deterministic and the entries untouched. */
export function planAndAssemble<O extends Options>(
  strategy: Strategy<O>, input: CompactionInput, options: O, summary: string,
): { plan: Plan; context: CompactedContext } {
  const before = structuredClone(input.entries);
  const plan = strategy.plan(input, options);
  const summaries = new Map(plan.summaries.map((t) => [t.id, summary]));
  const context = strategy.assemble(input, plan, summaries, options);
  expect(strategy.plan(input, options)).toEqual(plan);
  expect(strategy.assemble(input, plan, summaries, options)).toEqual(context);
  expect(input.entries).toEqual(before);
  return { plan, context };
}

/** A branch growing as a replay grows it: the entries so far, and the state of the last compaction. */
export interface GrowingBranch {
  /** The branch so far (one array, extended in place). */
  live: Entry[];
  /** The last compaction's state; a test sets it after each run, for the later calls. */
  previous: PreviousCompaction | undefined;
  /** The input over `entries` (default: the branch so far) with their counts, the window and `previous`. */
  input(entries?: readonly Entry[]): CompactionInput;
}

/** A copy of the branch made of new objects: nothing kept for the growing branch applies to it. */
export const fresh = (entries: readonly Entry[]): Entry[] => structuredClone([...entries]);

/** Grows a branch from `all`, one entry at a time, calling `atEach` after each entry (its `now` is the last entry's time). */
export async function growBranch(
  all: readonly Entry[], counter: CompactionInput['counter'], contextWindow: number, atEach: (branch: GrowingBranch) => Promise<void>,
): Promise<void> {
  const counts = all.map((entry) => countEntry(entry, counter).total);
  const branch: GrowingBranch = {
    live: [],
    previous: undefined,
    input: (entries = branch.live) => ({
      entries, tokens: new TokenIndex(counts.slice(0, entries.length)), counter, contextWindow, now: entries.at(-1)?.timestamp ?? 0,
      ...(branch.previous ? { previous: branch.previous } : {}),
    }),
  };
  for (const entry of all) {
    branch.live.push(entry);
    await atEach(branch);
  }
}
