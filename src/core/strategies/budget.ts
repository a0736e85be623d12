/**
 * Budget trimming (seed 004): precheck the input against window minus reserved output; when over,
 * drop the oldest low-value history (tool chains, then assistant text, then user words — whole
 * chains only, never the system entries or the last user message), re-check, and reject with the
 * precheck's own error if it still does not fit. Optionally a short `[历史摘要记忆]` block stands in
 * for what was dropped.
 */
import { contextTokens } from '../compaction/context-tokens.ts';
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import { knownFateCounts, knownKeptItems } from '../compaction/plan-counts.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type {
  CompactedContext, CompactionInput, ContextEntry, Fate, Plan, SummaryTask, TriggerDecision,
} from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { journalItem, journalItemAt } from './budget/journal-items.ts';
import { capMemoryBlock, fitMemoryBlock, MEMORY_MARKER, memoryEntry, memoryReserveTokens } from './budget/memory-block.ts';
import { BudgetExceededError, budgetNumbers, fmt, precheck, type BudgetNumbers } from './budget/precheck.ts';
import { tierCut, tierKeptFates } from './budget/tier-cut.ts';
import { unitView, type UnitView } from './budget/unit-view.ts';
import { lastUserIndex, TIER_LABELS } from './budget/units.ts';

export interface BudgetOptions {
  [name: string]: number | boolean | string;
  /** Tokens kept free for the model's answer; input budget = context window - this. Default 16,384 tokens. */
  reservedOutputTokens: number;
  /** The latest entries never dropped (whole tool chains they touch included). Default 6 entries. */
  keepRecentEntries: number;
  /** Summarize dropped history into a `[历史摘要记忆]` block (the seed's BUDGET_HISTORY_SUMMARY_ENABLED). Default false. */
  summaryEnabled: boolean;
  /** Lines of the memory block under its marker. Default 8 lines. */
  memoryMaxLines: number;
  /** Characters of the whole memory block, marker included; the plan reserves its tokens. Default 800 chars. */
  memoryMaxChars: number;
}

/** The option specs, with the seed's spellings as aliases (its env switch for the memory block). */
export const BUDGET_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'reservedOutputTokens', alias: 'reserved_output_tokens', type: 'integer', default: 16_384, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'Output budget kept free; the input budget is the context window minus this.',
  },
  {
    name: 'keepRecentEntries', alias: 'keep_recent_entries', type: 'integer', default: 6, min: 0, max: 100_000, unit: 'entries',
    description: 'The latest entries (with the tool chains they touch) are never dropped.',
  },
  {
    name: 'summaryEnabled', alias: 'BUDGET_HISTORY_SUMMARY_ENABLED', type: 'boolean', default: false,
    description: 'Compress dropped history into a short [历史摘要记忆] memory block before the last user message.',
  },
  {
    name: 'memoryMaxLines', alias: 'memory_max_lines', type: 'integer', default: 8, min: 1, max: 200, unit: 'lines',
    description: 'Lines of the memory block under its marker.',
  },
  {
    name: 'memoryMaxChars', alias: 'memory_max_chars', type: 'integer', default: 800, min: 40, max: 20_000, unit: 'chars',
    description: 'Characters of the whole memory block; its tokens are reserved when the re-check runs.',
  },
];

/** Id of the one summary task the plan may ask for. */
export const MEMORY_TASK_ID = 'budget-memory';
export const MEMORY_PROMPT_ID = 'budget-memory-block';

interface Selection {
  /** Roots of the dropped units, in drop order. */
  dropped: number[];
  kept: number;
}

/** Per plan (by its fates list): the input indices it keeps, so assembling reads only those. */
const keptIndices = new WeakMap<readonly Fate[], number[]>();

/** Drops droppable units in order until the kept tokens are at most `target`; undefined if they never are. */
function select(total: number, order: readonly number[], view: UnitView, target: number): Selection | undefined {
  let kept = total;
  const dropped: number[] = [];
  for (const root of order) {
    if (kept <= target) break;
    dropped.push(root);
    kept -= view.tokens[root]!;
  }
  return kept <= target ? { dropped, kept } : undefined;
}

/** The units that may be dropped, lowest tier first, oldest first within a tier. */
function dropOrder(view: UnitView): number[] {
  const byTier: [number[], number[], number[]] = [[], [], []];
  const { roots, tier, protectedBy } = view;
  for (let k = 0; k < roots.length; k++) {
    const root = roots[k]!;
    if (!protectedBy.has(root)) byTier[tier[root] as 0 | 1 | 2].push(root);
  }
  return byTier[0].concat(byTier[1], byTier[2]);
}

