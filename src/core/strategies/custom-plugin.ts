/**
 * The custom strategy (seed 003, "Plugin-based Extension"): the user's own JavaScript decides which
 * entries stay, which ranges are summarized and (by omission) which leave the context. The code runs
 * in a sandbox worker (src/worker/sandbox/plugin-runner.ts); this module is the pure half: the plain data
 * the plugin is given, the validation of what it returns, and the strategy that applies a plan.
 *
 * The plugin interface (what the user pastes):
 *
 *   // entries: PluginEntry[] (one branch, oldest first); options: the JSON object typed next to the code.
 *   export default function plan(entries, options) {
 *     // may also be async / return a Promise
 *     return {
 *       keep: [0, 1, 40, 41],        // indices kept verbatim
 *       summarize: [[2, 39]],         // optional: inclusive [from, to] ranges, one summary each
 *     };                              // every other index is dropped from the context
 *   }
 *
 *   PluginEntry = { index, id, role: 'system'|'user'|'assistant'|'tool'|'summary', kind, text, tokens,
 *                   pinned, calls: [{ callId, name, resultIndex | null }],
 *                   result: { callId, callIndex | null, isError } | null }
 *
 * Rules the plan must follow (each violation is named): indices are integers within the entries;
 * an index is listed once (keep, or one summarize range); system and pinned entries are kept; a tool call and
 * its result are both in the context or both out of it.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Fate, Plan, StrategyId, SummaryTask, TriggerDecision } from '../compaction/types.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import {
  basePlan, buildEntries, countContext, fmt, keptTokens, madeEntry, needSummary, unchangedContext, windowNote, type Insert,
} from './sliding-window.ts';
import { CHECKPOINT_PROMPT_ID } from './checkpoints.ts';

// StrategyId is a closed union the lead widens when registering this strategy: until then, a cast.
export const CUSTOM_ID = 'custom' as StrategyId;

/** What the plugin is given for one entry: plain data, nothing else of the page or the journal. */
export interface PluginEntry {
  index: number;
  id: string;
  role: Entry['role'];
  kind: Entry['kind'];
  text: string;
  tokens: number;
  pinned: boolean;
  calls: Array<{ callId: string; name: string; resultIndex: number | null }>;
  result: { callId: string; callIndex: number | null; isError: boolean } | null;
}

/** A validated plugin answer. */
export interface PluginPlan {
  keep: number[];
  summarize: Array<[number, number]>;
}

/** The plugin's code did not load (syntax error, missing default export). */
export class PluginLoadError extends Error {
  override name = 'PluginLoadError';
  constructor(message: string, readonly line?: number) {
    super(`The plugin did not load: ${message}${line !== undefined ? ` (line ${line})` : ''}. Fix the code and run it again.`);
  }
}

/** The plugin threw while planning. */
export class PluginRuntimeError extends Error {
  override name = 'PluginRuntimeError';
  constructor(message: string, readonly line?: number) {
    super(`The plugin threw: ${message}${line !== undefined ? ` (line ${line})` : ''}.`);
  }
}

export class PluginTimeoutError extends Error {
  override name = 'PluginTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`The plugin did not answer within ${fmt(timeoutMs)} ms and was stopped. Look for an endless loop, or make it faster.`);
  }
}

/** The plugin's answer breaks the rules; every violation is listed. */
export class PluginPlanError extends Error {
  override name = 'PluginPlanError';
  constructor(readonly violations: string[]) {
    super(`The plugin returned an invalid plan:\n- ${violations.join('\n- ')}`);
  }
}

/** The line of the user's code in an error stack (the module is loaded from a blob: URL). */
export function pluginErrorLine(stack: string | undefined): number | undefined {
  const match = stack?.match(/blob:[^\s)]*?:(\d+):\d+/);
  return match ? Number(match[1]) : undefined;
}

