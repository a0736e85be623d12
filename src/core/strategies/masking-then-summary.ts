/**
 * The hybrid of "The Complexity Trap" (Lindenbauer et al. 2025, arXiv:2508.21433): observation
 * masking first (tool outputs older than the last M = 10 turns become placeholders); the older turns
 * are summarized into one rolling summary only when masking is not enough — every N turns since the
 * last summary (the paper's hybrid: N = 43, keeping the last 10 turns) or when the masked context
 * is still over a share of the window. A later run updates the summary with only the turns that
 * newly left the window (pi's update prompt), from `previous.firstKeptEntryId` on.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import { countFates, knownFateCounts } from '../compaction/plan-counts.ts';
import type { CompactedContext, CompactionInput, Fate, Plan, PreviousCompaction, StrategyId, SummaryTask, TriggerDecision } from '../compaction/types.ts';
import { KEEP_TURNS_OPTION, maskTurns, WINDOW_STATE_KEY, type Masking } from './observation-masking.ts';
import { isSystemMessage, resolveBoundary } from './pi/boundary.ts';
import {
  basePlan, countContext, fmt, iterationGroups, KEEP_TASK_OPTION, madeEntry, needSummary, oldHistory, totalIterations,
  unchangedContext, windowNote, buildEntries, type Insert, type IterationGroup, type SimpleOptions,
} from './sliding-window.ts';
import { capTokens } from './two-layer.ts';
import { groupsEndingBefore } from './iteration-index.ts';
import { layoutOnce } from './layout-memo.ts';
import { unseenTokens } from '../compaction/unseen-prefix.ts';
import { allKeep, fatesDerived } from './context-builder.ts';
import type { Entry } from '../journal/entry.ts';
import { systemIndices } from './group-facts.ts';
import { textTokens } from './masking/rewrite.ts';

export const MASKING_THEN_SUMMARY_ID: StrategyId = 'masking-then-summary';
export const HYBRID_TASK_ID = 'masking-summary';

export interface MaskingThenSummaryOptions extends SimpleOptions {
  /** Turns whose tool outputs stay verbatim, and turns kept verbatim after a summary. Default 10 turns (the paper's M). */
  keepTurns: number;
  /** Summarize once this many turns have passed since the last summary; 0 = never by count. Default 43 turns (the paper's hybrid N). */
  summaryEveryTurns: number;
  /** Also summarize when the masked context is over this share of the context window. Default 0.8. */
  summaryTriggerRatio: number;
  /** Upper bound on the rolling summary; a longer answer is cut to it. Default 2,000 tokens (not from the paper). */
  summaryMaxTokens: number;
}

export const MASKING_THEN_SUMMARY_OPTIONS: readonly OptionSpec[] = [
  KEEP_TURNS_OPTION,
  {
    name: 'summaryEveryTurns', alias: 'summary_every_turns', type: 'integer', default: 43, min: 0, max: 1_000_000, unit: 'turns',
    description: 'Summarize the turns older than the last keepTurns once this many turns have passed since the last summary (the paper\'s hybrid: 43); 0 turns it off.',
  },
  {
    name: 'summaryTriggerRatio', alias: 'summary_trigger_ratio', type: 'number', default: 0.8, min: 0.01, max: 1,
    description: 'Also summarize when the context, after masking, is still over this share of the context window.',
  },
  {
    name: 'summaryMaxTokens', alias: 'summary_max_tokens', type: 'integer', default: 2_000, min: 50, max: 1_000_000, unit: 'tokens',
    description: 'Upper bound on the rolling summary (the paper gives no length; this is the estimate and the summarizer\'s limit).',
  },
  KEEP_TASK_OPTION,
];

/** The two parts of a group that straddles a summary boundary, by group and boundary (the same objects at every call). */
const straddlers = new WeakMap<IterationGroup, { start: number; lo: IterationGroup; hi: IterationGroup }>();

