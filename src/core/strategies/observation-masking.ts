/**
 * Observation masking (Lindenbauer et al. 2025, "The Complexity Trap", arXiv:2508.21433): the tool
 * outputs of the last M turns stay verbatim (M = 10 in the paper); every older tool output becomes
 * a one-line placeholder, while the call, the model's reasoning and every other message stay as
 * they are. Nothing is summarized and no entry leaves the context. Also exports the masking pass
 * the hybrid `masking-then-summary` strategy runs first.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Compression, Fate, Plan, PreviousCompaction, StrategyId, TriggerDecision } from '../compaction/types.ts';
import { knownCompressionSavings, knownFateCounts } from '../compaction/plan-counts.ts';
import { allKeep, fatesDerived } from './context-builder.ts';
import type { Block } from '../journal/entry.ts';
import { firstFrom, maskedGroups } from './masking/masked-groups.ts';
import { previousIndex, type Rewrite } from './masking/rewrite.ts';
import {
  basePlan, buildEntries, countContext, fmt, iterationGroups, totalIterations, unchangedContext, windowNote, windowStart, type IterationGroup,
} from './sliding-window.ts';
import { layoutOnce } from './layout-memo.ts';

export const OBSERVATION_MASKING_ID: StrategyId = 'observation-masking';

/** Key of `previous.state`: id of the first entry of the last run's window (older outputs were masked). */
export const WINDOW_STATE_KEY = 'windowFromId';

export interface ObservationMaskingOptions {
  [name: string]: number | boolean | string;
  /** Turns (an assistant response with its tool results) whose tool outputs stay verbatim, newest first. Default 10 turns (the paper's M). */
  keepTurns: number;
}

export const KEEP_TURNS_OPTION: OptionSpec = {
  name: 'keepTurns', alias: 'keep_turns', type: 'integer', default: 10, min: 1, max: 1_000_000, unit: 'turns',
  description: 'Tool outputs of the last M turns stay verbatim; older ones become a placeholder (the paper uses M = 10).',
};

export const OBSERVATION_MASKING_OPTIONS: readonly OptionSpec[] = [KEEP_TURNS_OPTION];

/** The placeholder an old tool output becomes: it says what was there, not what it said. */
export function maskPlaceholder(tokens: number): string {
  return `[Old tool output omitted: ${fmt(tokens)} tokens]`;
}

/** The masking pass over a run of turns. */
export interface Masking {
  /** Turns in the groups looked at. */
  iterations: number;
  /** Index into the groups of the first turn kept verbatim (groups.length when none). */
  windowGroup: number;
  /** Input index of the first entry of the last M turns (input length when there is none). */
  windowFrom: number;
  /** Entries whose tool results are masked, ascending (earlier runs' included); read-only, shared with later calls. */
  masked: readonly Rewrite[];
  /** Input index before which the earlier run already masked (0 without one). */
  previousFrom: number;
  /** Masked entries the earlier run had not masked yet, and the tokens masking them saves. */
  fresh: number;
  freshTokens: number;
  /** Tokens saved by the masked entries the earlier run had masked already, and by all of them. */
  earlierTokens: number;
  savedTokens: number;
  /** Old tool-output entries left verbatim: in a pinned turn, or no longer than their placeholder. */
  pinned: number;
  small: number;
  notes: string[];
  /** The masking run the rewrites come from: the same object while a replay's window moves forward over one branch. */
  run: object;
}

function maskBlock(block: Block, own: () => number): Block | undefined {
  if (block.type !== 'tool_result') return undefined;
  return { ...block, content: [{ type: 'text', text: maskPlaceholder(own()) }] };
}

/**
 * Masks the tool outputs of `groups` older than their last `keepTurns` turns. A turn with a pinned
 * entry stays whole; an output no longer than its placeholder stays (masking would grow it).
 */
