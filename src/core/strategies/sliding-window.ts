/**
 * Sliding window (seed 003, "Simple Sliding Window", the default ContextBuilder): keep the system
 * entries, the initial task and the last N iterations verbatim; older iterations leave the context
 * (they stay in the journal). Also exports the iteration view and the context builder the other
 * simple strategies (checkpoints, two-layer, query-on-demand) share.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type {
  CompactedContext, CompactionInput, Fate, Plan, PreviousCompaction, StrategyId, TriggerDecision,
} from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { allKeep, buildEntries, countContext, journalItems } from './context-builder.ts';
import { pinnedGroupsBefore } from './group-facts.ts';
import { indexedIterationGroups, knownIterations, type IterationGroup } from './iteration-index.ts';
import { formatNumber } from './format-number.ts';
import { windowFates } from './window-fates.ts';

export type { IterationGroup } from './iteration-index.ts';
export { buildEntries, countContext, journalItems, type Insert } from './context-builder.ts';

// StrategyId is a closed union the lead widens when registering this strategy: until then, a cast.
export const SLIDING_WINDOW_ID = 'sliding-window' as StrategyId;


/** A system prompt of the input: never moved, never summarized. */
export function isSystemEntry(entry: Entry): boolean {
  return entry.role === 'system' && entry.kind === 'message';
}

function hasResult(entry: Entry): boolean {
  return entry.blocks.some((b) => b.type === 'tool_result');
}

/** For each index, the highest index of an entry its calls / results pair with (itself when none). */
function pairReach(entries: readonly Entry[]): number[] {
  const at = new Map(entries.map((e, i) => [e.id, i]));
  const callAt = new Map<string, number>();
  const reach = entries.map((_, i) => i);
  const link = (a: number, b: number) => {
    const hi = Math.max(a, b);
    reach[a] = Math.max(reach[a]!, hi);
    reach[b] = Math.max(reach[b]!, hi);
  };
  entries.forEach((entry, i) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        if (!callAt.has(block.callId)) callAt.set(block.callId, i);
        const j = block.resultEntryId === undefined ? undefined : at.get(block.resultEntryId);
        if (j !== undefined) link(i, j);
      } else if (block.type === 'tool_result') {
        const j = block.callEntryId === undefined ? callAt.get(block.callId) : at.get(block.callEntryId);
        if (j !== undefined) link(i, j);
      }
    }
  });
  return reach;
}

/**
 * The input's iterations, oldest first, merged where a call/result pair would span two of them.
 * Read-only: the groups of a growing branch are kept up to date entry by entry and shared.
 */
export function iterationGroups(entries: readonly Entry[]): IterationGroup[] {
  return indexedIterationGroups(entries);
}

/** `iterationGroups` computed from the entries alone, reading every one. */
export function scanIterationGroups(entries: readonly Entry[]): IterationGroup[] {
  const raw: Array<{ indices: number[]; count: number }> = [];
  // 'lead': only user/other entries so far; 'assistant': the response; 'results': its tool results.
  let state: 'none' | 'lead' | 'assistant' | 'results' = 'none';
  const open = (count: number) => raw.push({ indices: [], count });
  entries.forEach((entry, i) => {
    if (isSystemEntry(entry)) return;
    if (hasResult(entry)) {
      if (state === 'none') open(0);
      state = 'results';
    } else if (entry.role === 'assistant') {
      if (state === 'none' || state === 'results') open(1);
      else if (state === 'lead') raw[raw.length - 1]!.count = 1;
      state = 'assistant';
    } else {
      if (state !== 'lead') open(0);
      state = 'lead';
    }
    raw[raw.length - 1]!.indices.push(i);
  });
  const reach = pairReach(entries);
  const groups: IterationGroup[] = [];
  let limit = -1;
  let seen = 0;
  for (const group of raw) {
    const last = groups[groups.length - 1];
    if (last && group.indices[0]! <= limit) {
      last.indices.push(...group.indices);
      last.count += group.count;
    } else {
      groups.push({ indices: [...group.indices], count: group.count, first: seen + 1 });
    }
    seen += group.count;
    for (const i of group.indices) limit = Math.max(limit, reach[i]!);
  }
  return groups;
}

export function totalIterations(groups: readonly IterationGroup[]): number {
  return knownIterations(groups) ?? groups.reduce((n, g) => n + g.count, 0);
}

/** Index into `groups` of the first group of the last `size` iterations (whole groups, so possibly a few more). */
export function windowStart(groups: readonly IterationGroup[], size: number): number {
  let n = 0;
  for (let k = groups.length - 1; k >= 0; k--) {
    n += groups[k]!.count;
    if (n >= size) return k;
  }
  return 0;
}