/** The plain data posted to the plugin worker. */
export function pluginEntries(input: CompactionInput): PluginEntry[] {
  const at = new Map(input.entries.map((e, i) => [e.id, i]));
  return input.entries.map((entry, index) => {
    const calls: PluginEntry['calls'] = [];
    let result: PluginEntry['result'] = null;
    for (const b of entry.blocks) {
      if (b.type === 'tool_call') calls.push({ callId: b.callId, name: b.name, resultIndex: (b.resultEntryId !== undefined ? at.get(b.resultEntryId) : undefined) ?? null });
      if (b.type === 'tool_result' && result === null) result = { callId: b.callId, callIndex: (b.callEntryId !== undefined ? at.get(b.callEntryId) : undefined) ?? null, isError: b.isError };
    }
    return {
      index, id: entry.id, role: entry.role, kind: entry.kind, text: entryText(entry), tokens: input.tokens.range(index, index),
      pinned: Boolean(input.pinned?.has(entry.id) || entry.flags?.pinned), calls, result,
    };
  });
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Checks a plugin's raw answer against the entries it was given; throws PluginPlanError naming every violation. */
export function validatePluginPlan(raw: unknown, entries: readonly PluginEntry[]): PluginPlan {
  const v: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new PluginPlanError([`expected an object { keep: [...], summarize?: [[from, to], ...] }, got ${show(raw)}`]);
  const { keep, summarize = [] } = raw as { keep?: unknown; summarize?: unknown };
  if (!Array.isArray(keep)) v.push(`"keep" must be an array of entry indices, got ${show(keep)}`);
  if (!Array.isArray(summarize)) v.push(`"summarize" must be an array of [from, to] ranges, got ${show(summarize)}`);
  if (v.length > 0) throw new PluginPlanError(v);
  const n = entries.length;
  const owner = new Map<number, string>();
  const validIndex = (x: unknown, where: string): x is number => {
    if (typeof x !== 'number' || !Number.isInteger(x)) v.push(`${where}: ${show(x)} is not a whole number`);
    else if (x < 0 || x >= n) v.push(`${where}: index ${x} is outside 0..${n - 1}`);
    else return true;
    return false;
  };
  const claim = (i: number, what: string) => {
    const prior = owner.get(i);
    if (prior !== undefined) v.push(`index ${i} is listed twice (${prior} and ${what})`);
    else owner.set(i, what);
  };
  const out: PluginPlan = { keep: [], summarize: [] };
  (keep as unknown[]).forEach((x, k) => {
    if (validIndex(x, `keep[${k}]`)) {
      claim(x, 'keep');
      out.keep.push(x);
    }
  });
  (summarize as unknown[]).forEach((range, k) => {
    if (!Array.isArray(range) || range.length !== 2) {
      v.push(`summarize[${k}]: expected [from, to], got ${show(range)}`);
      return;
    }
    const [from, to] = range as [unknown, unknown];
    if (!validIndex(from, `summarize[${k}][0]`) || !validIndex(to, `summarize[${k}][1]`)) return;
    if (from > to) {
      v.push(`summarize[${k}]: from ${from} is after to ${to}`);
      return;
    }
    for (let i = from; i <= to; i++) claim(i, `summarize[${k}]`);
    out.summarize.push([from, to]);
  });
  const fate = (i: number) => (owner.get(i) === 'keep' ? 'in' : 'out');
  for (const e of entries) {
    if (e.role === 'system' && e.kind === 'message' && fate(e.index) !== 'in') v.push(`system entry ${e.index} (${e.id}) must be kept`);
    if (e.pinned && fate(e.index) !== 'in') v.push(`pinned entry ${e.index} (${e.id}) must be kept`);
    for (const call of e.calls) {
      if (call.resultIndex !== null && call.resultIndex < n && fate(e.index) !== fate(call.resultIndex)) {
        v.push(`tool call ${call.callId} (entry ${e.index}) and its result (entry ${call.resultIndex}) are split: keep both or neither`);
      }
    }
  }
  if (v.length > 0) throw new PluginPlanError(v);
  out.keep.sort((a, b) => a - b);
  out.summarize.sort((a, b) => a[0] - b[0]);
  return out;
}

export interface CustomOptions {
  [name: string]: number | boolean | string;
  /** The plugin's answer as JSON (runPlugin's result); empty until the plugin has run. Default ''. */
  plan: string;
  /** Upper bound on each summary of a summarize range. Default 500 tokens. */
  summaryMaxTokens: number;
}

export const CUSTOM_OPTIONS: readonly OptionSpec[] = [
  { name: 'plan', alias: 'plugin_plan', type: 'text', default: '', description: 'The plan the plugin returned, as JSON (filled in by running the plugin).' },
  { name: 'summaryMaxTokens', alias: 'summary_max_tokens', type: 'integer', default: 500, min: 10, max: 100_000, unit: 'tokens', description: 'Upper bound on each summary.' },
];

function parsed(input: CompactionInput, options: CustomOptions): PluginPlan | undefined {
  if (options.plan.trim() === '') return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(options.plan);
  } catch (error) {
    throw new PluginPlanError([`the plan is not valid JSON: ${(error as Error).message}`]);
  }
  return validatePluginPlan(raw, pluginEntries(input));
}

