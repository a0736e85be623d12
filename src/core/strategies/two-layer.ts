/**
 * Two-layer memory (seed 003, 方案2 / "Two-Layer Memory"): [System + Task] [one rolling summary]
 * [recent iterations verbatim]. The summary is a flowing story outline, not an index; it moves
 * forward in steps of `updateInterval` iterations, each step updating the previous summary with
 * only the iterations that newly left the recent window.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import { SUMMARY_CUT_MARK } from '../compaction/summarizer.ts';
import type { CompactedContext, CompactionInput, Plan, StrategyId, SummaryTask, TriggerDecision } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import {
  anchor, basePlan, buildEntries, countContext, fmt, iterationGroups, KEEP_TASK_OPTION, keptTokens, madeEntry, needSummary,
  oldHistory, totalIterations, unchangedContext, windowNote, windowStart, type IterationGroup, type SimpleOptions,
} from './sliding-window.ts';
import { groupsEndingBefore } from './iteration-index.ts';
import { layoutOnce } from './layout-memo.ts';

// StrategyId is a closed union the lead widens when registering this strategy: until then, a cast.
export const TWO_LAYER_ID = 'two-layer' as StrategyId;
export const TWO_LAYER_PROMPT_ID = 'two-layer-summary';
export const TWO_LAYER_TASK_ID = 'two-layer-summary';

export interface TwoLayerOptions extends SimpleOptions {
  /** Iterations kept verbatim (Recent Memory), counted from the newest. Default 50 iterations. */
  recentSize: number;
  /** Upper bound on the rolling summary; a longer answer is cut to it. Default 5,000 tokens. */
  summaryMaxTokens: number;
  /** The summary moves forward in steps of this many iterations. Default 20 iterations. */
  updateInterval: number;
  /** 'concise' or 'detailed' story outline (seed Level 2 `summary_style`). Default 'concise'. */
  summaryStyle: string;
}

export const TWO_LAYER_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'recentSize', alias: 'recent_size', type: 'integer', default: 50, min: 1, max: 1_000_000, unit: 'iterations',
    description: 'Recent Memory: the most recent N iterations stay verbatim.',
  },
  {
    name: 'summaryMaxTokens', alias: 'summary_max_tokens', type: 'integer', default: 5_000, min: 50, max: 1_000_000, unit: 'tokens',
    description: 'Upper bound on the rolling summary.',
  },
  {
    name: 'updateInterval', alias: 'update_interval', type: 'integer', default: 20, min: 1, max: 1_000_000, unit: 'iterations',
    description: 'The summary is updated every N iterations that leave Recent Memory.',
  },
  {
    name: 'summaryStyle', alias: 'summary_style', type: 'enum', values: ['concise', 'detailed'], default: 'concise',
    description: 'A concise or a detailed story outline.',
  },
  KEEP_TASK_OPTION,
];

interface Layout {
  iterations: number;
  groups: IterationGroup[];
  /** Groups [0, through) are covered by the summary after this run. */
  through: number;
  /** Groups [0, previousThrough) were covered by the previous run's summary (0 when it cannot be reused). */
  previousThrough: number;
  previousSummary?: string;
  kept: Set<number>;
  notes: string[];
  /** `summarized(0, through)`, once asked: the plan and the assembly both read it. */
  covered?: readonly number[];
}

function computeLayout(input: CompactionInput, options: TwoLayerOptions): Layout {
  const groups = iterationGroups(input.entries);
  const iterations = totalIterations(groups);
  const start = iterations > options.recentSize ? windowStart(groups, options.recentSize) : 0;
  const older = iterationsBefore(groups, start);
  const target = Math.floor(older / options.updateInterval) * options.updateInterval;
  // The fewest groups (up to the window) holding `target` iterations: a bisection over the running counts.
  let through = 0;
  let high = start;
  while (through < high) {
    const mid = (through + high) >> 1;
    if (iterationsBefore(groups, mid) >= target) high = mid;
    else through = mid + 1;
  }
  const old = oldHistory(input, groups, through, options.keepTask);
  const notes = [...old.notes];
  let previousThrough = 0;
  let previousSummary: string | undefined;
  const prev = input.previous;
  if (prev?.strategy === TWO_LAYER_ID && typeof prev.state?.throughId === 'string' && prev.summaries[0] !== undefined) {
    const at = firstIndexOf(input.entries, prev.state.throughId);
    const k = groupEndingAt(groups, at);
    if (at >= 0 && k >= 0 && k < through) {
      previousThrough = k + 1;
      previousSummary = prev.summaries[0];
      notes.push(`Previous summary covers iterations 1-${fmt(groups[k]!.first + groups[k]!.count - 1)} (through ${prev.state.throughId}): it is updated, not rewritten.`);
    } else {
      notes.push(`The previous summary (through ${prev.state.throughId}) does not end on an iteration this run summarizes: writing a new one.`);
    }
  }
  return { iterations, groups, through, previousThrough, ...(previousSummary !== undefined ? { previousSummary } : {}), kept: old.kept, notes };
}

