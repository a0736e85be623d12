/**
 * What the page's context gauge counts for a branch, by the same selection a plan's or a replay's
 * input makes (scopedPath): never the agent's own compaction summaries on top of the history they
 * summarize.
 */
import type { Entry } from '../journal/entry.ts';
import type { UnseenPrefix } from '../replay/recorded-usage.ts';
import { branchUnseenPrefix } from '../replay/session-prefix.ts';
import { scopedPath } from './input.ts';
import { DEFAULT_REPLAY_FROM, type ReplayFrom } from './input-scope.ts';

/** The gauge's definition, in one sentence: its tooltip, and the docs say the same. */
export const GAUGE_COUNTS =
  'The context sent at the end of this branch as the Start choice reads it: from the first entry, every message and tool result with the agent’s own compaction summaries left out (the history they summarize is counted in full); from the last compaction the agent recorded, that summary, the entries it kept and what followed, the context the agent really had; plus the unseen prefix (system prompt, tool definitions).';

export interface GaugeContext {
  from: ReplayFrom;
  /** Tokens of the transcript's entries counted (counter units). */
  transcriptTokens: number;
  /** Entries counted. */
  entries: number;
  /** The agent's own compaction entries on the branch that are not counted. */
  compactionsLeftOut: number;
  unseenPrefix: UnseenPrefix;
}

/**
 * The gauge's figures for a branch given as journal indices root to leaf (`whole`), with the
 * journal's per-entry counts; `entered` is the user's unseen-prefix estimate (used where no call
 * recorded usage).
 */
export function gaugeContext(journal: readonly Entry[], whole: readonly number[], totals: ArrayLike<number>, from: ReplayFrom = DEFAULT_REPLAY_FROM, entered?: string): GaugeContext {
  const { path, kept, compactions } = scopedPath(journal, whole, from);
  const entries = path.map((index) => journal[index]!);
  const counts = path.map((index) => totals[index] ?? 0);
  let transcriptTokens = 0;
  for (const n of counts) transcriptTokens += n;
  const counted = new Set(path);
  return {
    from,
    transcriptTokens,
    entries: path.length,
    compactionsLeftOut: compactions.filter((index) => !counted.has(index)).length,
    // pi's kept entries are context, not calls: the prefix is read from the calls after them, as a plan reads it.
    unseenPrefix: branchUnseenPrefix(entries, counts, entered, kept > 0 ? 1 + kept : 0),
  };
}