/**
 * Splits groups at input index `start`: the parts before it (already summarized) and from it on.
 * A group wholly on one side is passed on as it is, so the masking pass recognizes the groups it read.
 */
function splitGroups(groups: readonly IterationGroup[], start: number): { before: IterationGroup[]; after: IterationGroup[] } {
  // Groups are consecutive runs in input order: those wholly before `start` are a prefix (found by
  // bisection, copied at once), and at most one group straddles it.
  const lo = groupsEndingBefore(groups, start);
  const before: IterationGroup[] = groups.slice(0, lo);
  const after: IterationGroup[] = [];
  for (let k = lo; k < groups.length; k++) {
    const g = groups[k]!;
    if (g.indices[g.indices.length - 1]! < start) before.push(g);
    else if (g.indices[0]! >= start) after.push(g);
    else {
      let parts = straddlers.get(g);
      if (!parts || parts.start !== start) {
        const lo = g.indices.filter((i) => i < start);
        const hi = g.indices.filter((i) => i >= start);
        // A group that straddles the boundary counts its turns after it: they are not in the summary yet.
        parts = { start, lo: { indices: lo, count: 0, first: g.first }, hi: { indices: hi, count: g.count, first: g.first } };
        straddlers.set(g, parts);
      }
      before.push(parts.lo);
      after.push(parts.hi);
    }
  }
  return { before, after };
}

interface Layout {
  start: number;
  previousSummary?: string;
  notes: string[];
  masking: Masking;
  /** Entries before `start` still in the context verbatim (task, pinned turns). */
  keptBefore: Set<number>;
  /** Tokens of the context now (earlier masking applied) and after masking everything older. */
  contextTokens: number;
  maskedTokens: number;
  threshold: number;
  turns: number;
  /** Turns older than the last keepTurns (what a summary would cover). */
  olderTurns: number;
  /** Why a summary is due (undefined: not due), and the entries it newly covers. */
  summaryReason?: string;
  fresh: number[];
  /** Why older entries stay verbatim under a summary (task, pinned turns). */
  freshNotes: string[];
}

function computeLayout(input: CompactionInput, options: MaskingThenSummaryOptions): Layout {
  const prev = input.previous;
  // Only this strategy's own summary is continued; runs that only masked have none to continue.
  const boundary: { start: number; previousSummary?: string; notes: string[] } = prev === undefined || prev.summaries.length === 0
    ? { start: 0, notes: [] }
    : prev.strategy === MASKING_THEN_SUMMARY_ID
      ? resolveBoundary(input)
      : { start: 0, notes: [`The previous compaction is ${prev.strategy}'s, not this strategy's: its summary is not continued.`] };
  const { start, previousSummary } = boundary;
  const { before, after } = splitGroups(iterationGroups(input.entries), start);
  const masking = maskTurns(input, after, options.keepTurns, MASKING_THEN_SUMMARY_ID);
  const keptBefore = oldHistory(input, before, before.length, options.keepTask).kept;
  // The system entries and the kept ones before the boundary stay in the context beside the summary.
  let head = previousSummary !== undefined ? textTokens(previousSummary, input.counter) : 0;
  const system = systemIndices(input.entries);
  for (let k = 0; k < system.length && system[k]! < start; k++) head += input.tokens.countAt(system[k]!);
  for (const i of keptBefore) if (i < start && !isSystemMessage(input.entries[i]!)) head += input.tokens.countAt(i);
  const region = start < input.entries.length ? input.tokens.range(start, input.entries.length - 1) : 0;
  const contextTokens = head + region - masking.earlierTokens;
  // The size the summary trigger compares: the masked context as sent, with the unseen prefix.
  const maskedTokens = head + region - masking.savedTokens + unseenTokens(input);
  const threshold = Math.floor(options.summaryTriggerRatio * input.contextWindow);
  const turns = totalIterations(after);
  const k = masking.windowGroup;
  const l: Layout = {
    start, ...(previousSummary !== undefined ? { previousSummary } : {}), notes: boundary.notes, masking, keptBefore,
    contextTokens, maskedTokens, threshold, turns, olderTurns: totalIterations(after.slice(0, k)), fresh: [], freshNotes: [],
  };
  if (k === 0) return l;
  const old = oldHistory(input, before.concat(after.slice(0, k)), before.length + k, options.keepTask);
  l.fresh = after.slice(0, k).flatMap((g) => g.indices).filter((i) => !old.kept.has(i));
  l.freshNotes = old.notes;
  if (l.fresh.length === 0) return l;
  if (options.summaryEveryTurns > 0 && turns >= options.summaryEveryTurns) {
    l.summaryReason = `turns since the last summary ${fmt(turns)} >= summaryEveryTurns ${fmt(options.summaryEveryTurns)}`;
  } else if (maskedTokens > threshold) {
    l.summaryReason = `masked context ${fmt(maskedTokens)} > ${options.summaryTriggerRatio} x window ${fmt(input.contextWindow)} = ${fmt(threshold)}`;
  }
  return l;
}