/** Roots of the protected units, ascending (the order the notes and sums go in). */
function protectedRoots(view: UnitView): number[] {
  return [...view.protectedBy.keys()].sort((a, b) => a - b);
}

/**
 * Fates from the kept units' entries alone (most of a long history is dropped): every droppable unit
 * past the first `droppedUnits` of `order`, and every protected unit.
 */
function keptFates(view: UnitView, next: Int32Array, order: readonly number[], droppedUnits: number): { fates: Fate[]; kept: number[]; droppedIdx: number[] } {
  const fates = new Array<Fate>(view.length).fill('drop');
  const found: number[] = [];
  const collect = (root: number) => {
    for (let i = root; i >= 0; i = next[i]!) found.push(i);
  };
  for (let k = droppedUnits; k < order.length; k++) collect(order[k]!);
  for (const root of view.protectedBy.keys()) collect(root);
  const kept = Array.from(Int32Array.from(found).sort());
  for (const i of kept) fates[i] = 'keep';
  return { fates, kept, droppedIdx: [] };
}

/** Fates in one pass over every entry, listing the dropped ones. */
function allFates(view: UnitView, dropped: readonly number[]): { fates: Fate[]; kept: number[]; droppedIdx: number[] } {
  const droppedRoot = new Uint8Array(view.length);
  for (const root of dropped) droppedRoot[root] = 1;
  const droppedIdx: number[] = [];
  const kept: number[] = [];
  const fates: Fate[] = [];
  const unitOf = view.root;
  for (let i = 0; i < view.length; i++) {
    if (droppedRoot[unitOf[i]!] === 1) {
      fates.push('drop');
      droppedIdx.push(i);
    } else {
      fates.push('keep');
      kept.push(i);
    }
  }
  return { fates, kept, droppedIdx };
}

/** Every entry kept. */
function keepAll(input: CompactionInput): Fate[] {
  return new Array<Fate>(input.entries.length).fill('keep');
}

/** A plan that changes nothing yet; `fates` are every entry kept unless given (a trimming plan writes its own). */
function basePlan(input: CompactionInput, options: BudgetOptions, trigger: TriggerDecision, fates: Fate[] = keepAll(input)): Plan {
  const total = input.tokens.total;
  return {
    strategy: 'budget',
    options: { ...options },
    trigger,
    fates,
    summaries: [],
    compressions: [],
    tokensBefore: total,
    tokensAfterEstimate: total,
    notes: [],
  };
}

function protectedNote(view: UnitView, input: CompactionInput): string {
  const counts = new Map<string, number>();
  let tokens = 0;
  let entries = 0;
  for (const root of protectedRoots(view)) {
    const reason = view.protectedBy.get(root)!;
    const size = view.size[root]!;
    counts.set(reason, (counts.get(reason) ?? 0) + size);
    tokens += view.tokens[root]!;
    entries += size;
  }
  const last = lastUserIndex(input.entries);
  const parts = [...counts].map(([reason, n]) => (reason === 'last user message' && last !== undefined ? `${reason} ${input.entries[last]!.id}` : `${reason} ${n}`));
  return `Never dropped: ${fmt(entries)} entries, ${fmt(tokens)} tokens (${parts.join(', ') || 'none'}).`;
}

