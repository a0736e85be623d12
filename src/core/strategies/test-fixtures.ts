/**
 * Helpers shared by the strategies' property tests: the run every invariant starts from (a plan and
 * the context assembled from it with the same summary text for every task), which must be
 * deterministic and must leave the input's entries as they were; and a branch grown one entry at a
 * time, as a replay grows it, for the checks that incremental state equals a fresh reading; and the
 * real Claude Code sample the agents' own strategies are checked on, planned with offline summaries.
 */
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { buildInput } from '../compaction/input.ts';
import { taskRequest } from '../compaction/task-request.ts';
import { offlineSummaryText } from '../summarize/offline.ts';
import { importFile } from '../test-fixtures.ts';
import { getCounter } from '../tokens/counters.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Plan, PreviousCompaction } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { countEntries, countEntry } from '../tokens/entry-tokens.ts';
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

const CLAUDE_CODE_SAMPLE = resolve(import.meta.dirname, '../../../public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

/** The real Claude Code sample, counted with o200k, as an input at `contextWindow`. */
export async function claudeCodeSample(contextWindow: number): Promise<CompactionInput> {
  const imported = await importFile(CLAUDE_CODE_SAMPLE);
  const counter = await getCounter('o200k');
  return buildInput(imported.entries, countEntries(imported.entries, counter).totals, counter, { contextWindow }).input;
}

/** Plans and assembles from raw options (the agent's own spellings accepted), each summary the offline summarizer's text. */
export function planWithOfflineSummaries<O extends Options>(strategy: Strategy<O>, input: CompactionInput, raw: Record<string, unknown> = {}): { plan: Plan; context: CompactedContext } {
  const options = strategy.parse(raw);
  const plan = strategy.plan(input, options);
  const summaries = new Map(plan.summaries.map((task) => [task.id, offlineSummaryText(taskRequest(input, task))]));
  return { plan, context: strategy.assemble(input, plan, summaries, options) };
}