const layout = layoutOnce(computeLayout);

function decide(input: CompactionInput, options: MaskingThenSummaryOptions, l = layout(input, options)): TriggerDecision {
  const m = l.masking;
  const summary = l.summaryReason !== undefined;
  const noSummary = `masked context ${fmt(l.maskedTokens)} <= ${fmt(l.threshold)}${
    options.summaryEveryTurns > 0 ? ` and ${fmt(l.turns)} turns since the last summary < summaryEveryTurns ${fmt(options.summaryEveryTurns)}` : ''}`;
  const detail = summary
    ? `${l.summaryReason}: summarize the ${fmt(l.olderTurns)} older turns, keep the last ${fmt(l.turns - l.olderTurns)} verbatim`
    : m.fresh > 0
      ? `mask ${fmt(m.fresh)} tool outputs older than the last ${fmt(options.keepTurns)} turns (${fmt(m.freshTokens)} tokens); no summary yet: ${noSummary}`
      : `nothing new to mask and no summary due: ${noSummary}${l.olderTurns === 0 && l.maskedTokens > l.threshold ? ` (only the last ${fmt(options.keepTurns)} turns are left to summarize from)` : ''}`;
  return {
    fire: summary || m.fresh > 0, rule: summary ? 'summary' : 'masking-window', detail,
    numbers: {
      turns: l.turns, keepTurns: options.keepTurns, summaryEveryTurns: options.summaryEveryTurns, toMask: m.fresh, toMaskTokens: m.freshTokens,
      contextTokens: l.contextTokens, maskedTokens: l.maskedTokens, thresholdTokens: l.threshold, toSummarize: summary ? l.fresh.length : 0,
    },
  };
}