function planBudget(input: CompactionInput, options: BudgetOptions): Plan {
  const numbers = budgetNumbers(input, options.reservedOutputTokens);
  const trigger = precheck(numbers);
  const plan = basePlan(input, options, trigger, trigger.fire ? [] : keepAll(input));
  if (!trigger.fire) {
    plan.nothingToDo = `Under the input budget: ${trigger.detail}; nothing to trim.`;
    plan.notes.push(`Precheck: ${trigger.detail}.`);
    return plan;
  }
  plan.notes.push(`Precheck: ${trigger.detail}; trimming the oldest low-value history.`);
  const view = unitView(input, options.keepRecentEntries);
  plan.notes.push(protectedNote(view, input));
  if (view.order && view.next && !options.summaryEnabled) return planByTiers(plan, numbers, view, view.next);
  const order = dropOrder(view);
  const reserve = options.summaryEnabled ? memoryReserveTokens(input.counter, options.memoryMaxChars) : 0;

  let withSummary = options.summaryEnabled;
  let selection = select(numbers.input, order, view, numbers.budget - reserve);
  if (!selection && withSummary) {
    selection = select(numbers.input, order, view, numbers.budget);
    if (selection) {
      withSummary = false;
      plan.notes.push(`Memory block skipped: its ${fmt(reserve)}-token reserve does not fit next to the entries that are never dropped.`);
    }
  }
  if (!selection) return reject(plan, numbers, view, reserve);

  // The dropped indices are listed only for the memory block.
  const { fates, kept, droppedIdx } = view.next && !withSummary ? keptFates(view, view.next, order, selection.dropped.length) : allFates(view, selection.dropped);
  plan.fates = fates;
  keptIndices.set(fates, kept);
  const droppedCount = fates.length - kept.length;
  knownFateCounts(fates, { keep: kept.length, summarize: 0, compress: 0, drop: droppedCount });
  const byTier = [0, 0, 0];
  for (const root of selection.dropped) byTier[view.tier[root]!]! += view.size[root]!;
  plan.notes.push(
    `Dropped ${fmt(droppedCount)} entries, ${fmt(numbers.input - selection.kept)} tokens, oldest first within each tier (${
      byTier.map((n, tier) => `${TIER_LABELS[tier as 0 | 1 | 2]} ${n}`).join(', ')}).`,
  );
  const memory = withSummary && droppedCount > 0 ? reserve : 0;
  plan.tokensAfterEstimate = selection.kept + memory;
  plan.notes.push(
    memory > 0
      ? `Re-check: kept ${fmt(selection.kept)} + memory reserve ${fmt(memory)} = ${fmt(selection.kept + memory)} <= budget ${fmt(numbers.budget)}.`
      : `Re-check: kept ${fmt(selection.kept)} <= budget ${fmt(numbers.budget)}.`,
  );
  if (memory > 0) plan.summaries.push(memoryTask(input, droppedIdx, options, memory));
  return plan;
}

/**
 * The plan without a memory block, its cut read off the tier lists' running sums (the same units
 * dropped as walking the drop order one unit at a time).
 */
function planByTiers(plan: Plan, numbers: BudgetNumbers, view: UnitView, next: Int32Array): Plan {
  const cut = tierCut(view, view.order!, numbers.input, numbers.budget);
  if (!cut) return reject(plan, numbers, view, 0);
  const { fates, kept } = tierKeptFates(view, view.order!, next, cut);
  plan.fates = fates;
  keptIndices.set(fates, kept);
  const droppedCount = fates.length - kept.length;
  knownFateCounts(fates, { keep: kept.length, summarize: 0, compress: 0, drop: droppedCount });
  plan.notes.push(
    `Dropped ${fmt(droppedCount)} entries, ${fmt(numbers.input - cut.kept)} tokens, oldest first within each tier (${
      cut.droppedSize.map((n, tier) => `${TIER_LABELS[tier as 0 | 1 | 2]} ${n}`).join(', ')}).`,
  );
  plan.tokensAfterEstimate = cut.kept;
  plan.notes.push(`Re-check: kept ${fmt(cut.kept)} <= budget ${fmt(numbers.budget)}.`);
  return plan;
}

function reject(plan: Plan, numbers: BudgetNumbers, view: UnitView, reserve: number): Plan {
  plan.fates = new Array<Fate>(view.length).fill('keep');
  let floor = 0;
  for (const root of protectedRoots(view)) floor += view.tokens[root]!;
  const error = new BudgetExceededError(numbers);
  plan.nothingToDo = `${error.message}. Trimming cannot bring it under: the entries that are never dropped take ${fmt(floor)} tokens${
    reserve > 0 ? ` (plus ${fmt(reserve)} reserved for the memory block)` : ''}. Raise the context window or lower reservedOutputTokens or keepRecentEntries.`;
  plan.notes.push(`Rejected after trimming, same as the precheck: ${error.message}.`);
  return plan;
}

/** The one summary of dropped history. Dropped entries are not contiguous: `indices` names exactly them. */
function memoryTask(input: CompactionInput, dropped: readonly number[], options: BudgetOptions, reserve: number): SummaryTask {
  const entries = dropped.map((i) => input.entries[i]!);
  return {
    id: MEMORY_TASK_ID,
    prompt: MEMORY_PROMPT_ID,
    from: dropped[0]!,
    to: dropped[dropped.length - 1]!,
    indices: [...dropped],
    maxTokens: reserve,
    vars: {
      marker: MEMORY_MARKER,
      max_lines: String(options.memoryMaxLines),
      max_chars: String(options.memoryMaxChars),
      dropped_count: String(entries.length),
    },
  };
}

function unchanged(input: CompactionInput, plan: Plan): CompactedContext {
  const entries = input.entries.map(journalItem);
  return {
    entries,
    tokensAfter: contextTokens(input, entries),
    previous: input.previous ?? { strategy: 'budget', summaries: [] },
    truncationApplied: false,
    summaryApplied: false,
    notes: plan.nothingToDo ? [plan.nothingToDo] : [],
  };
}