/** The initial task: the first user message with the user's own words (seed: [System + Task] always stays). */
export function taskIndex(entries: readonly Entry[]): number | undefined {
  const i = entries.findIndex((e) => e.role === 'user' && e.kind === 'message' && !e.flags?.injected && !hasResult(e)
    && e.blocks.some((b) => b.type === 'text' && b.text.trim() !== ''));
  return i < 0 ? undefined : i;
}

/** Options every simple strategy shares. */
export interface SimpleOptions {
  [name: string]: number | boolean | string;
  /** Keep the first user message (the task) verbatim even when its iteration leaves the window. Default true. */
  keepTask: boolean;
}

export const KEEP_TASK_OPTION: OptionSpec = {
  name: 'keepTask', alias: 'keep_task', type: 'boolean', default: true,
  description: 'Keep the initial task (first user message) verbatim, as the seed\'s [System + Task] block does.',
};

/** What leaves the verbatim context: groups older than the window, minus what must stay (task, pinned). */
export interface OldHistory {
  /** Groups before the window. */
  groups: IterationGroup[];
  /** Input indices of older entries kept verbatim anyway (task, pinned iterations). */
  kept: Set<number>;
  notes: string[];
}

/** Splits off the groups before `start`, keeping the task and whole pinned iterations in place. */
export function oldHistory(input: CompactionInput, groups: readonly IterationGroup[], start: number, keepTask: boolean): OldHistory {
  const old = groups.slice(0, start);
  const kept = new Set<number>();
  const notes: string[] = [];
  const task = keepTask ? taskIndex(input.entries) : undefined;
  // Groups split the non-system entries into consecutive runs: the task (a user message) is in an
  // older group exactly when it comes before the end of the last one.
  const lastOld = old[old.length - 1];
  if (task !== undefined && lastOld && task <= lastOld.indices[lastOld.indices.length - 1]!) {
    kept.add(task);
    notes.push(`Initial task ${input.entries[task]!.id} kept verbatim (keepTask).`);
  }
  const pinned = pinnedGroupsBefore(input, groups, start);
  for (const k of pinned) for (const i of groups[k]!.indices) kept.add(i);
  const pinnedGroups = pinned.length;
  if (pinnedGroups > 0) notes.push(`${pinnedGroups} older iteration group(s) with pinned entries kept verbatim (pinned entries are never removed, and their tool pairs stay whole).`);
  return { groups: old, kept, notes };
}

export function fmt(n: number): string {
  return formatNumber(n);
}

/** A plan that keeps everything; `fates` when the strategy already has them (one per input entry). */
export function basePlan(input: CompactionInput, id: StrategyId, options: Record<string, unknown>, trigger: TriggerDecision, fates?: Fate[]): Plan {
  const total = input.tokens.total;
  return {
    strategy: id, options: { ...options }, trigger, fates: fates ?? allKeep(input.entries.length),
    summaries: [], compressions: [], tokensBefore: total, tokensAfterEstimate: total, notes: [],
  };
}

/** Sum of the input tokens of entries whose fate is keep. */
export function keptTokens(input: CompactionInput, fates: readonly Fate[]): number {
  let n = 0;
  for (let i = 0; i < fates.length; i++) {
    if (fates[i] === 'keep') n += input.tokens.range(i, i);
  }
  return n;
}

/** Adds the note the invariants ask for when the promised context still exceeds the model's window. */
export function windowNote(plan: Plan, input: CompactionInput, option: string): void {
  if (plan.tokensAfterEstimate > input.contextWindow) {
    plan.notes.push(`The compacted context is still about ${fmt(plan.tokensAfterEstimate)} tokens > context window ${fmt(input.contextWindow)}: the recent iterations alone are too large; lower ${option}.`);
  }
}

/** A new entry the strategy made (summary, checkpoint, index); never a journal entry. */
export function madeEntry(input: CompactionInput, id: string, text: string, from: Entry, to: Entry): Entry {
  return {
    id, index: to.index, parentId: from.parentId, role: 'summary', kind: 'compaction',
    blocks: [{ type: 'text', text }], timestamp: input.now, sourceType: 'compaction', line: to.line,
  };
}

/** Where a made entry for `indices` goes: at its first entry that leaves the context (after a kept task). */
export function anchor(indices: readonly number[], fates: readonly Fate[]): number {
  return indices.find((i) => fates[i] !== 'keep') ?? indices[0] ?? 0;
}