function planHybrid(input: CompactionInput, options: MaskingThenSummaryOptions): Plan {
  const l = layout(input, options);
  const trigger = decide(input, options, l);
  const plan = basePlan(input, MASKING_THEN_SUMMARY_ID, options, trigger, allKeep(input.entries.length));
  const m = l.masking;
  // Fate counts kept as the fates are set, so nothing downstream walks them again to count.
  const counts: Record<Fate, number> = { keep: input.entries.length, summarize: 0, compress: 0, drop: 0 };
  const fates = plan.fates;
  const setFate = (i: number, fate: Fate) => {
    counts[fates[i]!]--;
    counts[fate]++;
    fates[i] = fate;
  };
  knownFateCounts(fates, counts);
  plan.tokensBefore = l.contextTokens;
  plan.tokensAfterEstimate = l.contextTokens;
  plan.notes.push(`Trigger: ${trigger.detail}.`, ...l.notes, ...m.notes);
  if (!trigger.fire) {
    plan.nothingToDo = `Nothing to do: ${trigger.detail}.`;
    return plan;
  }
  // Entries the previous summary covers stay under it; the task and pinned turns stay verbatim.
  let summarizedTokens = 0;
  if (l.start > 0) {
    // Every fate is 'keep' here.
    fates.fill('summarize', 0, l.start);
    counts.keep -= l.start;
    counts.summarize += l.start;
    summarizedTokens = input.tokens.range(0, l.start - 1);
    const system = systemIndices(input.entries);
    for (let k = 0; k < system.length && system[k]! < l.start; k++) {
      setFate(system[k]!, 'keep');
      summarizedTokens -= input.tokens.countAt(system[k]!);
    }
    for (const i of l.keptBefore) {
      if (i >= l.start || fates[i] !== 'summarize') continue;
      setFate(i, 'keep');
      summarizedTokens -= input.tokens.countAt(i);
    }
  }
  let summaryTokens = l.previousSummary !== undefined ? textTokens(l.previousSummary, input.counter) : 0;
  if (l.summaryReason !== undefined) {
    lastMasking = undefined;
    for (const i of l.fresh) {
      if (fates[i] !== 'summarize') summarizedTokens += input.tokens.countAt(i);
      setFate(i, 'summarize');
    }
    const from = l.fresh[0]!;
    const to = l.fresh[l.fresh.length - 1]!;
    const update = l.previousSummary !== undefined;
    const task: SummaryTask = {
      id: HYBRID_TASK_ID, prompt: update ? 'pi-update-summary' : 'pi-summary', from, to,
      ...(to - from + 1 !== l.fresh.length ? { indices: [...l.fresh] } : {}),
      ...(update ? { previousSummary: l.previousSummary } : {}),
      vars: { focus: '' }, maxTokens: options.summaryMaxTokens,
    };
    plan.summaries.push(task);
    summaryTokens = options.summaryMaxTokens;
    plan.cut = { index: m.windowFrom, rule: `first entry of the last ${fmt(options.keepTurns)} turns (whole tool pairs), kept verbatim after the summary` };
    plan.notes.push(
      `${update ? 'Updating the previous summary (pi-update-summary)' : 'Writing a summary (pi-summary)'} with ${fmt(l.fresh.length)} entries of the ${fmt(l.olderTurns)} turns older than the last ${fmt(options.keepTurns)}, at most ${fmt(options.summaryMaxTokens)} tokens${update ? `; the ${fmt(l.start)} entries before ${input.entries[l.start]?.id ?? 'the boundary'} are in the previous summary and are not summarized again` : ''}.`,
      ...l.freshNotes,
    );
  } else {
    for (const r of m.masked) {
      setFate(r.index, 'compress');
      plan.compressions.push({
        index: r.index, text: r.texts.join('\n'), tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter,
        rule: r.index < m.previousFrom ? 'observation masking (masked by the earlier run)' : `observation masking: older than the last ${fmt(options.keepTurns)} turns`,
      });
    }
    plan.notes.push(`Masked ${fmt(m.fresh)} tool-output entries older than the last ${fmt(options.keepTurns)} turns (${fmt(m.freshTokens)} tokens saved); no summary this time.`);
    maskingOnly(input, l, fates);
  }
  if (m.pinned > 0) plan.notes.push(`${fmt(m.pinned)} older tool outputs are in pinned turns and stay verbatim.`);
  // Kept entries at their count, masked ones at their placeholder's (the summarized ones are covered by the summary).
  let after = input.tokens.total - summarizedTokens;
  for (const c of plan.compressions) after += c.tokensAfter - input.tokens.countAt(c.index);
  plan.tokensAfterEstimate = after + (counts.summarize > 0 ? summaryTokens : 0);
  windowNote(plan, input, 'keepTurns or summaryTriggerRatio');
  knownFateCounts(fates, counts);
  return plan;
}

/** The last masking-only plan on a branch array: what the next one shares with it. */
let lastMasking: { entries: readonly Entry[]; n: number; start: number; kept: ReadonlySet<number>; run: object; masked: number; fates: readonly Fate[] } | undefined;

