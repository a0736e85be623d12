/**
 * `fold <file>`: replays memory folding (seed 003) over a transcript's active branch and reports the
 * final level of every iteration, the folded blocks, the fold / recall events and the tokens saved.
 */
import type { Entry } from '../core/journal/entry.ts';
import { activeLeaf, pathTo } from '../core/journal/tree.ts';
import { foldRun, parseFoldOptions, type FoldedBlock, type FoldRun, type ZoneUsage } from '../core/folding/index.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { importFile } from './load.ts';

export interface FoldArgs {
  file: string;
  options: Record<string, string>;
  counter?: CounterId;
  contextWindow?: number;
}

export interface FoldReportBlock {
  id: string;
  level: number;
  from: number;
  to: number;
  title: string;
  keywords: string[];
  entities: string[];
  children: FoldReportBlock[];
  /** Journal indices of the first and last entry the block covers. */
  entryFrom: number;
  entryTo: number;
  importance: number;
  tokens: { original: number; folded: number };
  text: string;
}

export interface FoldReport {
  iterations: number;
  levels: number[];
  blocks: FoldReportBlock[];
  events: Array<{ iteration: number; trigger: string; action: string; numbers: Record<string, number>; blockId?: string }>;
  tokensBefore: number;
  tokensAfter: number;
  counter: string;
  contextWindow: number;
  moments: FoldRun['moments'];
  partitions: ZoneUsage[];
  summariesMade: number;
}

/** The branch a model saw: the active leaf's path, without harness events and subagent traffic. */
function branchEntries(journal: readonly Entry[]): Entry[] {
  const leaf = activeLeaf(journal);
  const path = leaf ? pathTo(journal, leaf.id) : journal.map((entry) => entry.index);
  return path.map((index) => journal[index]!).filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain);
}

function reportBlock(block: FoldedBlock, entries: readonly Entry[]): FoldReportBlock {
  return {
    id: block.id,
    level: block.level,
    from: block.from,
    to: block.to,
    title: block.summary.title,
    keywords: block.keywords,
    entities: block.entities,
    children: block.children.map((child) => reportBlock(child, entries)),
    entryFrom: entries[block.entryFrom]!.index,
    entryTo: entries[block.entryTo]!.index,
    importance: block.retrievability.importance,
    tokens: block.tokens,
    text: block.text,
  };
}

export async function runFold(args: FoldArgs): Promise<FoldReport> {
  const raw: Record<string, unknown> = { ...args.options };
  if (args.contextWindow !== undefined && raw.contextWindow === undefined && raw.context_window === undefined) raw.contextWindow = args.contextWindow;
  const options = parseFoldOptions(raw); // refuse a bad option before reading the file
  const result = await importFile(args.file);
  const entries = branchEntries(result.entries);
  const counter = await getCounter(args.counter ?? 'chars4');
  const { totals } = countEntries(entries, counter);
  const run = foldRun(entries, totals, options, new Map(), counter);
  return {
    iterations: run.iterations.length,
    levels: Array.from(run.levels),
    blocks: run.blocks.map((block) => reportBlock(block, entries)),
    events: run.events.map((e) => ({ iteration: e.iteration, trigger: e.trigger, action: e.action, numbers: e.numbers, ...(e.blockId ? { blockId: e.blockId } : {}) })),
    tokensBefore: run.tokensBefore,
    tokensAfter: run.tokensAfter,
    counter: counter.label,
    contextWindow: options.contextWindow,
    moments: run.moments,
    partitions: run.partitions,
    summariesMade: run.summariesMade,
  };
}

/** A human-readable report: levels strip, blocks, events, zones. */
export function formatFold(report: FoldReport): string {
  const pct = (n: number) => (report.tokensBefore > 0 ? Math.round((100 * (report.tokensBefore - n)) / report.tokensBefore) : 0);
  const lines = [
    `Iterations: ${report.iterations} (window ${report.contextWindow} tokens, ${report.counter})`,
    `Tokens: ${report.tokensBefore} -> ${report.tokensAfter} (saved ${pct(report.tokensAfter)}%)`,
    `Levels: ${report.levels.join('')}`,
    `Blocks (${report.blocks.length}):`,
    ...report.blocks.map((b) => `  L${b.level} iter ${b.from}-${b.to} [${b.tokens.original} -> ${b.tokens.folded}] ${b.title}${b.children.length ? ` (${b.children.length} children)` : ''}`),
    `Events (${report.events.length}):`,
    ...report.events.map((e) => `  @${e.iteration} ${e.trigger} -> ${e.action}${'tokensBefore' in e.numbers ? ` ${e.numbers.tokensBefore} -> ${e.numbers.tokensAfter}` : ''}${e.blockId ? ` ${e.blockId}` : ''}`),
    `Key moments: ${report.moments.map((m) => `${m.iteration}:${m.kind}`).join(' ') || 'none'}`,
    'Zones:',
    ...report.partitions.map((p) => `  ${p.zone.padEnd(10)} ${String(p.tokens).padStart(8)} / ${p.budget}`),
  ];
  return lines.join('\n');
}