export function maskTurns(input: CompactionInput, groups: readonly IterationGroup[], keepTurns: number, strategy: string): Masking {
  const iterations = totalIterations(groups);
  const windowGroup = iterations > keepTurns ? windowStart(groups, keepTurns) : 0;
  const windowFrom = groups[windowGroup]?.indices[0] ?? input.entries.length;
  const prev = previousIndex(input, strategy, WINDOW_STATE_KEY);
  const older = maskedGroups(input, groups, windowGroup, maskBlock);
  const at = firstFrom(older.masked, prev.index);
  const saved = older.saved[older.masked.length]!;
  return {
    iterations, windowGroup, windowFrom, masked: older.masked, previousFrom: prev.index,
    fresh: older.masked.length - at, freshTokens: saved - older.saved[at]!, earlierTokens: older.saved[at]!, savedTokens: saved,
    pinned: older.pinned, small: older.small, notes: prev.note ? [prev.note] : [], run: older.saved,
  };
}

/** The masking decision on the whole branch, with the current context's tokens (earlier masking applied). */
function computeLayout(input: CompactionInput, options: ObservationMaskingOptions): { masking: Masking; contextTokens: number } {
  const masking = maskTurns(input, iterationGroups(input.entries), options.keepTurns, OBSERVATION_MASKING_ID);
  return { masking, contextTokens: input.tokens.total - masking.earlierTokens };
}

const layout = layoutOnce(computeLayout);

function decide(input: CompactionInput, options: ObservationMaskingOptions, l = layout(input, options)): TriggerDecision {
  const { masking: m, contextTokens } = l;
  const older = m.masked.length - m.fresh;
  let detail: string;
  if (m.iterations <= options.keepTurns) detail = `turns ${fmt(m.iterations)} <= keepTurns ${fmt(options.keepTurns)}: every tool output is in the last ${fmt(options.keepTurns)} turns`;
  else if (m.fresh > 0) detail = `turns ${fmt(m.iterations)} > keepTurns ${fmt(options.keepTurns)}: ${fmt(m.fresh)} older tool outputs still verbatim (${fmt(m.freshTokens)} tokens to mask)`;
  else detail = `turns ${fmt(m.iterations)} > keepTurns ${fmt(options.keepTurns)}, but every older tool output is already masked (${fmt(older)}) or must stay (${fmt(m.pinned)} pinned, ${fmt(m.small)} no longer than a placeholder)`;
  return {
    fire: m.fresh > 0, rule: 'masking-window', detail,
    numbers: {
      iterations: m.iterations, keepTurns: options.keepTurns, toMask: m.fresh, toMaskTokens: m.freshTokens,
      alreadyMasked: older, contextTokens, tokensAfter: contextTokens - m.freshTokens,
    },
  };
}

function planMasking(input: CompactionInput, options: ObservationMaskingOptions): Plan {
  const l = layout(input, options);
  const trigger = decide(input, options, l);
  const m = l.masking;
  // The fates are made once: from the last plan of this masking run when there is one.
  const plan = basePlan(input, OBSERVATION_MASKING_ID, options, trigger, trigger.fire ? maskFates(input, m) : undefined);
  plan.tokensBefore = l.contextTokens;
  plan.tokensAfterEstimate = l.contextTokens;
  plan.notes.push(`Masking window: ${trigger.detail}.`, ...m.notes);
  if (!trigger.fire) {
    plan.nothingToDo = `Nothing new to mask: ${trigger.detail}.`;
    return plan;
  }
  plan.compressions = maskCompressions(m, options.keepTurns);
  plan.cut = { index: m.windowFrom, rule: `first entry of the last ${fmt(options.keepTurns)} turns: tool output verbatim from here on` };
  plan.tokensAfterEstimate = l.contextTokens - m.freshTokens;
  const older = m.masked.length - m.fresh;
  plan.notes.push(`Masked ${fmt(m.fresh)} tool-output entries older than the last ${fmt(options.keepTurns)} turns, ${fmt(m.freshTokens)} tokens saved${older > 0 ? `; ${fmt(older)} more stay masked from the earlier run` : ''}. Each keeps its call and says how many tokens were omitted.`);
  if (m.pinned > 0) plan.notes.push(`${fmt(m.pinned)} older tool outputs are in pinned turns and stay verbatim.`);
  if (m.small > 0) plan.notes.push(`${fmt(m.small)} older tool outputs are no longer than their placeholder and stay verbatim.`);
  plan.notes.push('Nothing is summarized and no entry leaves the context; the assistant\'s reasoning and calls stay as they are.');
  windowNote(plan, input, 'keepTurns');
  return plan;
}