function build(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: BudgetOptions, failure?: Error): CompactedContext {
  if (plan.nothingToDo) return unchanged(input, plan);
  const notes: string[] = [];
  const entries: ContextEntry[] = [];
  const dropped: Entry[] = [];
  const { fates } = plan;
  const all = input.entries;
  /** Tokens of `entries` (journal entries only, in order: what `contextTokens` counts). */
  let keptTokens = 0;
  const task = plan.summaries.find((t) => t.id === MEMORY_TASK_ID);
  const known = task ? undefined : keptIndices.get(fates);
  if (known) {
    // Without a memory block only the kept entries matter, and how many were dropped.
    for (const i of known) {
      entries.push(journalItemAt(all[i]!, i));
      keptTokens += input.tokens.countAt(i);
    }
    return trimmed(plan, entries, keptTokens, all.length - known.length);
  }
  for (let i = 0; i < all.length; i++) {
    const entry = all[i]!;
    if (fates[i] !== 'drop') {
      entries.push(journalItem(entry));
      keptTokens += input.tokens.countAt(i);
    } else dropped.push(entry);
  }
  let summaryApplied = false;
  if (task && dropped.length > 0) {
    const raw = failure ? undefined : summaries.get(task.id);
    const capped = raw === undefined ? undefined : capMemoryBlock(raw, options.memoryMaxLines, options.memoryMaxChars);
    const lastUser = lastUserIndex(input.entries);
    const at = lastUser === undefined ? entries.findIndex((e) => e.role !== 'system') : entries.findIndex((e) => e.entry === input.entries[lastUser]);
    const pos = at < 0 ? entries.length : at;
    const make = (text: string) => memoryEntry(text, dropped[0]!, entries[pos - 1]?.entry.id ?? null, input.now);
    const room = plan.trigger.numbers.budget! - keptTokens;
    const text = capped === undefined ? undefined : fitMemoryBlock(capped, room, input.counter, make);
    if (failure) notes.push(`Memory block skipped: the summary failed (${failure.message}); history is trimmed without it.`);
    else if (capped === undefined) notes.push('Memory block skipped: the summarizer returned no text.');
    else if (text === undefined) notes.push(`Memory block skipped: not even its first line fits in the ${fmt(Math.max(0, room))} tokens left.`);
    else {
      if (text !== capped) notes.push(`Memory block shortened to fit the ${fmt(room)} tokens left under the budget.`);
      const first = dropped[0]!;
      const last = dropped[dropped.length - 1]!;
      entries.splice(pos, 0, { role: 'user', entry: make(text), origin: 'summary', replaces: { fromId: first.id, toId: last.id, count: dropped.length } });
      summaryApplied = true;
    }
  }
  const memory = summaryApplied ? entries.find((e) => e.origin === 'summary') : undefined;
  knownKeptItems(entries, summaryApplied ? entries.length - 1 : entries.length);
  return {
    entries,
    tokensAfter: summaryApplied ? contextTokens(input, entries) : keptTokens,
    previous: {
      strategy: 'budget',
      summaries: memory ? [memory.entry.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('')] : [],
      state: { budget: plan.trigger.numbers.budget, droppedEntries: dropped.length },
    },
    truncationApplied: dropped.length > 0,
    summaryApplied,
    notes,
  };
}

/** The trimmed context without a memory block: the kept journal entries, `tokens` in all. */
function trimmed(plan: Plan, entries: ContextEntry[], tokens: number, droppedCount: number): CompactedContext {
  knownKeptItems(entries, entries.length);
  return {
    entries,
    tokensAfter: tokens,
    previous: { strategy: 'budget', summaries: [], state: { budget: plan.trigger.numbers.budget, droppedEntries: droppedCount } },
    truncationApplied: droppedCount > 0,
    summaryApplied: false,
    notes: [],
  };
}

export const budgetStrategy: Strategy<BudgetOptions> = {
  id: 'budget',
  label: 'Budget trimming',
  seed: '004',
  description: 'Over the input budget, drop the oldest low-value history (tool output first), optionally leaving a short memory block.',
  options: BUDGET_OPTIONS,
  parse: (raw) => parseOptions(BUDGET_OPTIONS, raw) as BudgetOptions,
  trigger: (input, options) => precheck(budgetNumbers(input, options.reservedOutputTokens)),
  plan: planBudget,
  assemble: (input, plan, summaries, options) => build(input, plan, summaries, options),
  // A failed summary costs only the memory block: the trimmed context already fits without it.
  fallback: (input, plan, options, reason) => (plan.nothingToDo ? undefined : build(input, plan, new Map(), options, reason)),
};
