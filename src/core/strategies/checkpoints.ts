/**
 * Sliding window with checkpoints (seed 003, 方案1 / "Sliding Window with Checkpoints"): the
 * context is [System + Task] [Checkpoints] [recent window]. Every `checkpointInterval` iterations
 * that have left the window become one checkpoint summary (prompt `checkpoint`); checkpoints made
 * by an earlier run are reused, so each block is summarized once.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, Plan, StrategyId, SummaryTask, TriggerDecision } from '../compaction/types.ts';
import {
  anchor, basePlan, buildEntries, countContext, fmt, iterationGroups, KEEP_TASK_OPTION, keptTokens, madeEntry, needSummary,
  oldHistory, totalIterations, unchangedContext, windowNote, windowStart, type Insert, type IterationGroup, type SimpleOptions,
} from './sliding-window.ts';
import { layoutOnce } from './layout-memo.ts';

// StrategyId is a closed union the lead widens when registering this strategy: until then, a cast.
export const CHECKPOINTS_ID = 'checkpoints' as StrategyId;
export const CHECKPOINT_PROMPT_ID = 'checkpoint';

export interface CheckpointsOptions extends SimpleOptions {
  /** Iterations kept verbatim, counted from the newest. Default 50 iterations. */
  windowSize: number;
  /** Iterations one checkpoint covers. Default 50 iterations. */
  checkpointInterval: number;
  /** The instruction for one checkpoint; `{start}` / `{end}` become its iteration numbers. Default the seed's "Summarize iterations {start}-{end} in 1 sentence". */
  checkpointPrompt: string;
  /** Upper bound on one checkpoint's length (not in the seed; it sizes the plan's estimate). Default 200 tokens. */
  checkpointMaxTokens: number;
}

export const CHECKPOINTS_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'windowSize', alias: 'window_size', type: 'integer', default: 50, min: 1, max: 1_000_000, unit: 'iterations',
    description: 'The most recent N iterations stay verbatim.',
  },
  {
    name: 'checkpointInterval', alias: 'checkpoint_interval', type: 'integer', default: 50, min: 1, max: 1_000_000, unit: 'iterations',
    description: 'Every N iterations that left the window become one checkpoint summary.',
  },
  {
    name: 'checkpointPrompt', alias: 'checkpoint_prompt', type: 'text', default: 'Summarize iterations {start}-{end} in 1 sentence',
    description: 'What each checkpoint asks the summarizer; {start} and {end} are the iteration numbers.',
  },
  {
    name: 'checkpointMaxTokens', alias: 'checkpoint_max_tokens', type: 'integer', default: 200, min: 10, max: 100_000, unit: 'tokens',
    description: 'Upper bound on one checkpoint summary.',
  },
  KEEP_TASK_OPTION,
];

/** A block of iterations one checkpoint stands for. */
export interface CheckpointBlock {
  groups: IterationGroup[];
  /** 1-based iteration numbers. */
  start: number;
  end: number;
  /** Input indices the checkpoint replaces (the block minus the task and pinned iterations). */
  indices: number[];
  fromId: string;
  toId: string;
  /** A reusable summary from the previous run. */
  reused?: string;
}

interface StoredBlock {
  fromId: string;
  toId: string;
}

function storedBlocks(input: CompactionInput): StoredBlock[] {
  const previous = input.previous;
  if (!previous || previous.strategy !== CHECKPOINTS_ID) return [];
  const blocks = previous.state?.blocks;
  return Array.isArray(blocks) ? blocks.filter((b): b is StoredBlock => typeof b?.fromId === 'string' && typeof b?.toId === 'string') : [];
}

interface Layout {
  iterations: number;
  groups: IterationGroup[];
  start: number;
  blocks: CheckpointBlock[];
  kept: Set<number>;
  notes: string[];
}

type RawBlock = Omit<CheckpointBlock, 'reused'>;

/**
 * The complete blocks of the groups older than the window, kept as the window moves forward (a
 * replay asks at every call): a block, once complete, never changes. By the branch's first group,
 * interval, pinned set and keepTask.
 */
class BlockScan {
  readonly seen: IterationGroup[] = [];
  readonly blocks: RawBlock[] = [];
  private pending: IterationGroup[] = [];
  private count = 0;

  constructor(readonly interval: number, readonly pinned: CompactionInput['pinned'], readonly keepTask: boolean) {}

  private reuse: { previous: CompactionInput['previous']; count: number; blocks: CheckpointBlock[] } | undefined;

