/**
 * Tool result clearing, after Anthropic's context editing (`clear_tool_uses_20250919` in the
 * Messages API's context management): once the context passes `triggerTokens` (Anthropic's default
 * 100,000), the oldest tool results are replaced by a short placeholder, keeping the last
 * `keepToolUses` tool uses (default 3) and never the tools in `excludeTools`; with `clear_at_least`
 * the clearing is skipped unless it frees that many tokens. Calls stay, optionally with their
 * input cleared too. Cleared ids persist in `previous.state`, so later runs start from the cleared
 * context and measure it as it is now.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Plan, PreviousCompaction, StrategyId, TriggerDecision } from '../compaction/types.ts';
import type { Block, Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { toolUsesOf, type ToolUse, type ToolUses } from './masking/tool-uses.ts';
import { blockTokens, isPinned, rewriteEntry, savedTokens, textTokens, type Rewrite } from './masking/rewrite.ts';
import { basePlan, buildEntries, countContext, fmt, unchangedContext, windowNote } from './sliding-window.ts';
import { layoutOnce } from './layout-memo.ts';

export const TOOL_RESULT_CLEARING_ID: StrategyId = 'tool-result-clearing';

/** What a cleared result and a cleared call input say instead. */
export const CLEARED_RESULT = '[Tool result cleared to save context]';
export const CLEARED_INPUT = '[input cleared]';

export interface ToolResultClearingOptions {
  [name: string]: number | boolean | string;
  /** Clear when the current context passes this many tokens (Anthropic `trigger`). Default 100,000 tokens. */
  triggerTokens: number;
  /** The newest tool uses whose results are never cleared (Anthropic `keep`). Default 3 tool uses. */
  keepToolUses: number;
  /** Clear only if at least this many tokens are freed, else nothing (Anthropic `clear_at_least`). Default 0 tokens. */
  clearAtLeastTokens: number;
  /** Comma-separated tool names whose results are never cleared (Anthropic `exclude_tools`). Default empty. */
  excludeTools: string;
  /** Also replace the cleared calls' input (Anthropic `clear_tool_inputs`). Default false. */
  clearToolInputs: boolean;
}

export const TOOL_RESULT_CLEARING_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'triggerTokens', alias: 'trigger', type: 'integer', default: 100_000, min: 1, max: 100_000_000, unit: 'tokens',
    description: 'Clearing starts once the current context (earlier clearings applied) is above this.',
  },
  {
    name: 'keepToolUses', alias: 'keep', type: 'integer', default: 3, min: 0, max: 1_000_000, unit: 'tool uses',
    description: 'The most recent tool uses keep their results; older results are cleared, oldest first.',
  },
  {
    name: 'clearAtLeastTokens', alias: 'clear_at_least', type: 'integer', default: 0, min: 0, max: 100_000_000, unit: 'tokens',
    description: 'If clearing cannot free at least this many tokens, nothing is cleared (worth breaking the prompt cache or not).',
  },
  {
    name: 'excludeTools', alias: 'exclude_tools', type: 'string', default: '',
    description: 'Comma-separated tool names whose results are never cleared.',
  },
  {
    name: 'clearToolInputs', alias: 'clear_tool_inputs', type: 'boolean', default: false,
    description: 'Also replace the input of each cleared call; by default only results are cleared and the calls stay visible.',
  },
];

const RESULTS_KEY = 'clearedCallIds';
const INPUTS_KEY = 'clearedInputCallIds';

function idSet(value: unknown): Set<string> {
  return new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
}

export function excludedTools(option: string): Set<string> {
  return new Set(option.split(',').map((s) => s.trim()).filter((s) => s !== ''));
}

