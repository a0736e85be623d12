/**
 * Builds what a strategy is given from a stored journal: the chosen branch (root to leaf), without
 * harness events and subagent traffic, optionally cut at an earlier point in time, with the cached
 * per-entry token counts re-indexed to that order.
 *
 * Where it starts (`from`, see `input-scope.ts`): by default at the first entry of the branch. The
 * file holds the whole history, so the compactions the source agent recorded are left out: their
 * summaries stand for history the input already holds verbatim, and a replay compacts it by its own
 * strategy. Counting both would count that history twice. With `from: 'last-compaction'` the input
 * is what the source agent's model saw after its last compaction: that summary, then the entries it
 * kept from `firstKeptEntryId` on (pi, OpenHands, Factory Droid), as the agent rebuilt its context,
 * then what followed; the kept entries are context there, not calls to replay (`firstCall`).
 */
import { nextCallAt } from '../journal/clock.ts';
import type { Entry } from '../journal/entry.ts';
import { activeLeaf, pathTo } from '../journal/tree.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import { DEFAULT_REPLAY_FROM, inputScope, isSourceCompaction, type InputScope, type ReplayFrom } from './input-scope.ts';
import type { CompactionInput, PreviousCompaction } from './types.ts';

export interface BuildInputOptions {
  /** Leaf of the branch to compact (default: the active branch). */
  leafId?: string;
  /** Compact as of this journal index (inclusive): later entries are ignored (a point in time). */
  upTo?: number;
  /** Where the input starts (default 'start': the first entry; the source's own compactions left out). */
  from?: ReplayFrom;
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
  /** Journal index of each input entry (pi's kept entries follow the summary they come after in the file). */
  journalIndex: number[];
  /** Input index of the first entry whose reply is a call to replay (0; after pi's kept entries when continuing from its compaction). */
  firstCall: number;
  /** Where the input starts, what it holds and why. */
  scope: InputScope;
  /** Why the input starts where it starts, when the source agent recorded a compaction on the branch. */
  note?: string;
}

/** The entries of a branch a scope reads, as journal indices (scopedPath). */
export interface ScopedPath {
  /** The branch's model-context entries (no harness events, no subagent traffic), the source's compactions included. */
  branch: number[];
  /** The entries read, in order: the branch without the source's compactions, or its last summary, pi's kept entries and what followed. */
  path: number[];
  /** pi entries kept after the summary the path starts at. */
  kept: number;
  /** Position in `branch` of the source summary the path starts at; -1 from the first entry. */
  last: number;
  /** The source's compactions on the branch (boundary lines and summaries), as journal indices. */
  compactions: number[];
}

/**
 * What `from` reads of a branch given as journal indices root to leaf (`whole`): the one selection
 * behind a plan's or a replay's input and the page's gauge.
 */
export function scopedPath(journal: readonly Entry[], whole: readonly number[], from: ReplayFrom = DEFAULT_REPLAY_FROM): ScopedPath {
  const branch = whole.filter((index) => {
    const entry = journal[index];
    return entry !== undefined && entry.kind !== 'event' && !entry.flags?.sidechain;
  });
  const compactions = branch.filter((index) => isSourceCompaction(journal[index]!));
  // The source agent's own last summary (a Claude Code boundary line is not one: its summary follows it).
  let last = -1;
  for (let i = branch.length - 1; i >= 0 && from === 'last-compaction'; i--) {
    const entry = journal[branch[i]!]!;
    if (isSourceCompaction(entry) && entry.role === 'summary') {
      last = i;
      break;
    }
  }
  if (last < 0) return { branch, path: branch.filter((index) => !isSourceCompaction(journal[index]!)), kept: 0, last, compactions };
  // pi keeps the entries from `firstKeptEntryId` up to the compaction (its compactions excepted);
  // that entry may be a line that is no model context, so it is looked for on the whole path.
  const keptId = journal[branch[last]!]!.marker?.firstKeptEntryId;
  const keptAt = keptId === undefined ? -1 : whole.findIndex((index) => journal[index]?.id === keptId);
  const keptFrom = keptAt < 0 ? Number.POSITIVE_INFINITY : keptAt;
  const position = new Map(whole.map((index, i) => [index, i]));
  const keptPath = branch.slice(0, last).filter((index) => position.get(index)! >= keptFrom && !isSourceCompaction(journal[index]!));
  return { branch, path: [branch[last]!, ...keptPath, ...branch.slice(last + 1)], kept: keptPath.length, last, compactions };
}

export function buildInput(journal: readonly Entry[], totals: ArrayLike<number>, counter: TokenCounter, options: BuildInputOptions): BuiltInput {
  const leaf = options.leafId ?? activeLeaf(journal)?.id;
  let whole = leaf ? pathTo(journal, leaf) : journal.map((entry) => entry.index);
  if (options.upTo !== undefined) whole = whole.filter((index) => index <= options.upTo!);
  const from = options.from ?? DEFAULT_REPLAY_FROM;
  const { branch, path, kept, last, compactions } = scopedPath(journal, whole, from);
  const entries = path.map((index) => journal[index]!);
  const counts = path.map((index) => totals[index] ?? 0);
  const firstCall = kept > 0 ? 1 + kept : 0;
  const scope = inputScope({
    journal, entries, firstCall, kept, requested: from,
    compactionLines: compactions.map((index) => journal[index]!).filter((entry) => entry.role === 'summary').map((entry) => entry.line),
    startedAt: last < 0 ? undefined : journal[branch[last]!],
    branchEntries: branch.map((index) => journal[index]!).filter((entry) => !isSourceCompaction(entry)),
  });
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
    firstCall,
    scope,
    ...(compactions.length > 0 ? { note: scope.note } : {}),
  };
}
