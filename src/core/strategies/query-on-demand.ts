/**
 * Query on demand (seed 003, 方案4 / "Query-on-Demand"): keep [System + Task] and the recent
 * iterations; everything older leaves the context without a summary and one short index entry
 * tells the model it can search the full journal with the `query_history` tool. No LLM call.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Plan, PreviousCompaction, StrategyId } from '../compaction/types.ts';
import { entryActions, fileLists } from '../compaction/tool-actions.ts';
import {
  basePlan, buildEntries, countContext, fmt, iterationGroups, KEEP_TASK_OPTION, madeEntry,
  oldHistory, unchangedContext, windowNote, windowStart, windowTrigger, type Insert, type IterationGroup, type SimpleOptions,
} from './sliding-window.ts';
import { oldRange } from './group-facts.ts';
import { windowFates } from './window-fates.ts';
import { layoutOnce } from './layout-memo.ts';

// StrategyId is a closed union the lead widens when registering this strategy: until then, a cast.
export const QUERY_ON_DEMAND_ID = 'query-on-demand' as StrategyId;

/** The tool the index entry points the model at (the seed's definition). */
export const QUERY_HISTORY_TOOL = {
  name: 'query_history',
  description: 'Search past iterations by keyword',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
} as const;

export interface QueryOnDemandOptions extends SimpleOptions {
  /** Iterations kept verbatim, counted from the newest. Default 50 iterations. */
  recentSize: number;
  /** Tell the model about the query_history tool in the index entry. Default true. */
  enableQueryTool: boolean;
}

export const QUERY_ON_DEMAND_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'recentSize', alias: 'recent_size', type: 'integer', default: 50, min: 1, max: 1_000_000, unit: 'iterations',
    description: 'The most recent N iterations stay verbatim; older ones are only reachable by query.',
  },
  {
    name: 'enableQueryTool', alias: 'enable_query_tool', type: 'boolean', default: true,
    description: 'Offer the query_history tool and say so in the index entry.',
  },
  KEEP_TASK_OPTION,
];

/** At most this many file paths are named in the index entry, so it stays short. */
const INDEX_FILES = 8;

/** What the model is told about the history it no longer sees. */
export function indexText(args: { end: number; entries: number; firstId: string; lastId: string; files: readonly string[]; tool: boolean }): string {
  const lines = [
    `[Earlier history not shown: iterations 1-${args.end} (${args.entries} entries, ${args.firstId} to ${args.lastId}). It is kept in full in the journal.]`,
  ];
  if (args.files.length > 0) lines.push(`Files touched there: ${args.files.join(', ')}.`);
  lines.push(args.tool
    ? `To look something up, call the ${QUERY_HISTORY_TOOL.name} tool with a keyword (e.g. a file name, an error message or a phase); the matching past iterations are shown to you for one turn.`
    : 'It cannot be searched from here: ask the user if you need something from it.');
  return lines.join('\n');
}

interface Old {
  /** How many older entries leave the context, the first and last of them (input indices). */
  count: number;
  first: number;
  last: number;
  end: number;
  files: string[];
  tokens: number;
}

/**
 * The files the older entries touched, gathered group by group as the window moves forward (a
 * replay asks at every call), by the first group of the branch, pinned set and keepTask.
 */
class OldFiles {
  readonly seen: IterationGroup[] = [];
  readonly read = new Set<string>();
  readonly modified = new Set<string>();
  private listed: { read: number; modified: number; files: string[] } | undefined;

  constructor(readonly pinned: CompactionInput['pinned'], readonly keepTask: boolean) {}

  advance(input: CompactionInput, groups: readonly IterationGroup[], upTo: number, kept: ReadonlySet<number>): void {
    let n = Math.min(this.seen.length, upTo);
    while (n > 0 && this.seen[n - 1] !== groups[n - 1]) n--;
    if (n < this.seen.length) {
      // An older group was replaced (a late result merged it): read them all again.
      this.seen.length = 0;
      this.read.clear();
      this.modified.clear();
      this.listed = undefined;
      n = 0;
    }
    for (let k = n; k < upTo; k++) {
      const group = groups[k]!;
      this.seen.push(group);
      for (const i of group.indices) {
        if (kept.has(i)) continue;
        const lists = fileLists(entryActions([input.entries[i]!]));
        for (const path of lists.read) this.read.add(path);
        for (const path of lists.modified) this.modified.add(path);
      }
    }
  }

  /** Files modified, then files only read, each sorted (as `fileLists` gives them over all the entries). */
  files(): string[] {
    if (this.listed?.read === this.read.size && this.listed.modified === this.modified.size) return this.listed.files;
    const modified = [...this.modified].sort();
    const read = [...this.read].filter((path) => !this.modified.has(path)).sort();
    this.listed = { read: this.read.size, modified: this.modified.size, files: [...modified, ...read] };
    return this.listed.files;
  }
}

const fileScans = new WeakMap<IterationGroup, OldFiles>();

function oldFiles(input: CompactionInput, groups: readonly IterationGroup[], start: number, kept: ReadonlySet<number>, keepTask: boolean): string[] {
  const first = groups[0];
  if (!first || start === 0) return [];
  let scan = fileScans.get(first);
  if (!scan || scan.pinned !== input.pinned || scan.keepTask !== keepTask) fileScans.set(first, (scan = new OldFiles(input.pinned, keepTask)));
  scan.advance(input, groups, start, kept);
  return scan.files();
}