/** Rewrites of every entry touched by clearing `results` (and the inputs of `inputs`), ascending. */
function rewrites(input: CompactionInput, byCallId: ReadonlyMap<string, ToolUse>, results: ReadonlySet<string>, inputs: ReadonlySet<string>): Rewrite[] {
  const touched = new Set<number>();
  for (const id of results) {
    const u = byCallId.get(id);
    if (u) touched.add(u.resultIndex);
  }
  for (const id of inputs) {
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
  results: Set<string>;
  inputs: Set<string>;
  rewrites: Rewrite[];
  saved: number;
}

/**
 * The earlier run's clearings are the same at every call until the next run: kept by its state
 * (per branch and counter), once every id it names is on the branch (a longer branch holds them too).
 */
const earlierMemo = new WeakMap<object, { root: Entry; counter: TokenCounter; earlier: Earlier }>();

function earlierOf(input: CompactionInput, uses: ToolUses): Earlier {
  const state = input.previous?.strategy === TOOL_RESULT_CLEARING_ID ? input.previous.state : undefined;
  const memo = state ? earlierMemo.get(state) : undefined;
  if (memo && memo.root === input.entries[0] && memo.counter === input.counter && memo.earlier.rewrites.every((r) => input.entries[r.index]?.id === r.entry.id)) {
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
  uses: readonly ToolUse[];
  /** Earlier runs' clearings that apply on this branch. */
  earlierResults: Set<string>;
  earlierInputs: Set<string>;
  /** The current context's tokens (earlier clearings applied). */
  contextTokens: number;
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
  const { uses } = index;
  const earlier = earlierOf(input, index);
  const earlierResults = earlier.results;
  const earlierInputs = earlier.inputs;
  const contextTokens = input.tokens.total - earlier.saved;
  const l: Layout = {
    uses, earlierResults, earlierInputs, contextTokens, newResults: [], newInputs: [], all: earlier.rewrites, freed: 0, excluded: 0, pinned: 0, small: 0,
  };
  // Under the trigger nothing is cleared: the candidates need not even be looked at (the replay asks often).
  if (contextTokens <= options.triggerTokens) return l;
  const exclude = excludedTools(options.excludeTools);
  const counter = input.counter;
  const cut = Math.max(0, uses.length - options.keepToolUses);
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

const layout = layoutOnce(computeLayout);

function decide(input: CompactionInput, options: ToolResultClearingOptions, l = layout(input, options)): TriggerDecision {
  const over = l.contextTokens > options.triggerTokens;
  const enough = l.freed >= options.clearAtLeastTokens;
  const fire = over && l.newResults.length > 0 && enough;
  let detail = `contextTokens ${fmt(l.contextTokens)} ${over ? '>' : '<='} triggerTokens ${fmt(options.triggerTokens)}`;
  if (over) {
    detail += l.newResults.length === 0
      ? `, but no older tool result can be cleared (${fmt(l.uses.length)} tool uses, the last ${fmt(options.keepToolUses)} kept, ${fmt(l.earlierResults.size)} already cleared, ${fmt(l.excluded)} excluded, ${fmt(l.pinned)} pinned, ${fmt(l.small)} no longer than the placeholder)`
      : `; clearing ${fmt(l.newResults.length)} older tool results frees ${fmt(l.freed)} tokens ${enough ? '>=' : '<'} clearAtLeastTokens ${fmt(options.clearAtLeastTokens)}`;
  }
  return {
    fire, rule: 'input-tokens', detail,
    numbers: {
      contextTokens: l.contextTokens, triggerTokens: options.triggerTokens, toolUses: l.uses.length, keepToolUses: options.keepToolUses,
      toClear: l.newResults.length, inputsToClear: l.newInputs.length, freedTokens: l.freed, clearAtLeastTokens: options.clearAtLeastTokens,
      alreadyCleared: l.earlierResults.size, excluded: l.excluded,
    },
  };
}

function planClearing(input: CompactionInput, options: ToolResultClearingOptions): Plan {
  const l = layout(input, options);
  const trigger = decide(input, options, l);
  const plan = basePlan(input, TOOL_RESULT_CLEARING_ID, options, trigger);
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
  for (const r of l.all) {
    plan.fates[r.index] = 'compress';
    const isNew = input.entries[r.index]!.blocks.some((b) => (b.type === 'tool_result' && newResults.has(b.callId)) || (b.type === 'tool_call' && newInputs.has(b.callId)));
    plan.compressions.push({
      index: r.index, text: r.texts.join('\n'), tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter,
      rule: isNew ? `tool result clearing: older than the last ${fmt(options.keepToolUses)} tool uses` : 'tool result clearing (cleared by an earlier run)',
    });
  }
  plan.tokensAfterEstimate = l.contextTokens - l.freed;
  const kept = l.uses.slice(Math.max(0, l.uses.length - options.keepToolUses));
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
  const entries = buildEntries(input, plan.fates, [], new Map(l.all.map((r) => [r.index, r.entry])));
  const previous: PreviousCompaction = {
    strategy: TOOL_RESULT_CLEARING_ID, summaries: [],
    state: { [RESULTS_KEY]: [...l.earlierResults, ...l.newResults], [INPUTS_KEY]: [...l.earlierInputs, ...l.newInputs] },
  };
  return { entries, tokensAfter: countContext(input, entries), previous, truncationApplied: false, summaryApplied: false, notes: [] };
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