  /**
   * The blocks, each with the previous run's summary when that run made one for the same entries.
   * The same list while neither the blocks nor the previous run change (a replay asks at every call).
   */
  withReuse(previous: CompactionInput['previous'], stored: readonly StoredBlock[]): CheckpointBlock[] {
    const last = this.reuse;
    if (last && last.previous === previous && last.count === this.blocks.length) return last.blocks;
    const blocks = this.blocks.map((block, k): CheckpointBlock => {
      const prior = stored[k];
      const text = previous?.summaries[k];
      // Blocks are never edited: one without a summary to reuse is handed out as it is.
      return prior && prior.fromId === block.fromId && prior.toId === block.toId && typeof text === 'string' ? { ...block, reused: text } : block;
    });
    this.reuse = { previous, count: this.blocks.length, blocks };
    return blocks;
  }

  /** Whether the groups read so far are the first ones of `groups[0..upTo)`. */
  fits(groups: readonly IterationGroup[], upTo: number): boolean {
    const n = this.seen.length;
    return n <= upTo && (n === 0 || groups[n - 1] === this.seen[n - 1]);
  }

  advance(input: CompactionInput, groups: readonly IterationGroup[], upTo: number, kept: ReadonlySet<number>): void {
    for (let k = this.seen.length; k < upTo; k++) {
      const group = groups[k]!;
      this.seen.push(group);
      this.pending.push(group);
      this.count += group.count;
      if (this.count < this.interval) continue;
      const pending = this.pending;
      const all = pending.flatMap((g) => g.indices);
      this.blocks.push({
        groups: pending, start: pending[0]!.first, end: pending[0]!.first + this.count - 1,
        indices: all.filter((i) => !kept.has(i)), fromId: input.entries[all[0]!]!.id, toId: input.entries[all[all.length - 1]!]!.id,
      });
      this.pending = [];
      this.count = 0;
    }
  }
}

const blockScans = new WeakMap<IterationGroup, BlockScan>();

function computeLayout(input: CompactionInput, options: CheckpointsOptions): Layout {
  const groups = iterationGroups(input.entries);
  const iterations = totalIterations(groups);
  const start = iterations > options.windowSize ? windowStart(groups, options.windowSize) : 0;
  const old = oldHistory(input, groups, start, options.keepTask);
  const stored = storedBlocks(input);
  const first = groups[0];
  let scan = first ? blockScans.get(first) : undefined;
  if (!scan || scan.interval !== options.checkpointInterval || scan.pinned !== input.pinned || scan.keepTask !== options.keepTask || !scan.fits(groups, start)) {
    scan = new BlockScan(options.checkpointInterval, input.pinned, options.keepTask);
    if (first) blockScans.set(first, scan);
  }
  // The task and pinned iterations a block holds stay verbatim: kept is the same for a group whenever it is older than the window.
  scan.advance(input, groups, start, old.kept);
  return { iterations, groups, start, blocks: scan.withReuse(input.previous, stored), kept: old.kept, notes: old.notes };
}

const layout = layoutOnce(computeLayout);

function checkpointsTrigger(input: CompactionInput, options: CheckpointsOptions, l: Layout = layout(input, options)): TriggerDecision {
  const fresh = l.blocks.filter((b) => b.reused === undefined && b.indices.length > 0).length;
  const older = l.iterations > options.windowSize ? l.iterations - totalIterations(l.groups.slice(l.start)) : 0;
  return {
    fire: fresh > 0,
    rule: 'interval',
    detail: `${fmt(older)} iterations older than the window of ${fmt(options.windowSize)}; ${fmt(l.blocks.length)} complete block(s) of ${fmt(options.checkpointInterval)}, ${fmt(fresh)} without a checkpoint yet`,
    numbers: {
      iterations: l.iterations, windowSize: options.windowSize, checkpointInterval: options.checkpointInterval,
      checkpoints: l.blocks.length, newCheckpoints: fresh, contextTokens: input.tokens.total,
    },
  };
}

function instruction(template: string, block: CheckpointBlock): string {
  // The prompt file ends the instruction with its own full stop.
  return template.replace(/\{start\}/g, String(block.start)).replace(/\{end\}/g, String(block.end)).trim().replace(/[.。]+$/, '');
}

export function checkpointTaskId(k: number): string {
  return `checkpoint-${k + 1}`;
}