/** The fates of the last plan of a masking run: the next plan on the grown branch copies them and marks only the newly masked entries. */
const lastFates = new WeakMap<object, { fates: Fate[]; length: number; masked: number }>();

/** `compress` for every masked entry, `keep` for the rest. */
function maskFates(input: CompactionInput, m: Masking): Fate[] {
  const n = input.entries.length;
  const last = lastFates.get(m.run);
  let fates: Fate[];
  let done = 0;
  let from = 0;
  if (last && last.length <= n && last.masked <= m.masked.length) {
    // One packed copy (a grown length would copy it again and make it holey).
    fates = n > last.length ? last.fates.concat(allKeep(n - last.length)) : last.fates.slice();
    done = last.masked;
    from = Math.min(last.length, m.masked[done]?.index ?? n);
  } else {
    fates = allKeep(n);
  }
  for (let k = done; k < m.masked.length; k++) fates[m.masked[k]!.index] = 'compress';
  if (last && done > 0) fatesDerived(fates, last.fates, from);
  knownFateCounts(fates, { keep: n - m.masked.length, summarize: 0, compress: m.masked.length, drop: 0 });
  lastFates.set(m.run, { fates, length: n, masked: m.masked.length });
  return fates;
}

/** Compressions already made for the earlier part of a masking run, by position (the rewrites at a position never change). */
const earlierCompressions = new WeakMap<object, Compression[]>();

/** The plan's compression of each masked entry: those the earlier run masked, then the fresh ones. */
export function maskCompressions(m: Masking, keepTurns: number): Compression[] {
  const at = m.masked.length - m.fresh;
  let earlier = earlierCompressions.get(m.run);
  if (!earlier) earlierCompressions.set(m.run, (earlier = []));
  for (let k = earlier.length; k < at; k++) {
    const r = m.masked[k]!;
    earlier.push({ index: r.index, text: r.texts.join('\n'), tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter, rule: 'observation masking (masked by the earlier run)' });
  }
  const rule = `observation masking: older than the last ${fmt(keepTurns)} turns`;
  const fresh: Compression[] = [];
  for (let k = at; k < m.masked.length; k++) {
    const r = m.masked[k]!;
    fresh.push({ index: r.index, text: r.texts.join('\n'), tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter, rule });
  }
  // One allocation (pushing onto a copy copies it again as it grows).
  const out = (at === earlier.length ? earlier : earlier.slice(0, at)).concat(fresh);
  knownCompressionSavings(out, m.savedTokens);
  return out;
}

function assembleMasking(input: CompactionInput, plan: Plan, options: ObservationMaskingOptions): CompactedContext {
  if (plan.nothingToDo) return unchangedContext(input, plan, input.previous ?? { strategy: OBSERVATION_MASKING_ID, summaries: [] });
  const { masking } = layout(input, options);
  const entries = buildEntries(input, plan.fates, [], masking.masked);
  const windowId = input.entries[masking.windowFrom]?.id;
  const previous: PreviousCompaction = {
    strategy: OBSERVATION_MASKING_ID, summaries: [],
    // No firstKeptEntryId: nothing is summarized, and other strategies read it as "covered by the summary".
    ...(windowId !== undefined ? { state: { [WINDOW_STATE_KEY]: windowId } } : {}),
  };
  return { entries, tokensAfter: countContext(input, entries), previous, truncationApplied: false, summaryApplied: false, notes: [] };
}

export const observationMaskingStrategy: Strategy<ObservationMaskingOptions> = {
  id: OBSERVATION_MASKING_ID,
  label: 'Observation masking',
  seed: 'arXiv:2508.21433 (The Complexity Trap)',
  description: 'Tool outputs older than the last 10 turns become a one-line placeholder; calls and reasoning stay (Lindenbauer et al. 2025, no LLM call).',
  options: OBSERVATION_MASKING_OPTIONS,
  parse: (raw) => parseOptions(OBSERVATION_MASKING_OPTIONS, raw) as ObservationMaskingOptions,
  trigger: (input, options) => decide(input, options),
  plan: planMasking,
  assemble: (input, plan, _summaries, options) => assembleMasking(input, plan, options),
};
