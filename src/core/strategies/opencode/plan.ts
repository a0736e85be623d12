/**
 * opencode's trigger and planner. The context overflows at window - output cap - reserved; then
 * everything since the last compaction but a recent tail of user turns (within a token budget) is
 * summarized, and the tail stays verbatim after the summary. Apart from that, when a new user turn
 * starts, old tool outputs beyond the protected newest ones are pruned if that frees enough.
 */
import type { CompactionInput, Compression, Fate, Plan, SummaryTask, TriggerDecision } from '../../compaction/types.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';
import type { Entry } from '../../journal/entry.ts';
import { agentView, indexOfId, initialContextIndices, isRealUserMessage, viewTokens, type AgentView } from '../agent-state.ts';
import { formatNumber as fmt } from '../format-number.ts';
import { savedTokens, type Rewrite } from '../masking/rewrite.ts';
import { opencodeLimits, type OpencodeOptions } from './options.ts';
import { PRUNED_OUTPUT, pruneRewrites, scanPrune, type PrunedOutput, type PruneScan } from './prune.ts';

export const OPENCODE_ID = 'opencode' as const;
/** Task and prompt id of the summary (prompts/opencode-summary.md). */
export const OPENCODE_TASK = 'opencode-summary';

/** The context as it is now: the last compaction's view with the outputs pruned since applied. */
export interface OpencodeNow {
  view: AgentView;
  pruned: PrunedOutput[];
  rewrites: Rewrite[];
  /** Transcript tokens of that context (the counter's). */
  tokens: number;
}

function prunedOf(input: CompactionInput): PrunedOutput[] {
  const state = input.previous?.strategy === OPENCODE_ID ? input.previous.state : undefined;
  const list = state?.pruned;
  return Array.isArray(list) ? list.filter((p): p is PrunedOutput => typeof p?.callId === 'string' && typeof p?.entryId === 'string') : [];
}

export function opencodeNow(input: CompactionInput): OpencodeNow {
  const view = agentView(input, OPENCODE_ID);
  const pruned = prunedOf(input);
  const rewrites = pruneRewrites(input, view.start, pruned);
  return { view, pruned, rewrites, tokens: viewTokens(input, view) - savedTokens(rewrites) };
}

function pruneScanOf(input: CompactionInput, options: OpencodeOptions, now: OpencodeNow): PruneScan | undefined {
  const last = input.entries[input.entries.length - 1];
  if (!options.prune || !last || !isRealUserMessage(last)) return undefined;
  return scanPrune(input, now.view.start, new Set(now.pruned.map((p) => p.callId)), options.pruneProtectTokens, options.pruneMinimumTokens);
}

export function triggerOpencode(input: CompactionInput, options: OpencodeOptions, now = opencodeNow(input)): TriggerDecision {
  const limits = opencodeLimits(options, input.contextWindow);
  const unseen = unseenTokens(input);
  const tokens = now.tokens + unseen;
  const numbers = { contextTokens: tokens, usable: limits.usable, contextWindow: limits.window, reserved: limits.reserved };
  const rule = `window ${fmt(limits.window)} - maxOutputTokens ${fmt(options.maxOutputTokens)} - reserved ${fmt(limits.reserved)}`;
  if (options.auto && tokens >= limits.usable) {
    return { fire: true, rule: 'overflow', detail: `context ${fmt(tokens)} >= usable ${fmt(limits.usable)} (${rule})`, numbers };
  }
  const scan = pruneScanOf(input, options, now);
  if (scan && scan.cleared.length > 0) {
    return { fire: true, rule: 'prune', detail: `a new turn starts and ${fmt(scan.freed)} estimated tokens of tool output lie beyond the protected ${fmt(options.pruneProtectTokens)} (> ${fmt(options.pruneMinimumTokens)})`, numbers: { ...numbers, pruneTokens: scan.freed } };
  }
  const why = options.auto ? `context ${fmt(tokens)} < usable ${fmt(limits.usable)} (${rule})` : 'compaction.auto = false: opencode compacts only on /compact';
  return { fire: false, rule: options.auto ? 'overflow' : 'disabled', detail: why, numbers };
}