function planCheckpoints(input: CompactionInput, options: CheckpointsOptions): Plan {
  const l = layout(input, options);
  const trigger = checkpointsTrigger(input, options, l);
  const plan = basePlan(input, CHECKPOINTS_ID, options, trigger);
  if (l.blocks.length === 0) {
    plan.nothingToDo = `No complete block of ${fmt(options.checkpointInterval)} iterations outside the window of ${fmt(options.windowSize)} (${fmt(l.iterations)} iterations in all); nothing to checkpoint yet.`;
    plan.notes.push(`Interval: ${trigger.detail}.`);
    return plan;
  }
  plan.notes.push(`Interval: ${trigger.detail}.`, ...l.notes);
  let budget = 0;
  l.blocks.forEach((block, k) => {
    for (const i of block.indices) plan.fates[i] = 'summarize';
    if (block.indices.length === 0) return;
    if (block.reused !== undefined) {
      budget += input.counter.count(block.reused);
      plan.notes.push(`Checkpoint ${k + 1} (iterations ${block.start}-${block.end}) reused from the previous run.`);
      return;
    }
    const from = block.indices[0]!;
    const to = block.indices[block.indices.length - 1]!;
    const task: SummaryTask = {
      id: checkpointTaskId(k), prompt: CHECKPOINT_PROMPT_ID, from, to,
      ...(to - from + 1 !== block.indices.length ? { indices: [...block.indices] } : {}),
      maxTokens: options.checkpointMaxTokens,
      vars: { instruction: instruction(options.checkpointPrompt, block), span: `iterations ${block.start}-${block.end}`, start: String(block.start), end: String(block.end) },
    };
    plan.summaries.push(task);
    budget += options.checkpointMaxTokens;
    plan.notes.push(`Checkpoint ${k + 1}: iterations ${block.start}-${block.end}, ${fmt(block.indices.length)} entries (${block.fromId}..${block.toId}).`);
  });
  const lastBlock = l.blocks[l.blocks.length - 1]!;
  const cutGroup = l.groups[l.groups.indexOf(lastBlock.groups[lastBlock.groups.length - 1]!) + 1];
  if (cutGroup) plan.cut = { index: cutGroup.indices[0]!, rule: `first entry after the last complete checkpoint block (iteration ${fmt(cutGroup.first)})` };
  plan.notes.push(`Kept verbatim from iteration ${fmt(lastBlock.end + 1)} on: the window of ${fmt(options.windowSize)} plus the iterations of the block still filling up.`);
  plan.tokensAfterEstimate = keptTokens(input, plan.fates) + budget;
  windowNote(plan, input, 'windowSize');
  return plan;
}

export function checkpointText(block: { start: number; end: number }, summary: string): string {
  return `[Checkpoint: iterations ${block.start}-${block.end}]\n${summary.trim()}`;
}

function assembleCheckpoints(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: CheckpointsOptions): CompactedContext {
  if (plan.nothingToDo) return unchangedContext(input, plan, input.previous ?? { strategy: CHECKPOINTS_ID, summaries: [] });
  const l = layout(input, options);
  const inserts: Insert[] = [];
  const texts: string[] = [];
  l.blocks.forEach((block, k) => {
    const text = block.reused ?? (block.indices.length > 0 ? needSummary(summaries, checkpointTaskId(k), 'checkpoints') : '');
    texts.push(text);
    if (block.indices.length === 0) return;
    const from = input.entries[block.indices[0]!]!;
    const to = input.entries[block.indices[block.indices.length - 1]!]!;
    const entry = madeEntry(input, `checkpoint:${k + 1}:${to.id}`, checkpointText(block, text), from, to);
    inserts.push({ at: anchor(block.indices, plan.fates), item: { role: 'user', entry, origin: 'summary', replaces: { fromId: from.id, toId: to.id, count: block.indices.length } } });
  });
  const entries = buildEntries(input, plan.fates, inserts);
  const cut = plan.cut ? input.entries[plan.cut.index] : undefined;
  return {
    entries, tokensAfter: countContext(input, entries),
    previous: {
      strategy: CHECKPOINTS_ID, summaries: texts, ...(cut ? { firstKeptEntryId: cut.id } : {}),
      state: { interval: options.checkpointInterval, blocks: l.blocks.map((b) => ({ fromId: b.fromId, toId: b.toId, start: b.start, end: b.end })) },
    },
    truncationApplied: false, summaryApplied: inserts.length > 0, notes: [],
  };
}

export const checkpointsStrategy: Strategy<CheckpointsOptions> = {
  id: CHECKPOINTS_ID,
  label: 'Sliding window + checkpoints',
  seed: '003',
  description: 'Recent iterations verbatim; every block of older iterations becomes a one-line checkpoint.',
  options: CHECKPOINTS_OPTIONS,
  parse: (raw) => parseOptions(CHECKPOINTS_OPTIONS, raw) as CheckpointsOptions,
  trigger: (input, options) => checkpointsTrigger(input, options),
  plan: planCheckpoints,
  assemble: assembleCheckpoints,
};
