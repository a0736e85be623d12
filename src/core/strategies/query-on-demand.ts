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
  anchor, basePlan, buildEntries, countContext, fmt, iterationGroups, KEEP_TASK_OPTION, keptTokens, madeEntry,
  oldHistory, unchangedContext, windowNote, windowStart, windowTrigger, type Insert, type SimpleOptions,
} from './sliding-window.ts';
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
  indices: number[];
  end: number;
  files: string[];
  tokens: number;
}

function computeOlder(input: CompactionInput, options: QueryOnDemandOptions) {
  const groups = iterationGroups(input.entries);
  const start = windowStart(groups, options.recentSize);
  const old = oldHistory(input, groups, start, options.keepTask);
  const indices = old.groups.flatMap((g) => g.indices).filter((i) => !old.kept.has(i));
  const end = old.groups.reduce((n, g) => n + g.count, 0);
  const lists = fileLists(entryActions(indices.map((i) => input.entries[i]!)));
  const files = [...new Set([...lists.modified, ...lists.read])];
  const tokens = indices.reduce((n, i) => n + input.tokens.range(i, i), 0);
  return { groups, start, notes: old.notes, old: { indices, end, files, tokens } satisfies Old };
}

const older = layoutOnce(computeOlder);

function indexEntry(input: CompactionInput, old: Old, tool: boolean) {
  const from = input.entries[old.indices[0]!]!;
  const to = input.entries[old.indices[old.indices.length - 1]!]!;
  const shown = old.files.slice(0, INDEX_FILES);
  const files = old.files.length > shown.length ? [...shown, `and ${old.files.length - shown.length} more`] : shown;
  const text = indexText({ end: old.end, entries: old.indices.length, firstId: from.id, lastId: to.id, files, tool });
  return { entry: madeEntry(input, `history-index:${to.id}`, text, from, to), from, to };
}

function planQueryOnDemand(input: CompactionInput, options: QueryOnDemandOptions): Plan {
  const trigger = windowTrigger(input, options.recentSize, 'recentSize');
  const plan = basePlan(input, QUERY_ON_DEMAND_ID, options, trigger);
  if (!trigger.fire) {
    plan.nothingToDo = `Only ${fmt(trigger.numbers.iterations!)} iterations, within the ${fmt(options.recentSize)} kept verbatim; nothing to move out.`;
    plan.notes.push(`Window: ${trigger.detail}.`);
    return plan;
  }
  const { groups, start, notes, old } = older(input, options);
  plan.notes.push(`Window: ${trigger.detail}.`, ...notes);
  for (const i of old.indices) plan.fates[i] = 'drop';
  const first = groups[start]!;
  plan.cut = { index: first.indices[0]!, rule: `first entry of the last ${fmt(options.recentSize)} iterations (whole tool pairs)` };
  let index = 0;
  if (old.indices.length > 0) {
    const made = indexEntry(input, old, options.enableQueryTool);
    index = countContext(input, [{ role: 'user', entry: made.entry, origin: 'synthetic' }]);
    plan.notes.push(
      `Retrievable${options.enableQueryTool ? ` with ${QUERY_HISTORY_TOOL.name}` : ' from the journal (query tool off)'}: iterations 1-${fmt(old.end)}, ${fmt(old.indices.length)} entries ${made.from.id}..${made.to.id}, ${fmt(old.tokens)} tokens${
        old.files.length > 0 ? `; files ${old.files.join(', ')}` : ''}.`,
      `Replaced by a ${fmt(index)}-token index entry; no summary is made.`,
    );
  }
  plan.tokensAfterEstimate = keptTokens(input, plan.fates) + index;
  windowNote(plan, input, 'recentSize');
  return plan;
}

function assembleQueryOnDemand(input: CompactionInput, plan: Plan, options: QueryOnDemandOptions): CompactedContext {
  const previous: PreviousCompaction = { strategy: QUERY_ON_DEMAND_ID, summaries: [] };
  if (plan.nothingToDo) return unchangedContext(input, plan, previous);
  const { old } = older(input, options);
  const inserts: Insert[] = [];
  if (old.indices.length > 0) {
    const made = indexEntry(input, old, options.enableQueryTool);
    inserts.push({ at: anchor(old.indices, plan.fates), item: { role: 'user', entry: made.entry, origin: 'synthetic', replaces: { fromId: made.from.id, toId: made.to.id, count: old.indices.length } } });
  }
  const entries = buildEntries(input, plan.fates, inserts);
  const cut = plan.cut ? input.entries[plan.cut.index] : undefined;
  return {
    entries, tokensAfter: countContext(input, entries),
    previous: { ...previous, ...(cut ? { firstKeptEntryId: cut.id } : {}), state: { queryTool: options.enableQueryTool, retrievableEntries: old.indices.length } },
    truncationApplied: old.indices.length > 0, summaryApplied: false, notes: [],
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