/**
 * Tells the context builder how much of a masking-only plan's fates are the last one's: on the same
 * growing branch, with the same summary boundary, the same entries kept before it and the same
 * masking run, they differ only from the first entry masked since (and the entries appended).
 */
function maskingOnly(input: CompactionInput, l: Layout, fates: readonly Fate[]): void {
  const m = l.masking;
  const n = input.entries.length;
  const last = lastMasking;
  if (last && last.entries === input.entries && last.n <= n && last.start === l.start && last.run === m.run && last.masked <= m.masked.length && sameSet(last.kept, l.keptBefore)) {
    fatesDerived(fates, last.fates, Math.min(last.n, m.masked[last.masked]?.index ?? last.n));
  }
  lastMasking = { entries: input.entries, n, start: l.start, kept: l.keptBefore, run: m.run, masked: m.masked.length, fates };
}

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function assembleHybrid(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: MaskingThenSummaryOptions): CompactedContext {
  if (plan.nothingToDo) return unchangedContext(input, plan, input.previous ?? { strategy: MASKING_THEN_SUMMARY_ID, summaries: [] });
  const l = layout(input, options);
  const notes: string[] = [];
  const summarizing = plan.summaries.length > 0;
  let text = l.previousSummary;
  if (summarizing) {
    const raw = needSummary(summaries, HYBRID_TASK_ID, 'masking-then-summary').trim();
    text = capTokens(raw, options.summaryMaxTokens, input.counter);
    if (text !== raw) notes.push(`The summary was longer than ${fmt(options.summaryMaxTokens)} tokens and was cut to fit.`);
  }
  // The summarized entries: how many, the first and the last (the summary goes where the first was).
  const fates = plan.fates;
  const count = countFates(fates).summarize;
  let first = -1;
  let last = -1;
  if (count > 0) {
    first = fates.indexOf('summarize');
    last = fates.lastIndexOf('summarize');
  }
  const inserts: Insert[] = [];
  if (text !== undefined && count > 0) {
    const from = input.entries[first]!;
    const to = input.entries[last]!;
    const entry = madeEntry(input, `masking-summary:${to.id}`, text, from, to);
    inserts.push({ at: first, item: { role: 'user', entry, origin: 'summary', replaces: { fromId: from.id, toId: to.id, count } } });
  }
  const rewrites = summarizing ? [] : l.masking.masked;
  const entries = buildEntries(input, plan.fates, inserts, rewrites);
  const windowId = input.entries[l.masking.windowFrom]?.id;
  const firstKept = summarizing ? windowId : l.previousSummary !== undefined ? input.entries[l.start]?.id : undefined;
  const previous: PreviousCompaction = {
    strategy: MASKING_THEN_SUMMARY_ID, summaries: text !== undefined && count > 0 ? [text] : [],
    ...(firstKept !== undefined && text !== undefined ? { firstKeptEntryId: firstKept } : {}),
    ...(windowId !== undefined ? { state: { [WINDOW_STATE_KEY]: windowId } } : {}),
  };
  return {
    entries, tokensAfter: countContext(input, entries), previous,
    truncationApplied: false, summaryApplied: summarizing, notes,
  };
}

export const maskingThenSummaryStrategy: Strategy<MaskingThenSummaryOptions> = {
  id: MASKING_THEN_SUMMARY_ID,
  label: 'Masking, then summary',
  seed: 'arXiv:2508.21433 (The Complexity Trap, hybrid)',
  description: 'Observation masking first; every 43 turns, or when still over 80% of the window, older turns go into one rolling summary (Lindenbauer et al. 2025 hybrid).',
  options: MASKING_THEN_SUMMARY_OPTIONS,
  parse: (raw) => parseOptions(MASKING_THEN_SUMMARY_OPTIONS, raw) as MaskingThenSummaryOptions,
  trigger: (input, options) => decide(input, options),
  plan: planHybrid,
  assemble: assembleHybrid,
};