/** No tool output of `entries[s..end)` has its call before `s`: a tail starting at `s` keeps every pair whole. */
function wholePairsFrom(entries: readonly Entry[], s: number, end: number): boolean {
  for (let i = s; i < end; i++) {
    for (const b of entries[i]!.blocks) {
      if (b.type !== 'tool_result' || b.callEntryId === undefined) continue;
      const at = indexOfId(entries, b.callEntryId);
      if (at >= 0 && at < s) return false;
    }
  }
  return true;
}

/** Index of the first entry of the recent tail kept verbatim (`n` when none), as opencode picks it. */
export function tailStart(input: CompactionInput, options: OpencodeOptions, start: number): number {
  const n = input.entries.length;
  if (options.tailTurns <= 0) return n;
  const budget = opencodeLimits(options, input.contextWindow).tailBudget;
  const starts: number[] = [];
  for (let i = start; i < n; i++) if (isRealUserMessage(input.entries[i]!)) starts.push(i);
  const recent = starts.slice(-options.tailTurns);
  let total = 0;
  let keep: number | undefined;
  for (let k = recent.length - 1; k >= 0; k--) {
    const from = recent[k]!;
    const end = k + 1 < recent.length ? recent[k + 1]! : n;
    const size = input.tokens.range(from, end - 1);
    if (total + size <= budget) {
      total += size;
      keep = from;
      continue;
    }
    for (let s = from + 1; s < end; s++) {
      if (input.tokens.range(s, end - 1) <= budget - total && wholePairsFrom(input.entries, s, end)) {
        keep = s;
        break;
      }
    }
    break;
  }
  return keep === undefined || keep <= start ? n : keep;
}

export function opencodeNothingToDo(input: CompactionInput): string | undefined {
  const view = agentView(input, OPENCODE_ID);
  return view.start > 0 && view.start >= input.entries.length ? 'No entries recorded since the last compaction: nothing to compact.' : undefined;
}

function basePlan(input: CompactionInput, options: OpencodeOptions, trigger: TriggerDecision, now: OpencodeNow): Plan {
  const fates: Fate[] = input.entries.map((_, i) => (i < now.view.start ? 'summarize' : 'keep'));
  for (const item of now.view.items) {
    const i = item.origin === 'journal' ? indexOfId(input.entries, item.entry.id) : -1;
    if (i >= 0) fates[i] = 'keep';
  }
  for (const r of now.rewrites) fates[r.index] = 'compress';
  return {
    strategy: OPENCODE_ID, options: { ...options }, trigger, fates, summaries: [], compressions: [],
    tokensBefore: now.tokens, tokensAfterEstimate: now.tokens, notes: [...now.view.notes],
  };
}

const compression = (r: Rewrite, rule: string): Compression => ({ index: r.index, text: PRUNED_OUTPUT, tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter, rule });