export function unchangedContext(input: CompactionInput, plan: Plan, previous: PreviousCompaction): CompactedContext {
  const entries = journalItems(input);
  return {
    entries, tokensAfter: countContext(input, entries), previous,
    truncationApplied: false, summaryApplied: false, notes: plan.nothingToDo ? [plan.nothingToDo] : [],
  };
}

/** A summary the plan asked for did not come back. */
export class MissingSummaryError extends Error {
  override name = 'MissingSummaryError';
}

export function needSummary(summaries: ReadonlyMap<string, string>, id: string, strategy: string): string {
  const text = summaries.get(id);
  if (text === undefined) throw new MissingSummaryError(`The ${strategy} plan needs the "${id}" summary but the summarizer returned none; nothing was changed. Run the compaction again.`);
  return text;
}

export interface SlidingWindowOptions extends SimpleOptions {
  /** Iterations kept verbatim, counted from the newest. Default 50 iterations. */
  windowSize: number;
}

export const SLIDING_WINDOW_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'windowSize', alias: 'window_size', type: 'integer', default: 50, min: 1, max: 1_000_000, unit: 'iterations',
    description: 'Keep only the most recent N iterations (an assistant response with its tool results and the user message before it).',
  },
  KEEP_TASK_OPTION,
];

export function windowTrigger(input: CompactionInput, size: number, option: string): TriggerDecision {
  const iterations = totalIterations(iterationGroups(input.entries));
  const fire = iterations > size;
  return {
    fire, rule: 'window',
    detail: `iterations ${fmt(iterations)} ${fire ? '>' : '<='} ${option} ${fmt(size)}`,
    numbers: { iterations, [option]: size, contextTokens: input.tokens.total },
  };
}

function planSlidingWindow(input: CompactionInput, options: SlidingWindowOptions): Plan {
  const trigger = windowTrigger(input, options.windowSize, 'windowSize');
  // A firing plan writes its own fates.
  const plan = basePlan(input, SLIDING_WINDOW_ID, options, trigger, trigger.fire ? [] : undefined);
  if (!trigger.fire) {
    plan.nothingToDo = `Only ${fmt(trigger.numbers.iterations!)} iterations, within the window of ${fmt(options.windowSize)}; nothing leaves the context.`;
    plan.notes.push(`Window: ${trigger.detail}.`);
    return plan;
  }
  const groups = iterationGroups(input.entries);
  const start = windowStart(groups, options.windowSize);
  const old = oldHistory(input, groups, start, options.keepTask);
  const firstKept = groups[start]!;
  const { fates, dropped, droppedTokens } = windowFates(input, groups, start, old.kept);
  plan.fates = fates;
  plan.cut = { index: firstKept.indices[0]!, rule: `first entry of the last ${fmt(options.windowSize)} iterations (whole tool pairs)` };
  plan.notes.push(`Window: ${trigger.detail}; keeping iterations ${fmt(firstKept.first)}-${fmt(trigger.numbers.iterations!)} verbatim.`, ...old.notes);
  plan.tokensAfterEstimate = plan.tokensBefore - droppedTokens;
  plan.notes.push(`Dropped ${fmt(dropped)} entries of iterations 1-${fmt(firstKept.first - 1)} (${fmt(plan.tokensBefore - plan.tokensAfterEstimate)} tokens); they stay in the journal.`);
  windowNote(plan, input, 'windowSize');
  return plan;
}

function assembleSlidingWindow(input: CompactionInput, plan: Plan): CompactedContext {
  const previous: PreviousCompaction = { strategy: SLIDING_WINDOW_ID, summaries: [] };
  if (plan.nothingToDo) return unchangedContext(input, plan, previous);
  const entries = buildEntries(input, plan.fates, []);
  const cut = plan.cut ? input.entries[plan.cut.index] : undefined;
  return {
    entries, tokensAfter: countContext(input, entries),
    previous: { ...previous, ...(cut ? { firstKeptEntryId: cut.id } : {}) },
    truncationApplied: plan.fates.includes('drop'), summaryApplied: false, notes: [],
  };
}

export const slidingWindowStrategy: Strategy<SlidingWindowOptions> = {
  id: SLIDING_WINDOW_ID,
  label: 'Sliding window',
  seed: '003',
  description: 'Keep the system prompt, the task and the last N iterations verbatim; drop older ones (no LLM call).',
  options: SLIDING_WINDOW_OPTIONS,
  parse: (raw) => parseOptions(SLIDING_WINDOW_OPTIONS, raw) as SlidingWindowOptions,
  trigger: (input, options) => windowTrigger(input, options.windowSize, 'windowSize'),
  plan: planSlidingWindow,
  assemble: (input, plan) => assembleSlidingWindow(input, plan),
};