function computeOlder(input: CompactionInput, options: QueryOnDemandOptions) {
  const groups = iterationGroups(input.entries);
  const start = windowStart(groups, options.recentSize);
  const old = oldHistory(input, groups, start, options.keepTask);
  const cut = groups[start]?.indices[0] ?? input.entries.length;
  const range = oldRange(input, groups, cut, old.kept);
  const end = start < groups.length ? groups[start]!.first - 1 : groups.reduce((n, g) => n + g.count, 0);
  const files = oldFiles(input, groups, start, old.kept, options.keepTask);
  return { groups, start, kept: old.kept, notes: old.notes, old: { ...range, end, files } satisfies Old };
}

const older = layoutOnce(computeOlder);

function indexEntry(input: CompactionInput, old: Old, tool: boolean) {
  const from = input.entries[old.first]!;
  const to = input.entries[old.last]!;
  const shown = old.files.slice(0, INDEX_FILES);
  const files = old.files.length > shown.length ? [...shown, `and ${old.files.length - shown.length} more`] : shown;
  const text = indexText({ end: old.end, entries: old.count, firstId: from.id, lastId: to.id, files, tool });
  return { entry: madeEntry(input, `history-index:${to.id}`, text, from, to), from, to };
}

function planQueryOnDemand(input: CompactionInput, options: QueryOnDemandOptions): Plan {
  const trigger = windowTrigger(input, options.recentSize, 'recentSize');
  // A firing plan writes its own fates.
  const plan = basePlan(input, QUERY_ON_DEMAND_ID, options, trigger, trigger.fire ? [] : undefined);
  if (!trigger.fire) {
    plan.nothingToDo = `Only ${fmt(trigger.numbers.iterations!)} iterations, within the ${fmt(options.recentSize)} kept verbatim; nothing to move out.`;
    plan.notes.push(`Window: ${trigger.detail}.`);
    return plan;
  }
  const { groups, start, kept, notes, old } = older(input, options);
  plan.notes.push(`Window: ${trigger.detail}.`, ...notes);
  const first = groups[start]!;
  const { fates, droppedTokens } = windowFates(input, groups, start, kept);
  plan.fates = fates;
  plan.cut = { index: first.indices[0]!, rule: `first entry of the last ${fmt(options.recentSize)} iterations (whole tool pairs)` };
  let index = 0;
  if (old.count > 0) {
    const made = indexEntry(input, old, options.enableQueryTool);
    index = countContext(input, [{ role: 'user', entry: made.entry, origin: 'synthetic' }]);
    plan.notes.push(
      `Retrievable${options.enableQueryTool ? ` with ${QUERY_HISTORY_TOOL.name}` : ' from the journal (query tool off)'}: iterations 1-${fmt(old.end)}, ${fmt(old.count)} entries ${made.from.id}..${made.to.id}, ${fmt(old.tokens)} tokens${
        old.files.length > 0 ? `; files ${old.files.join(', ')}` : ''}.`,
      `Replaced by a ${fmt(index)}-token index entry; no summary is made.`,
    );
  }
  // Kept: everything but the dropped entries.
  plan.tokensAfterEstimate = plan.tokensBefore - droppedTokens + index;
  windowNote(plan, input, 'recentSize');
  return plan;
}

function assembleQueryOnDemand(input: CompactionInput, plan: Plan, options: QueryOnDemandOptions): CompactedContext {
  const previous: PreviousCompaction = { strategy: QUERY_ON_DEMAND_ID, summaries: [] };
  if (plan.nothingToDo) return unchangedContext(input, plan, previous);
  const { old } = older(input, options);
  const inserts: Insert[] = [];
  if (old.count > 0) {
    const made = indexEntry(input, old, options.enableQueryTool);
    // Every older entry is dropped: the index goes where the first of them was.
    inserts.push({ at: old.first, item: { role: 'user', entry: made.entry, origin: 'synthetic', replaces: { fromId: made.from.id, toId: made.to.id, count: old.count } } });
  }
  const entries = buildEntries(input, plan.fates, inserts);
  const cut = plan.cut ? input.entries[plan.cut.index] : undefined;
  return {
    entries, tokensAfter: countContext(input, entries),
    previous: { ...previous, ...(cut ? { firstKeptEntryId: cut.id } : {}), state: { queryTool: options.enableQueryTool, retrievableEntries: old.count } },
    truncationApplied: old.count > 0, summaryApplied: false, notes: [],
  };
}

export const queryOnDemandStrategy: Strategy<QueryOnDemandOptions> = {
  id: QUERY_ON_DEMAND_ID,
  label: 'Query on demand',
  seed: '003',
  description: 'Recent iterations verbatim; older history is replaced by an index and searched with query_history.',
  options: QUERY_ON_DEMAND_OPTIONS,
  parse: (raw) => parseOptions(QUERY_ON_DEMAND_OPTIONS, raw) as QueryOnDemandOptions,
  trigger: (input, options) => windowTrigger(input, options.recentSize, 'recentSize'),
  plan: planQueryOnDemand,
  assemble: (input, plan, _summaries, options) => assembleQueryOnDemand(input, plan, options),
};