export function planOpencode(input: CompactionInput, options: OpencodeOptions): Plan {
  const now = opencodeNow(input);
  const trigger = triggerOpencode(input, options, now);
  const plan = basePlan(input, options, trigger, now);
  const idle = opencodeNothingToDo(input) ?? (input.entries.length === 0 ? 'The branch is empty: nothing to compact.' : undefined);
  if (idle) return { ...plan, notes: [...plan.notes, idle], nothingToDo: idle };

  if (trigger.rule === 'prune') {
    const scan = pruneScanOf(input, options, now)!;
    const fresh = pruneRewrites(input, now.view.start, scan.cleared);
    for (const r of fresh) plan.fates[r.index] = 'compress';
    plan.compressions = fresh.map((r) => compression(r, `opencode prune: older than the newest ${fmt(options.pruneProtectTokens)} tokens of tool output`));
    plan.tokensAfterEstimate = now.tokens - savedTokens(fresh);
    plan.notes.push(`Prune ${scan.cleared.length} old tool output(s) (${fmt(scan.freed)} tokens by opencode's chars/4 estimate): the last two user turns and the newest ${fmt(options.pruneProtectTokens)} tokens of output stay whole; calls stay.`);
    return plan;
  }

  const initial = new Set(initialContextIndices(input.entries));
  const tail = pairSafeTail(input, now.view, tailStart(input, options, now.view.start));
  // The previous compaction's tail is history now too: summarized with what came after it.
  const summarized: number[] = [];
  for (const item of now.view.items) {
    const i = item.origin === 'journal' ? indexOfId(input.entries, item.entry.id) : -1;
    if (i >= 0 && !initial.has(i)) summarized.push(i);
  }
  for (let i = now.view.start; i < tail; i++) if (!initial.has(i)) summarized.push(i);
  if (summarized.length === 0) {
    const reason = 'Everything since the last compaction is the initial context or the recent tail: nothing to summarize.';
    return { ...plan, notes: [...plan.notes, reason], nothingToDo: reason };
  }
  for (const i of summarized) plan.fates[i] = 'summarize';
  for (const i of initial) plan.fates[i] = 'keep';
  const tailRewrites = now.rewrites.filter((r) => r.index >= tail);
  for (const r of tailRewrites) plan.fates[r.index] = 'compress';
  plan.compressions = tailRewrites.map((r) => compression(r, 'pruned earlier'));
  const task: SummaryTask = {
    id: OPENCODE_TASK, prompt: OPENCODE_TASK, from: summarized[0]!, to: summarized[summarized.length - 1]!, indices: summarized,
    ...(now.view.summary !== undefined ? { previousSummary: now.view.summary } : {}),
  };
  plan.summaries = [task];
  let after = 0;
  for (const i of initial) after += input.tokens.countAt(i);
  if (tail < input.entries.length) after += input.tokens.range(tail, input.entries.length - 1) - savedTokens(tailRewrites);
  plan.tokensAfterEstimate = after;
  if (tail < input.entries.length) plan.cut = { index: tail, rule: `recent tail: the last ${options.tailTurns} user turn(s) within ${fmt(opencodeLimits(options, input.contextWindow).tailBudget)} tokens` };
  plan.notes.push(
    `Summarize ${summarized.length} entries${now.view.summary !== undefined ? ' with the previous summary' : ''}; ${tail < input.entries.length ? `keep the recent tail from ${input.entries[tail]!.id} verbatim` : 'no recent tail fits its budget: nothing is kept verbatim'}; the initial context (${initial.size} entries) stays.`,
    'opencode does not cap the summary here: the estimate counts it once written (offline), or leaves it out (a model writes it).',
  );
  return plan;
}

/**
 * Where the verbatim tail may start so that a call and its result are summarized together or kept
 * together: the latest start at or before the budget's `tail` at which every summarized call (in
 * the previous compaction's tail, or before the start) has its result summarized too and none is
 * still waiting for its result (a run compacted while a tool ran); else the earliest one after it.
 */
function pairSafeTail(input: CompactionInput, view: AgentView, tail: number): number {
  const results = (entry: Entry): number[] => entry.blocks.flatMap((b) => (b.type === 'tool_call' && b.resultEntryId !== undefined ? [indexOfId(input.entries, b.resultEntryId)] : []));
  let furthest = -1;
  for (const item of view.items) if (item.origin === 'journal') furthest = Math.max(furthest, ...results(item.entry));
  let pending = false;
  let before = -1;
  for (let t = view.start; t <= input.entries.length; t++) {
    const valid = !pending && furthest < t;
    if (valid && t <= tail) before = t;
    if (valid && t > tail) return before >= 0 ? before : t;
    if (t === input.entries.length) break;
    for (const r of results(input.entries[t]!)) {
      if (r < 0) pending = true;
      furthest = Math.max(furthest, r);
    }
    if (t >= tail && before >= 0) return before;
  }
  return before >= 0 ? before : tail;
}