/** Iterations in `groups[0..k)`: each group knows the number of its first iteration. */
function iterationsBefore(groups: readonly IterationGroup[], k: number): number {
  return k < groups.length ? groups[k]!.first - 1 : totalIterations(groups);
}

/** Position of the group whose last entry is input index `at`, or -1 (groups are in input order). */
function groupEndingAt(groups: readonly IterationGroup[], at: number): number {
  const lo = groupsEndingBefore(groups, at);
  const g = groups[lo];
  return g && g.indices[g.indices.length - 1] === at ? lo : -1;
}

/** The last lookup of an id: a replay asks for the same id on one growing branch at every call. */
let lastLookup: { entries: readonly Entry[]; id: string; length: number; at: number } | undefined;

/** First input index holding `id`, or -1. */
function firstIndexOf(entries: readonly Entry[], id: string): number {
  const memo = lastLookup;
  if (memo && memo.entries === entries && memo.id === id && entries.length >= memo.length) {
    if (memo.at >= 0) return memo.at;
    let at = -1;
    for (let i = memo.length; i < entries.length; i++) if (entries[i]!.id === id) { at = i; break; }
    lastLookup = { entries, id, length: entries.length, at };
    return at;
  }
  const at = entries.findIndex((e) => e.id === id);
  lastLookup = { entries, id, length: entries.length, at };
  return at;
}

const layout = layoutOnce(computeLayout);

function twoLayerTrigger(input: CompactionInput, options: TwoLayerOptions, l: Layout = layout(input, options)): TriggerDecision {
  const covered = iterationsBefore(l.groups, l.through);
  const before = iterationsBefore(l.groups, l.previousThrough);
  return {
    fire: l.through > l.previousThrough,
    rule: 'update-interval',
    detail: `${fmt(l.iterations)} iterations, Recent Memory ${fmt(options.recentSize)}: summary moves from iteration ${fmt(before)} to ${fmt(covered)} in steps of ${fmt(options.updateInterval)}`,
    numbers: {
      iterations: l.iterations, recentSize: options.recentSize, updateInterval: options.updateInterval,
      summarizedBefore: before, summarizedAfter: covered, contextTokens: input.tokens.total,
    },
  };
}

/** Input indices of groups [from, to) that are not kept verbatim, ascending (plain loops: it runs over most of the branch). */
function summarized(l: Layout, from: number, to: number): number[] {
  const out: number[] = [];
  const { groups, kept } = l;
  const check = kept.size > 0;
  for (let k = from; k < to; k++) {
    const indices = groups[k]!.indices;
    for (let j = 0; j < indices.length; j++) {
      const i = indices[j]!;
      if (!check || !kept.has(i)) out.push(i);
    }
  }
  return out;
}

/** Input indices the summary covers after this run (read-only, shared by the plan and the assembly). */
function coveredIndices(l: Layout): readonly number[] {
  l.covered ??= summarized(l, 0, l.through);
  return l.covered;
}

