/**
 * Tool result clearing, after Anthropic's context editing (`clear_tool_uses_20250919` in the
 * Messages API's context management): once the context passes `triggerTokens` (Anthropic's default
 * 100,000), the oldest tool results are replaced by a short placeholder, keeping the last
 * `keepToolUses` tool uses (default 3) and never the tools in `excludeTools`; with `clear_at_least`
 * the clearing is skipped unless it frees that many tokens. Calls stay, optionally with their
 * input cleared too. Cleared ids persist in `previous.state`, so later runs start from the cleared
 * context and measure it as it is now.
 */
import { parseOptions } from '../compaction/options.ts';
import { TOOL_RESULT_CLEARING_OPTIONS, type ToolResultClearingOptions } from './masking/clearing-options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import { knownCompressionSavings, knownFateCounts } from '../compaction/plan-counts.ts';
import type { CompactedContext, CompactionInput, Compression, Fate, Plan, PreviousCompaction, StrategyId, TriggerDecision } from '../compaction/types.ts';
import { allKeep, fatesDerived, rewritesDerived } from './context-builder.ts';
import type { Block, Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { toolUsesOf, type ToolUse, type ToolUses } from './masking/tool-uses.ts';
import { blockTokens, isPinned, rewriteEntry, savedTokens, textTokens, type Rewrite } from './masking/rewrite.ts';
import { firstFrom } from './masking/masked-groups.ts';
import {
  CLEARABLE, ClearedIds, clearingScan, EXCLUDED, PINNED, SMALL, type ClearingRules, type ClearingScan, type IdSet,
} from './masking/clearing-scan.ts';
import { basePlan, buildEntries, countContext, fmt, unchangedContext, windowNote } from './sliding-window.ts';
import { layoutOnce } from './layout-memo.ts';
import { unseenDetail, unseenTokens } from '../compaction/unseen-prefix.ts';

export const TOOL_RESULT_CLEARING_ID: StrategyId = 'tool-result-clearing';
export { TOOL_RESULT_CLEARING_OPTIONS, type ToolResultClearingOptions };

/** What a cleared result and a cleared call input say instead. */
export const CLEARED_RESULT = '[Tool result cleared to save context]';
export const CLEARED_INPUT = '[input cleared]';

const RESULTS_KEY = 'clearedCallIds';
const INPUTS_KEY = 'clearedInputCallIds';

function idSet(value: unknown): Set<string> {
  return new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
}

export function excludedTools(option: string): Set<string> {
  return new Set(option.split(',').map((s) => s.trim()).filter((s) => s !== ''));
}

/** Rewrites of every entry touched by clearing `results` (and the inputs of `inputs`), ascending; `only`: just these entries. */
function rewrites(input: CompactionInput, byCallId: ReadonlyMap<string, ToolUse>, results: IdSet, inputs: IdSet, only?: Iterable<string>[]): Rewrite[] {
  const touched = new Set<number>();
  for (const id of only?.[0] ?? results) {
    const u = byCallId.get(id);
    if (u) touched.add(u.resultIndex);
  }
  for (const id of only?.[1] ?? inputs) {
    const u = byCallId.get(id);
    if (u?.callIndex !== undefined) touched.add(u.callIndex);
  }
  const replace = (block: Block): Block | undefined => {
    if (block.type === 'tool_result' && results.has(block.callId)) return { ...block, content: [{ type: 'text', text: CLEARED_RESULT }] };
    if (block.type === 'tool_call' && inputs.has(block.callId)) return { ...block, input: CLEARED_INPUT };
    return undefined;
  };
  const key = (i: number) => `clear:${input.entries[i]!.blocks.map((b) => (b.type === 'tool_result' && results.has(b.callId) ? 'R' : b.type === 'tool_call' && inputs.has(b.callId) ? 'I' : '-')).join('')}`;
  return [...touched].sort((a, b) => a - b).flatMap((i) => rewriteEntry(input, i, replace, key(i)) ?? []);
}

/** What an earlier run cleared, as it applies on this branch. */
interface Earlier {
  results: IdSet;
  inputs: IdSet;
  rewrites: Rewrite[];
  saved: number;
  /** Set when the clearings are every clearable use of `scan` before `upTo`: a later run continues from there. */
  scan?: ClearingScan;
  upTo?: number;
  /**
   * The rewrites as an earlier run's compressions: `list` (that run's plan) up to `relabelFrom`, and
   * `earlierCompression` of the rewrites after it (that run's new ones), made when a later run reads them.
   */
  compressions?: { list: readonly Compression[]; relabelFrom: number };
}

/**
 * The earlier run's clearings are the same at every call until the next run: kept by its state
 * (per branch and counter), once every id it names is on the branch (a longer branch holds them too).
 */
const earlierMemo = new WeakMap<object, { root: Entry; counter: TokenCounter; earlier: Earlier; entries?: readonly Entry[]; length?: number }>();

function earlierOf(input: CompactionInput, uses: ToolUses): Earlier {
  const state = input.previous?.strategy === TOOL_RESULT_CLEARING_ID ? input.previous.state : undefined;
  const memo = state ? earlierMemo.get(state) : undefined;
  // The same growing branch (a replay's) holds what it held then; another array is checked entry by entry.
  const sameBranch = memo?.entries === input.entries && input.entries.length >= (memo?.length ?? Infinity);
  if (memo && memo.root === input.entries[0] && memo.counter === input.counter && (sameBranch || memo.earlier.rewrites.every((r) => input.entries[r.index]?.id === r.entry.id))) {
    return memo.earlier;
  }
  const allResults = idSet(state?.[RESULTS_KEY]);
  const allInputs = idSet(state?.[INPUTS_KEY]);
  const results = new Set([...allResults].filter((id) => uses.byCallId.has(id)));
  const inputs = new Set([...allInputs].filter((id) => uses.byCallId.has(id)));
  const cleared = rewrites(input, uses.byCallId, results, inputs);
  const earlier: Earlier = { results, inputs, rewrites: cleared, saved: savedTokens(cleared) };
  if (state && input.entries[0] && results.size === allResults.size && inputs.size === allInputs.size) {
    earlierMemo.set(state, { root: input.entries[0], counter: input.counter, earlier });
  }
  return earlier;
}

interface Layout {
  /** The branch's tool uses: the first `useCount` of `uses` (a shared array that may grow later). */
  uses: readonly ToolUse[];
  useCount: number;
  /** Earlier runs' clearings that apply on this branch. */
  earlierResults: IdSet;
  earlierInputs: IdSet;
  earlier: Earlier;
  /**
   * Set when the layout continued a scan: where it cut, how many earlier rewrites it kept as they
   * were, the rewrites after them, the tokens all rewrites save, the plan's compressions once planned.
   */
  continued?: { scan: ClearingScan; cut: number; kept: number; tail: Rewrite[]; saved: number; compressions?: Compression[] };
  /** The current context's tokens (earlier clearings applied). */
  contextTokens: number;
  /** `contextTokens` plus the unseen prefix: the size the trigger compares with triggerTokens. */
  sentTokens: number;
  /** This run's new clearings. */
  newResults: string[];
  newInputs: string[];
  /** All rewrites (earlier and new) and the tokens the new ones free. */
  all: Rewrite[];
  freed: number;
  excluded: number;
  pinned: number;
  small: number;
}

function computeLayout(input: CompactionInput, options: ToolResultClearingOptions): Layout {
  const index = toolUsesOf(input.entries);
  const { uses, count: useCount } = index;
  const earlier = earlierOf(input, index);
  const earlierResults = earlier.results;
  const earlierInputs = earlier.inputs;
  const contextTokens = input.tokens.total - earlier.saved;
  const sentTokens = contextTokens + unseenTokens(input);
  const l: Layout = {
    uses, useCount, earlierResults, earlierInputs, earlier, contextTokens, sentTokens, newResults: [], newInputs: [], all: earlier.rewrites, freed: 0, excluded: 0, pinned: 0, small: 0,
  };
  // Under the trigger nothing is cleared: the candidates need not even be looked at (the replay asks often).
  if (sentTokens <= options.triggerTokens) return l;
  const exclude = excludedTools(options.excludeTools);
  const counter = input.counter;
  const cut = Math.max(0, useCount - options.keepToolUses);
  if (continueScan(input, options, index, earlier, cut, exclude, l)) return l;
  for (const u of uses.slice(0, cut)) {
    if (earlierResults.has(u.callId)) continue;
    if (exclude.has(u.name)) {
      l.excluded++;
      continue;
    }
    const resultEntry = input.entries[u.resultIndex]!;
    const callEntry = u.callIndex === undefined ? undefined : input.entries[u.callIndex];
    if (isPinned(input, resultEntry) || (callEntry && isPinned(input, callEntry))) {
      l.pinned++;
      continue;
    }
    const block = resultEntry.blocks.find((b) => b.type === 'tool_result' && b.callId === u.callId)!;
    const own = resultEntry.blocks.length === 1 ? input.tokens.countAt(u.resultIndex) : blockTokens(block, counter);
    // A result no longer than the placeholder stays: clearing it would grow the context.
    if (own <= textTokens(CLEARED_RESULT, counter)) {
      l.small++;
      continue;
    }
    l.newResults.push(u.callId);
    if (options.clearToolInputs && callEntry && !earlierInputs.has(u.callId)) {
      const call = callEntry.blocks.find((b) => b.type === 'tool_call' && b.callId === u.callId);
      if (call?.type === 'tool_call' && blockTokens(call, counter) > textTokens(`${call.name}(${CLEARED_INPUT})`, counter)) l.newInputs.push(u.callId);
    }
  }
  if (l.newResults.length === 0) return l;
  l.all = rewrites(input, index.byCallId, new Set([...earlierResults, ...l.newResults]), new Set([...earlierInputs, ...l.newInputs]));
  l.freed = l.contextTokens - (input.tokens.total - savedTokens(l.all));
  return l;
}

/**
 * The layout from the scan of this branch, when the earlier clearings are none or a run of this
 * scan's (every clearable use before its cut): the new clearings are the clearable uses between
 * that cut and this one, and only the entries they touch are rewritten. False when it does not
 * apply (then the layout walks every tool use). Same result either way (a property test compares).
 */
function continueScan(
  input: CompactionInput, options: ToolResultClearingOptions, index: ToolUses, earlier: Earlier, cut: number, exclude: ReadonlySet<string>, l: Layout,
): boolean {
  // With a call id in two blocks, a use does not name every entry its clearing touches.
  if (index.duplicates) return false;
  const rules: ClearingRules = { excluded: exclude, clearToolInputs: options.clearToolInputs, clearedResult: CLEARED_RESULT, clearedInput: CLEARED_INPUT };
  const scan = clearingScan(input, index.uses, options.excludeTools, rules);
  if (!scan) return false;
  const upTo = earlier.results.size === 0 && earlier.inputs.size === 0 ? 0 : earlier.scan === scan ? earlier.upTo! : -1;
  if (upTo < 0 || cut < upTo) return false;
  scan.advance(input, index.uses, cut, rules);
  const clearable = scan.counts[CLEARABLE]!;
  l.excluded = scan.counts[EXCLUDED]![cut]!;
  l.pinned = scan.counts[PINNED]![cut]!;
  l.small = scan.counts[SMALL]![cut]!;
  l.newResults = scan.clearableIds.slice(clearable[upTo], clearable[cut]);
  l.newInputs = scan.inputIds.slice(scan.inputCount[upTo], scan.inputCount[cut]);
  if (l.newResults.length === 0) return true;
  const fresh = rewrites(input, index.byCallId, new ClearedIds(scan, cut, false), new ClearedIds(scan, cut, true), [l.newResults, l.newInputs]);
  // Earlier rewrites before the first entry the new clearings touch stay as they are.
  const previous = earlier.rewrites;
  const kept = fresh.length > 0 ? firstFrom(previous, fresh[0]!.index) : previous.length;
  const touched = new Set(fresh.map((r) => r.index));
  const tail = [...previous.slice(kept).filter((r) => !touched.has(r.index)), ...fresh].sort((a, b) => a.index - b.index);
  // The savings of the kept rewrites: the earlier total less those redone (token counts are integers: exact).
  let saved = earlier.saved;
  for (let i = kept; i < previous.length; i++) saved -= previous[i]!.tokensBefore - previous[i]!.tokensAfter;
  for (const r of tail) saved += r.tokensBefore - r.tokensAfter;
  // One allocation of the final size (pushing onto a copy would copy it again as it grows).
  const all = kept === previous.length ? previous.concat(tail) : previous.slice(0, kept).concat(tail);
  rewritesDerived(all, previous, kept);
  l.all = all;
  l.freed = l.contextTokens - (input.tokens.total - saved);
  l.continued = { scan, cut, kept, tail, saved };
  return true;
}

const layout = layoutOnce(computeLayout);

function decide(input: CompactionInput, options: ToolResultClearingOptions, l = layout(input, options)): TriggerDecision {
  const over = l.sentTokens > options.triggerTokens;
  const enough = l.freed >= options.clearAtLeastTokens;
  const fire = over && l.newResults.length > 0 && enough;
  let detail = `contextTokens ${fmt(l.sentTokens)}${unseenDetail(input)} ${over ? '>' : '<='} triggerTokens ${fmt(options.triggerTokens)}`;
  if (over) {
    detail += l.newResults.length === 0
      ? `, but no older tool result can be cleared (${fmt(l.useCount)} tool uses, the last ${fmt(options.keepToolUses)} kept, ${fmt(l.earlierResults.size)} already cleared, ${fmt(l.excluded)} excluded, ${fmt(l.pinned)} pinned, ${fmt(l.small)} no longer than the placeholder)`
      : `; clearing ${fmt(l.newResults.length)} older tool results frees ${fmt(l.freed)} tokens ${enough ? '>=' : '<'} clearAtLeastTokens ${fmt(options.clearAtLeastTokens)}`;
  }
  return {
    fire, rule: 'input-tokens', detail,
    numbers: {
      contextTokens: l.sentTokens, unseenPrefixTokens: unseenTokens(input), triggerTokens: options.triggerTokens, toolUses: l.useCount, keepToolUses: options.keepToolUses,
      toClear: l.newResults.length, inputsToClear: l.newInputs.length, freedTokens: l.freed, clearAtLeastTokens: options.clearAtLeastTokens,
      alreadyCleared: l.earlierResults.size, excluded: l.excluded,
    },
  };
}

function planClearing(input: CompactionInput, options: ToolResultClearingOptions): Plan {
  const l = layout(input, options);
  const trigger = decide(input, options, l);
  const c = l.continued;
  // The fates are made once: from the last plan of this scan when there is one.
  const plan = basePlan(input, TOOL_RESULT_CLEARING_ID, options, trigger, trigger.fire && c ? clearedFates(input, l, c) : undefined);
  plan.tokensBefore = l.contextTokens;
  plan.tokensAfterEstimate = l.contextTokens;
  plan.notes.push(`Trigger: ${trigger.detail}.`);
  if (l.earlierResults.size > 0) plan.notes.push(`${fmt(l.earlierResults.size)} tool results (${fmt(l.earlierInputs.size)} inputs) were cleared by an earlier run and stay cleared; the trigger measures the context with them cleared.`);
  if (!trigger.fire) {
    plan.nothingToDo = l.contextTokens <= options.triggerTokens
      ? `Under the trigger: ${trigger.detail}; nothing is cleared.`
      : l.newResults.length === 0
        ? `Nothing to clear: ${trigger.detail}.`
        : `Not applied (clear_at_least): clearing would free only ${fmt(l.freed)} tokens < clearAtLeastTokens ${fmt(options.clearAtLeastTokens)}; nothing is cleared.`;
    return plan;
  }
  const newResults = new Set(l.newResults);
  const newInputs = new Set(l.newInputs);
  const compression = (r: Rewrite): Compression => {
    const isNew = input.entries[r.index]!.blocks.some((b) => (b.type === 'tool_result' && newResults.has(b.callId)) || (b.type === 'tool_call' && newInputs.has(b.callId)));
    return isNew ? newCompression(r, options.keepToolUses) : earlierCompression(r);
  };
  if (c) {
    // Continuing a scan: the earlier rewrites before the new ones are an earlier run's as they were.
    const compressions = earlierCompressions(l.earlier, c.kept, c.tail.map(compression));
    knownCompressionSavings(compressions, c.saved);
    plan.compressions = compressions;
    c.compressions = compressions;
  } else {
    for (const r of l.all) plan.fates[r.index] = 'compress';
    plan.compressions = l.all.map(compression);
  }
  plan.tokensAfterEstimate = l.contextTokens - l.freed;
  const kept = l.uses.slice(Math.max(0, l.useCount - options.keepToolUses), l.useCount);
  plan.notes.push(`Cleared ${fmt(l.newResults.length)} tool results, oldest first, ${fmt(l.freed)} tokens freed; the last ${fmt(kept.length)} tool uses keep their results${kept.length > 0 ? ` (${kept.map((u) => u.name || u.callId).join(', ')})` : ''}.`);
  if (l.newInputs.length > 0) plan.notes.push(`clearToolInputs: the input of ${fmt(l.newInputs.length)} cleared calls is replaced too.`);
  if (l.excluded > 0) plan.notes.push(`${fmt(l.excluded)} older results of excluded tools (${options.excludeTools}) stay.`);
  if (l.pinned > 0) plan.notes.push(`${fmt(l.pinned)} older tool uses are pinned and stay.`);
  if (l.small > 0) plan.notes.push(`${fmt(l.small)} older results are no longer than the placeholder and stay.`);
  plan.notes.push('Every call stays beside its (cleared) result; no entry leaves the context.');
  windowNote(plan, input, 'triggerTokens or keepToolUses');
  return plan;
}

function assembleClearing(input: CompactionInput, plan: Plan, options: ToolResultClearingOptions): CompactedContext {
  if (plan.nothingToDo) return unchangedContext(input, plan, input.previous ?? { strategy: TOOL_RESULT_CLEARING_ID, summaries: [] });
  const l = layout(input, options);
  const entries = buildEntries(input, plan.fates, [], l.all);
  const c = l.continued;
  const state = c
    ? c.scan.state(c.cut, RESULTS_KEY, INPUTS_KEY)
    : { [RESULTS_KEY]: [...l.earlierResults, ...l.newResults], [INPUTS_KEY]: [...l.earlierInputs, ...l.newInputs] };
  if (c && input.entries[0]) {
    // The next run on this branch continues from this one without reading the ids back.
    const earlier: Earlier = {
      results: new ClearedIds(c.scan, c.cut, false), inputs: new ClearedIds(c.scan, c.cut, true), rewrites: l.all,
      saved: c.saved, scan: c.scan, upTo: c.cut,
      ...(c.compressions ? { compressions: { list: c.compressions, relabelFrom: c.kept } } : {}),
    };
    earlierMemo.set(state, { root: input.entries[0], counter: input.counter, earlier, entries: input.entries, length: input.entries.length });
  }
  const previous: PreviousCompaction = { strategy: TOOL_RESULT_CLEARING_ID, summaries: [], state };
  return { entries, tokensAfter: countContext(input, entries), previous, truncationApplied: false, summaryApplied: false, notes: [] };
}

/** The first `kept` rewrites of an earlier run as its compressions (all labelled as cleared by an earlier run), then `after`: one new list. */
function earlierCompressions(earlier: Earlier, kept: number, after: Compression[]): Compression[] {
  if (kept === 0) return after;
  const { list, relabelFrom } = earlier.compressions ?? { list: [], relabelFrom: 0 };
  const relabelled: Compression[] = [];
  for (let i = relabelFrom; i < kept; i++) relabelled.push(earlierCompression(earlier.rewrites[i]!));
  const upTo = Math.min(kept, relabelFrom);
  // Concatenated in one allocation (pushing onto a copy copies it again as it grows).
  return (upTo === list.length ? list : list.slice(0, upTo)).concat(relabelled, after);
}

/** The fates of the last plan continuing a scan: the next one copies them and marks only its new rewrites. */
const lastFates = new WeakMap<ClearingScan, { fates: Fate[]; length: number; all: readonly Rewrite[] }>();

function clearedFates(input: CompactionInput, l: Layout, c: NonNullable<Layout['continued']>): Fate[] {
  const n = input.entries.length;
  const last = lastFates.get(c.scan);
  let fates: Fate[];
  if (last && last.length <= n && last.all === l.earlier.rewrites) {
    // The earlier rewrites are this plan's up to `kept`; those after it are redone in the tail at the same entries.
    // Concatenated, not pushed onto a copy (which copies it again as it grows) nor `length = n` (a
    // grown length makes the array holey, slower for every later reader): one packed array.
    fates = n > last.length ? last.fates.concat(allKeep(n - last.length)) : last.fates.slice();
    for (const r of c.tail) fates[r.index] = 'compress';
    fatesDerived(fates, last.fates, Math.min(last.length, c.tail[0]?.index ?? n));
  } else {
    // Packed: the next plans copy this array, and a packed one copies faster than `new Array(n)`'s holey one.
    fates = allKeep(n);
    for (const r of l.all) fates[r.index] = 'compress';
  }
  knownFateCounts(fates, { keep: n - l.all.length, summarize: 0, compress: l.all.length, drop: 0 });
  lastFates.set(c.scan, { fates, length: n, all: l.all });
  return fates;
}

function newCompression(r: Rewrite, keepToolUses: number): Compression {
  return {
    index: r.index, text: r.texts.join('\n'), tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter,
    rule: `tool result clearing: older than the last ${fmt(keepToolUses)} tool uses`,
  };
}

function earlierCompression(r: Rewrite): Compression {
  return { index: r.index, text: r.texts.join('\n'), tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter, rule: 'tool result clearing (cleared by an earlier run)' };
}

export const toolResultClearingStrategy: Strategy<ToolResultClearingOptions> = {
  id: TOOL_RESULT_CLEARING_ID,
  label: 'Tool result clearing',
  seed: 'Anthropic context editing (clear_tool_uses_20250919)',
  description: 'Over 100k tokens, clear the oldest tool results to a placeholder, keeping the last 3 tool uses (Anthropic context editing semantics, no LLM call).',
  options: TOOL_RESULT_CLEARING_OPTIONS,
  parse: (raw) => parseOptions(TOOL_RESULT_CLEARING_OPTIONS, raw) as ToolResultClearingOptions,
  trigger: (input, options) => decide(input, options),
  plan: planClearing,
  assemble: (input, plan, _summaries, options) => assembleClearing(input, plan, options),
};
