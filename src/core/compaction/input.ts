/**
 * Builds what a strategy is given from a stored journal: the chosen branch (root to leaf), without
 * harness events and subagent traffic, starting at the last compaction the source agent itself
 * recorded (that is what its model saw), optionally cut at an earlier point in time, with the
 * cached per-entry token counts re-indexed to that order.
 */
import { nextCallAt } from '../journal/clock.ts';
import type { Entry } from '../journal/entry.ts';
import { activeLeaf, pathTo } from '../journal/tree.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import type { CompactionInput, PreviousCompaction } from './types.ts';

export interface BuildInputOptions {
  /** Leaf of the branch to compact (default: the active branch). */
  leafId?: string;
  /** Compact as of this journal index (inclusive): later entries are ignored (a point in time). */
  upTo?: number;
  contextWindow: number;
  previous?: PreviousCompaction;
  pinned?: ReadonlySet<string>;
  /**
   * Clock of the plan, epoch ms. Default: the transcript's own time of the call being planned (the
   * latest timestamp of the input, as the replay does), else `wallClock` when no entry has one.
   */
  now?: number;
  /** The caller's clock, used only when no entry of the input has a timestamp. Default 0. */
  wallClock?: number;
}

export interface BuiltInput {
  input: CompactionInput;
  /** Journal index of each input entry. */
  journalIndex: number[];
  /** Why the input starts where it starts. */
  note?: string;
}

export function buildInput(journal: readonly Entry[], totals: ArrayLike<number>, counter: TokenCounter, options: BuildInputOptions): BuiltInput {
  const leaf = options.leafId ?? activeLeaf(journal)?.id;
  let path = leaf ? pathTo(journal, leaf) : journal.map((entry) => entry.index);
  if (options.upTo !== undefined) path = path.filter((index) => index <= options.upTo!);
  path = path.filter((index) => {
    const entry = journal[index];
    return entry !== undefined && entry.kind !== 'event' && !entry.flags?.sidechain;
  });
  let note: string | undefined;
  // The source agent's own last compaction: its model saw the summary and what followed. A pi
  // branch summary is not one: it is a message on the branch, after the history it continues.
  let start = 0;
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = journal[path[i]!];
    if (entry?.kind === 'compaction' && entry.role === 'summary' && entry.marker?.source !== 'pi.branch_summary') {
      start = i;
      note = `Starts at the compaction the source agent recorded at line ${entry.line}: entries before it were already replaced by that summary.`;
      break;
    }
  }
  path = path.slice(start);
  const entries = path.map((index) => journal[index]!);
  const counts = path.map((index) => totals[index] ?? 0);
  return {
    input: {
      entries,
      tokens: new TokenIndex(counts),
      counter,
      contextWindow: options.contextWindow,
      ...(options.previous ? { previous: options.previous } : {}),
      ...(options.pinned ? { pinned: options.pinned } : {}),
      now: options.now ?? nextCallAt(entries) ?? options.wallClock ?? 0,
    },
    journalIndex: path,
    ...(note ? { note } : {}),
  };
}
