/**
 * `fold <file>`: replays memory folding (seed 003) over a transcript's active branch and reports the
 * final level of every iteration, the folded blocks, the fold / recall events and the tokens saved;
 * with `--simulate a-b`, also what folding that range into one block would save (F13).
 */
import type { Entry } from '../core/journal/entry.ts';
import { buildInput } from '../core/compaction/input.ts';
import type { InputScope, ReplayFrom } from '../core/compaction/input-scope.ts';
import { FoldSimulateError, foldRun, parseFoldOptions, parseRange, simulateFold, type FoldedBlock, type FoldRun, type FoldSimulation, type ZoneUsage } from '../core/folding/index.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { importFile, loadPrompts } from './load.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';

export interface FoldArgs {
  file: string;
  options: Record<string, string>;
  counter?: CounterId;
  contextWindow?: number;
  /** F13: fold iterations "a-b" into one block and report the savings (the run is not changed). */
  simulate?: string;
  /** Level of the simulated block: 2 (default), 3 or 4. */
  level?: number;
  /** Who writes the simulated block: 'offline' (default) or 'model', which `model` then is (model-command.ts). */
  summarizer?: string;
  model?: Summarizer;
  /** Where the fold starts (`--from`, default 'start': the first entry, the source's own compactions left out). */
  from?: ReplayFrom;
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
  events: Array<{ iteration: number; trigger: string; action: string; numbers: Record<string, number>; blockId?: string; iterations?: number[] }>;
  tokensBefore: number;
  tokensAfter: number;
  counter: string;
  contextWindow: number;
  moments: FoldRun['moments'];
  partitions: ZoneUsage[];
  summariesMade: number;
  /** Where the fold started, what it held and why. */
  scope: InputScope;
  simulation?: FoldSimulation;
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

/** The simulate arguments checked before anything is read. */
function simulateArgs(args: FoldArgs): { from: number; to: number; level: 2 | 3 | 4 } | undefined {
  if (args.simulate === undefined) {
    if (args.level !== undefined || args.summarizer !== undefined) throw new FoldSimulateError('--level and --summarizer go with --simulate <a-b>.');
    return undefined;
  }
  if (args.summarizer !== undefined && args.summarizer !== 'offline' && !(args.summarizer === 'model' && args.model)) throw new FoldSimulateError(`--summarizer must be offline or model (with --base-url and --model); got "${args.summarizer}".`);
  const level = args.level ?? 2;
  if (level !== 2 && level !== 3 && level !== 4) throw new FoldSimulateError(`--level must be 2 (summary), 3 (chapter) or 4 (phase line); got ${level}.`);
  return { ...parseRange(args.simulate), level };
}

export async function runFold(args: FoldArgs): Promise<FoldReport> {
  const simulate = simulateArgs(args);
  const raw: Record<string, unknown> = { ...args.options };
  if (args.contextWindow !== undefined && raw.contextWindow === undefined && raw.context_window === undefined) raw.contextWindow = args.contextWindow;
  const options = parseFoldOptions(raw); // refuse a bad option before reading the file
  const result = await importFile(args.file);
  const counter = await getCounter(args.counter ?? 'chars4');
  // The active branch as the app folds it (`buildInput`): from its first entry unless `from` says otherwise.
  const counted = countEntries(result.entries, counter).totals;
  const built = buildInput(result.entries, counted, counter, { contextWindow: options.contextWindow, ...(args.from ? { from: args.from } : {}) });
  const entries = built.input.entries;
  const totals = built.journalIndex.map((index) => counted[index] ?? 0);
  const run = foldRun(entries, totals, options, new Map(), counter);
  const simulation = simulate ? await simulateFold(run, entries, totals, { ...simulate, counter, ...(args.summarizer === 'model' && args.model ? { summarizer: args.model, prompts: loadPrompts() } : {}) }) : undefined;
  return {
    iterations: run.iterations.length,
    levels: Array.from(run.levels),
    blocks: run.blocks.map((block) => reportBlock(block, entries)),
    events: run.events.map((e) => ({ iteration: e.iteration, trigger: e.trigger, action: e.action, numbers: e.numbers, ...(e.blockId ? { blockId: e.blockId } : {}), ...(e.iterations ? { iterations: e.iterations } : {}) })),
    tokensBefore: run.tokensBefore,
    tokensAfter: run.tokensAfter,
    counter: counter.label,
    contextWindow: options.contextWindow,
    moments: run.moments,
    partitions: run.partitions,
    summariesMade: run.summariesMade,
    scope: built.scope,
    ...(simulation ? { simulation } : {}),
  };
}

function formatSimulation(sim: FoldSimulation): string[] {
  const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;
  return [
    `Simulate: iterations ${sim.from}-${sim.to} folded into one L${sim.level} block (${sim.summarizer}; the run is not changed)`,
    `  levels now  ${sim.levelsBefore.map((n, level) => (n ? `L${level}×${n}` : '')).filter(Boolean).join(' ')}`,
    `  range       ${sim.range.before} tokens now (${sim.range.original} in full) -> ${sim.range.after}`,
    `  context     ${sim.context.before} -> ${sim.context.after}`,
    `  savings     ${sim.savings.tokens} tokens (${pct(sim.savings.ofRange)} of the range, ${pct(sim.savings.ofContext)} of the context)`,
    ...(sim.note ? [`  note        ${sim.note}`] : []),
    ...sim.text.split('\n').map((line) => `  | ${line}`),
  ];
}

/** A human-readable report: levels strip, blocks, events, zones. */
export function formatFold(report: FoldReport): string {
  const pct = (n: number) => (report.tokensBefore > 0 ? Math.round((100 * (report.tokensBefore - n)) / report.tokensBefore) : 0);
  const lines = [
    `Iterations: ${report.iterations} (window ${report.contextWindow} tokens, ${report.counter})`,
    `Tokens: ${report.tokensBefore} -> ${report.tokensAfter} (saved ${pct(report.tokensAfter)}%)`,
    `Levels: ${report.levels.join('')}`,
    `Scope: ${report.scope.note}`,
    `Blocks (${report.blocks.length}):`,
    ...report.blocks.map((b) => `  L${b.level} iter ${b.from}-${b.to} [${b.tokens.original} -> ${b.tokens.folded}] ${b.title}${b.children.length ? ` (${b.children.length} children)` : ''}`),
    `Events (${report.events.length}):`,
    ...report.events.map((e) => `  @${e.iteration} ${e.trigger} -> ${e.action}${'tokensBefore' in e.numbers ? ` ${e.numbers.tokensBefore} -> ${e.numbers.tokensAfter}` : ''}${e.blockId ? ` ${e.blockId}` : ''}`),
    `Key moments: ${report.moments.map((m) => `${m.iteration}:${m.kind}`).join(' ') || 'none'}`,
    'Zones:',
    ...report.partitions.map((p) => `  ${p.zone.padEnd(10)} ${String(p.tokens).padStart(8)} / ${p.budget}`),
    ...(report.simulation ? formatSimulation(report.simulation) : []),
  ];
  return lines.join('\n');
}