function fatesOf(input: CompactionInput, plan: PluginPlan): Fate[] {
  const fates = input.entries.map((): Fate => 'drop');
  for (const i of plan.keep) fates[i] = 'keep';
  for (const [from, to] of plan.summarize) for (let i = from; i <= to; i++) fates[i] = 'summarize';
  return fates;
}

function customTrigger(input: CompactionInput, options: CustomOptions): TriggerDecision {
  const plan = parsed(input, options);
  const kept = plan ? plan.keep.length : input.entries.length;
  return {
    fire: plan !== undefined && kept < input.entries.length,
    rule: 'plugin',
    detail: plan ? `the plugin keeps ${fmt(kept)} of ${fmt(input.entries.length)} entries` : 'the plugin has not run yet',
    numbers: { entries: input.entries.length, kept, ranges: plan?.summarize.length ?? 0, contextTokens: input.tokens.total },
  };
}

export function customTaskId(k: number): string {
  return `custom-${k + 1}`;
}

function planCustom(input: CompactionInput, options: CustomOptions): Plan {
  const trigger = customTrigger(input, options);
  const plan = basePlan(input, CUSTOM_ID, options, trigger);
  const pp = parsed(input, options);
  if (!pp || !trigger.fire) {
    plan.nothingToDo = pp ? 'The plugin keeps every entry; nothing to compact.' : 'Run the plugin first: its answer fills the plan option.';
    return plan;
  }
  plan.fates = fatesOf(input, pp);
  plan.summaries = pp.summarize.map(([from, to], k): SummaryTask => ({
    id: customTaskId(k), prompt: CHECKPOINT_PROMPT_ID, from, to, maxTokens: options.summaryMaxTokens,
    vars: { instruction: `Summarize entries ${from}-${to} in a few sentences`, span: `entries ${from}-${to}`, start: String(from), end: String(to) },
  }));
  plan.notes.push(`Plugin: ${trigger.detail}, summarizes ${fmt(pp.summarize.length)} range(s), drops ${fmt(plan.fates.filter((f) => f === 'drop').length)} entries.`);
  plan.tokensAfterEstimate = keptTokens(input, plan.fates) + pp.summarize.length * options.summaryMaxTokens;
  windowNote(plan, input, 'the entries the plugin keeps');
  return plan;
}

function assembleCustom(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>): CompactedContext {
  if (plan.nothingToDo) return unchangedContext(input, plan, { strategy: CUSTOM_ID, summaries: [] });
  const texts: string[] = [];
  const inserts: Insert[] = plan.summaries.map((task, k) => {
    const text = needSummary(summaries, customTaskId(k), 'custom');
    texts.push(text);
    const from = input.entries[task.from]!;
    const to = input.entries[task.to]!;
    const entry = madeEntry(input, `custom-summary:${k + 1}:${to.id}`, `[Summary of entries ${task.from}-${task.to}]\n${text.trim()}`, from, to);
    return { at: task.from, item: { role: 'user', entry, origin: 'summary', replaces: { fromId: from.id, toId: to.id, count: task.to - task.from + 1 } } };
  });
  const entries = buildEntries(input, plan.fates, inserts);
  return {
    entries, tokensAfter: countContext(input, entries), previous: { strategy: CUSTOM_ID, summaries: texts },
    truncationApplied: plan.fates.includes('drop'), summaryApplied: inserts.length > 0, notes: [],
  };
}

export const customStrategy: Strategy<CustomOptions> = {
  id: CUSTOM_ID,
  label: 'Custom (your plugin)',
  seed: '003',
  description: 'Your own JavaScript picks what to keep, summarize and drop; it runs sandboxed in a worker.',
  options: CUSTOM_OPTIONS,
  parse: (raw) => parseOptions(CUSTOM_OPTIONS, raw) as CustomOptions,
  trigger: customTrigger,
  plan: planCustom,
  assemble: (input, plan, summaries) => assembleCustom(input, plan, summaries),
};