function planTwoLayer(input: CompactionInput, options: TwoLayerOptions): Plan {
  const l = layout(input, options);
  const trigger = twoLayerTrigger(input, options, l);
  const plan = basePlan(input, TWO_LAYER_ID, options, trigger);
  if (l.through === 0) {
    plan.nothingToDo = `Fewer than ${fmt(options.updateInterval)} iterations outside Recent Memory (${fmt(l.iterations)} iterations, ${fmt(options.recentSize)} kept); no summary yet.`;
    plan.notes.push(`Update: ${trigger.detail}.`);
    return plan;
  }
  plan.notes.push(`Update: ${trigger.detail}.`, ...l.notes);
  const all = coveredIndices(l);
  for (const i of all) plan.fates[i] = 'summarize';
  let summaryTokens: number;
  if (!trigger.fire) {
    summaryTokens = input.counter.count(l.previousSummary ?? '');
    plan.notes.push('No new block of iterations: the previous summary is reused as is.');
  } else {
    const fresh = summarized(l, l.previousThrough, l.through);
    const start = l.groups[l.previousThrough]!.first;
    const end = trigger.numbers.summarizedAfter!;
    const from = fresh[0];
    if (from === undefined) {
      summaryTokens = input.counter.count(l.previousSummary ?? '');
      plan.notes.push('The iterations that left Recent Memory are all pinned or the task: the previous summary is reused.');
    } else {
      const to = fresh[fresh.length - 1]!;
      const task: SummaryTask = {
        id: TWO_LAYER_TASK_ID, prompt: TWO_LAYER_PROMPT_ID, from, to,
        ...(to - from + 1 !== fresh.length ? { indices: fresh } : {}),
        ...(l.previousSummary !== undefined ? { previousSummary: l.previousSummary } : {}),
        maxTokens: options.summaryMaxTokens,
        vars: { start: String(start), end: String(end), max_tokens: String(options.summaryMaxTokens), style: options.summaryStyle, total: String(l.iterations) },
      };
      plan.summaries.push(task);
      summaryTokens = options.summaryMaxTokens;
      plan.notes.push(`${l.previousSummary !== undefined ? 'Updating' : 'Writing'} the summary with iterations ${fmt(start)}-${fmt(end)} (${fmt(fresh.length)} entries), at most ${fmt(options.summaryMaxTokens)} tokens.`);
    }
  }
  const cutGroup = l.groups[l.through];
  if (cutGroup) plan.cut = { index: cutGroup.indices[0]!, rule: `first entry after the summarized iterations (iteration ${fmt(cutGroup.first)})` };
  plan.tokensAfterEstimate = keptTokens(input, plan.fates) + summaryTokens;
  windowNote(plan, input, 'recentSize');
  return plan;
}

/**
 * The longest prefix of `text` within `max` tokens, with a visible mark (SUMMARY_CUT_MARK) on its
 * own line where it was cut. The cut falls at the end of a line when one ends in the second half
 * of the prefix, so no half line (a half path) is left before the mark.
 */
export function capTokens(text: string, max: number, counter: TokenCounter): string {
  if (counter.count(text) <= max) return text;
  const chars = Array.from(text);
  const mark = `\n${SUMMARY_CUT_MARK}`;
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.count(chars.slice(0, mid).join('') + mark) <= max) lo = mid;
    else hi = mid - 1;
  }
  const kept = chars.slice(0, lo).join('');
  const lineEnd = kept.lastIndexOf('\n');
  return (lineEnd >= kept.length / 2 ? kept.slice(0, lineEnd) : kept) + mark;
}

function assembleTwoLayer(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: TwoLayerOptions): CompactedContext {
  if (plan.nothingToDo) return unchangedContext(input, plan, input.previous ?? { strategy: TWO_LAYER_ID, summaries: [] });
  const l = layout(input, options);
  const notes: string[] = [];
  const raw = plan.summaries.length > 0 ? needSummary(summaries, TWO_LAYER_TASK_ID, 'two-layer') : (l.previousSummary ?? '');
  const text = capTokens(raw.trim(), options.summaryMaxTokens, input.counter);
  if (text !== raw.trim()) notes.push(`The summary was longer than ${fmt(options.summaryMaxTokens)} tokens and was cut to fit.`);
  const covered = coveredIndices(l);
  const end = iterationsBefore(l.groups, l.through);
  const inserts = [];
  if (covered.length > 0) {
    const from = input.entries[covered[0]!]!;
    const to = input.entries[covered[covered.length - 1]!]!;
    const entry = madeEntry(input, `two-layer-summary:${to.id}`, `[Summary of iterations 1-${end}]\n${text}`, from, to);
    inserts.push({ at: anchor(covered, plan.fates), item: { role: 'user' as const, entry, origin: 'summary' as const, replaces: { fromId: from.id, toId: to.id, count: covered.length } } });
  }
  const entries = buildEntries(input, plan.fates, inserts);
  const last = l.groups[l.through - 1]!;
  const cut = plan.cut ? input.entries[plan.cut.index] : undefined;
  return {
    entries, tokensAfter: countContext(input, entries),
    previous: {
      strategy: TWO_LAYER_ID, summaries: [text], ...(cut ? { firstKeptEntryId: cut.id } : {}),
      state: { throughId: input.entries[last.indices[last.indices.length - 1]!]!.id, iterations: end },
    },
    truncationApplied: false, summaryApplied: inserts.length > 0, notes,
  };
}

export const twoLayerStrategy: Strategy<TwoLayerOptions> = {
  id: TWO_LAYER_ID,
  label: 'Two-layer memory',
  seed: '003',
  description: 'Recent iterations verbatim plus one rolling story-outline summary of everything older.',
  options: TWO_LAYER_OPTIONS,
  parse: (raw) => parseOptions(TWO_LAYER_OPTIONS, raw) as TwoLayerOptions,
  trigger: (input, options) => twoLayerTrigger(input, options),
  plan: planTwoLayer,
  assemble: assembleTwoLayer,
};
