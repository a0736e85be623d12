/**
 * Builds the context opencode has after a compaction (the initial context, the summary, the recent
 * tail verbatim) or after a pruning (the same context with old tool outputs cleared). The state for
 * the next run names these items, the last entry covered and the outputs pruned so far.
 */
import { contextTokens } from '../../compaction/context-tokens.ts';
import type { CompactedContext, CompactionInput, ContextEntry, Plan, PreviousCompaction } from '../../compaction/types.ts';
import { agentPrevious, journalItem, madeUserItem } from '../agent-state.ts';
import { formatNumber as fmt } from '../format-number.ts';
import type { Rewrite } from '../masking/rewrite.ts';
import { needSummary } from '../sliding-window.ts';
import type { OpencodeOptions } from './options.ts';
import { OPENCODE_ID, OPENCODE_TASK, opencodeNow } from './plan.ts';
import { pruneRewrites, scanPrune, type PrunedOutput } from './prune.ts';

/** Opens the summary message. */
export const OPENCODE_SUMMARY_LEAD = 'Summary of the conversation so far, written to continue it:';

function withRewrites(input: CompactionInput, from: number, rewrites: readonly Rewrite[]): ContextEntry[] {
  const by = new Map(rewrites.map((r) => [r.index, r]));
  return input.entries.slice(from).map((entry, k) => {
    const r = by.get(from + k);
    return r ? { role: entry.role, entry: r.entry, origin: 'compressed' as const } : journalItem(entry);
  });
}

function stateWith(previous: PreviousCompaction, pruned: PrunedOutput[]): PreviousCompaction {
  return { ...previous, state: { ...previous.state, pruned } };
}

export function assembleOpencode(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: OpencodeOptions): CompactedContext {
  const now = opencodeNow(input);
  const { view } = now;
  const earlier = input.previous?.strategy === OPENCODE_ID ? input.previous : undefined;
  const kept = { strategy: OPENCODE_ID, summaries: earlier?.summaries ?? [], state: { throughId: '', items: [], ...earlier?.state } } as PreviousCompaction;
  if (plan.nothingToDo !== undefined || plan.summaries.length === 0) {
    let pruned = now.pruned;
    if (plan.nothingToDo === undefined) {
      const scan = scanPrune(input, view.start, new Set(pruned.map((p) => p.callId)), options.pruneProtectTokens, options.pruneMinimumTokens);
      pruned = [...pruned, ...scan.cleared];
    }
    const entries = [...view.items, ...withRewrites(input, view.start, pruneRewrites(input, view.start, pruned))];
    const added = pruned.length - now.pruned.length;
    return {
      entries, tokensAfter: contextTokens(input, entries), previous: stateWith(kept, pruned),
      truncationApplied: false, summaryApplied: false,
      notes: plan.nothingToDo !== undefined ? [plan.nothingToDo] : [`Pruned ${added} old tool output(s). ${fmt(plan.tokensBefore)} -> ${fmt(contextTokens(input, entries))} tokens (${input.counter.label}).`],
    };
  }
  const summary = needSummary(summaries, OPENCODE_TASK, 'opencode');
  const task = plan.summaries[0]!;
  const indices = task.indices!;
  const tail = plan.cut?.index ?? input.entries.length;
  const out: ContextEntry[] = [];
  plan.fates.forEach((fate, i) => {
    if (fate === 'keep' && i < tail) out.push(journalItem(input.entries[i]!));
  });
  const first = input.entries[indices[0]!]!;
  const last = input.entries[indices[indices.length - 1]!]!;
  const text = `${OPENCODE_SUMMARY_LEAD}\n\n${summary}`;
  out.push(madeUserItem(input, `opencode-summary:${last.id}`, text, 'summary', { from: first, to: last, count: indices.length }));
  const tailRewrites = now.rewrites.filter((r) => r.index >= tail);
  out.push(...withRewrites(input, tail, tailRewrites));
  const tailIds = new Set(input.entries.slice(tail).map((e) => e.id));
  const tokensAfter = contextTokens(input, out);
  return {
    entries: out, tokensAfter,
    previous: stateWith(agentPrevious(OPENCODE_ID, input, out, [text]), now.pruned.filter((p) => tailIds.has(p.entryId))),
    truncationApplied: false, summaryApplied: true,
    notes: [`The summary replaces ${indices.length} entries; ${input.entries.length - tail} recent entries kept verbatim. ${fmt(plan.tokensBefore)} -> ${fmt(tokensAfter)} tokens (${input.counter.label}).`],
  };
}
