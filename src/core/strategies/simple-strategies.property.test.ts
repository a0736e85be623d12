import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeInput } from '../compaction/testing.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, PreviousCompaction } from '../compaction/types.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator, type EstimatorId } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { checkpointsStrategy } from './checkpoints.ts';
import { queryOnDemandStrategy } from './query-on-demand.ts';
import { slidingWindowStrategy } from './sliding-window.ts';
import { twoLayerStrategy } from './two-layer.ts';
import { generatedTranscripts, textArb } from './transcript-arbitraries.ts';
import { planAndAssemble } from './test-fixtures.ts';

const SAMPLE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8');

const text = textArb(200);

const transcriptArb = generatedTranscripts({
  maxText: 200, maxTurns: 10, split: true, injected: true, pin: true,
  call: (id, k) => ({ name: k % 2 ? 'bash' : 'read', input: { path: `f/${id}` } }),
});

const settings = fc.record({
  counter: fc.constantFrom<EstimatorId>('chars4', 'len3', 'chars'),
  contextWindow: fc.integer({ min: 50, max: 5000 }),
  size: fc.integer({ min: 1, max: 8 }),
  interval: fc.integer({ min: 1, max: 5 }),
  maxTokens: fc.integer({ min: 50, max: 400 }),
  keepTask: fc.boolean(),
  tool: fc.boolean(),
  summary: text,
  /** Run first on a prefix of this length (fraction) to get a `previous`. */
  prefix: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
});

type Settings = typeof settings extends fc.Arbitrary<infer S> ? S : never;

const CASES: Array<{ strategy: Strategy; raw: (s: Settings) => Record<string, unknown>; window: (s: Settings) => number }> = [
  { strategy: slidingWindowStrategy as unknown as Strategy, raw: (s) => ({ windowSize: s.size, keepTask: s.keepTask }), window: (s) => s.size },
  {
    strategy: checkpointsStrategy as unknown as Strategy,
    raw: (s) => ({ windowSize: s.size, checkpointInterval: s.interval, checkpointMaxTokens: s.maxTokens, keepTask: s.keepTask }),
    window: (s) => s.size,
  },
  {
    strategy: twoLayerStrategy as unknown as Strategy,
    raw: (s) => ({ recentSize: s.size, updateInterval: s.interval, summaryMaxTokens: s.maxTokens, keepTask: s.keepTask }),
    window: (s) => s.size,
  },
  { strategy: queryOnDemandStrategy as unknown as Strategy, raw: (s) => ({ recentSize: s.size, enableQueryTool: s.tool, keepTask: s.keepTask }), window: (s) => s.size },
];

function taskOf(entries: readonly Entry[]): Entry | undefined {
  return entries.find((e) => e.role === 'user' && e.kind === 'message' && !e.flags?.injected && e.blocks.some((b) => b.type === 'text' && b.text.trim() !== '')
    && !e.blocks.some((b) => b.type === 'tool_result'));
}

