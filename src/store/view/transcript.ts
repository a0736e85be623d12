/**
 * The transcript as the page shows it: which leaf is shown (the one picked, else the active one),
 * the branch's journal indices root to leaf, its rows for a verbosity, a message's text and its
 * harness parts, and what the window gauge counts for the branch. The same core functions read
 * a journal for the CLI, so a branch or a count never differs between the two.
 */
import type { Entry } from '../../core/journal/entry.ts';
import { activeLeaf, pathTo, type Branch } from '../../core/journal/tree.ts';

export { entryText } from '../../core/journal/entry.ts';
export { messageParts } from '../../core/summarize/harness.ts';
export { VERBOSITIES, viewRows, type Verbosity, type ViewRow } from '../../core/journal/view-rows.ts';
export { gaugeContext, GAUGE_COUNTS, type GaugeContext } from '../../core/compaction/gauge-context.ts';
export { formatWindow, windowPresets } from '../../core/tokens/windows.ts';
export { SESSION_FACT_KEYS, sessionFacts } from '../../core/import/session-facts.ts';

/** The leaf shown: `chosen` while it still ends one of `branches`, else the journal's active leaf. */
export function shownLeaf(entries: readonly Entry[], branches: readonly Branch[], chosen: string | undefined): string | undefined {
  return chosen && branches.some((branch) => branch.leafId === chosen) ? chosen : activeLeaf(entries)?.id;
}

/** The journal indices shown, root to leaf: the whole journal when it has one branch (or no leaf). */
export function branchPath(entries: readonly Entry[], branchCount: number, leafId: string | undefined, byId: ReadonlyMap<string, Entry>): number[] {
  if (branchCount <= 1 || !leafId) return entries.map((entry) => entry.index);
  return pathTo(entries, leafId, byId);
}