function check(strategy: Strategy, input: CompactionInput, options: Options, window: number, summary: string): CompactedContext {
  // Deterministic, and the journal untouched.
  const { plan, context } = planAndAssemble(strategy, input, options, summary);

  // One fate per entry; the journal entries of the context are exactly those kept, in order.
  expect(plan.fates).toHaveLength(input.entries.length);
  const journal = context.entries.filter((e) => e.origin === 'journal').map((e) => e.entry);
  expect(journal).toEqual(input.entries.filter((_, i) => plan.fates[i] === 'keep'));
  for (const e of journal) expect(input.entries).toContain(e);
  if (plan.nothingToDo !== undefined) expect(journal).toHaveLength(input.entries.length);

  // Made entries are new, say what they replace, and every removed entry is accounted for.
  const inputIds = new Set(input.entries.map((e) => e.id));
  const made = context.entries.filter((e) => e.origin !== 'journal');
  for (const m of made) {
    expect(['summary', 'synthetic']).toContain(m.origin);
    expect(inputIds.has(m.entry.id)).toBe(false);
    expect(m.replaces).toBeDefined();
  }
  const removed = plan.fates.filter((f) => f !== 'keep').length;
  expect(made.reduce((n, m) => n + (m.replaces?.count ?? 0), 0)).toBe(removed && (strategy === slidingWindowStrategy as unknown as Strategy ? 0 : removed));

  // Summary tasks cover only entries the plan summarizes, each at most once.
  const covered = plan.summaries.flatMap((t) => t.indices ?? Array.from({ length: t.to - t.from + 1 }, (_, k) => t.from + k));
  expect(new Set(covered).size).toBe(covered.length);
  for (const i of covered) expect(plan.fates[i]).toBe('summarize');

  // System entries, the task (keepTask), pinned entries and the last `window` assistant entries are kept.
  const kept = new Set(context.entries.map((e) => e.entry.id));
  for (const e of input.entries) if (e.role === 'system' && e.kind === 'message') expect(kept.has(e.id)).toBe(true);
  if (options.keepTask) {
    const task = taskOf(input.entries);
    if (task) expect(kept.has(task.id)).toBe(true);
  }
  for (const id of input.pinned ?? []) expect(kept.has(id)).toBe(true);
  for (const e of input.entries.filter((x) => x.role === 'assistant').slice(-window)) expect(kept.has(e.id)).toBe(true);

  // No call without its result, no result without its call, unless the input already had it so (a
  // prefix of a branch can cut a pair: the link then points outside the input).
  for (const { entry } of context.entries) {
    for (const b of entry.blocks) {
      if (b.type === 'tool_call' && b.resultEntryId !== undefined && inputIds.has(b.resultEntryId)) expect(kept.has(b.resultEntryId)).toBe(true);
      if (b.type === 'tool_result' && b.callEntryId !== undefined && inputIds.has(b.callEntryId)) expect(kept.has(b.callEntryId)).toBe(true);
    }
  }

  // tokensAfter is the counter over the context; over the model's window, the plan says so.
  const counted = context.entries.reduce((n, e) => n + countEntry(e.entry, input.counter).total, 0);
  expect(context.tokensAfter).toBe(counted);
  if (plan.nothingToDo === undefined && plan.tokensAfterEstimate > input.contextWindow) expect(plan.notes.join('\n')).toMatch(/> context window/);
  if (typeof options.summaryMaxTokens === 'number') {
    for (const s of context.previous.summaries) expect(input.counter.count(s)).toBeLessThanOrEqual(options.summaryMaxTokens);
  }
  return context;
}

function inputFor(entries: readonly Entry[], s: Settings, pinned?: string, previous?: PreviousCompaction): CompactionInput {
  const ids = new Set(entries.map((e) => e.id));
  return makeInput(entries, {
    counter: getEstimator(s.counter), contextWindow: s.contextWindow,
    ...(pinned && ids.has(pinned) ? { pinned: new Set([pinned]) } : {}),
    ...(previous ? { previous } : {}),
  });
}

describe.each(CASES)('$strategy.id properties', ({ strategy, raw, window }) => {
  it('holds the invariants on generated transcripts, also after an earlier run on a prefix', () => {
    let changed = 0;
    fc.assert(
      fc.property(transcriptArb, settings, ({ entries, pinned }, s) => {
        const options = strategy.parse(raw(s));
        const head = entries.slice(0, Math.floor(entries.length * s.prefix));
        const first = check(strategy, inputFor(head, s, pinned), options, window(s), s.summary);
        const context = check(strategy, inputFor(entries, s, pinned, first.previous), options, window(s), s.summary);
        if (context.entries.some((e) => e.origin !== 'journal') || context.truncationApplied) changed++;
      }),
      { numRuns: 200 },
    );
    expect(changed).toBeGreaterThan(10);
  });

  it('holds them on a real Claude Code session', () => {
    const entries = importText(SAMPLE).entries.filter((e) => e.kind !== 'event' && !e.flags?.sidechain);
    let changed = 0;
    fc.assert(
      fc.property(settings, (s) => {
        const options = strategy.parse({ ...raw(s), ...(strategy.options.some((o) => o.name === 'windowSize') ? { windowSize: s.size * 3 } : { recentSize: s.size * 3 }) });
        const size = s.size * 3;
        const first = check(strategy, inputFor(entries.slice(0, Math.floor(entries.length * s.prefix)), s), options, size, s.summary);
        const context = check(strategy, inputFor(entries, s, undefined, first.previous), options, size, s.summary);
        if (context.entries.length < entries.length) changed++;
      }),
      { numRuns: 15 },
    );
    // The sample is one long agentic turn with many iterations: every window up to 24 shortens it.
    expect(changed).toBe(15);
  });
});
