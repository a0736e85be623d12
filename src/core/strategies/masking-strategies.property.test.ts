import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeInput } from '../compaction/testing.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, PreviousCompaction } from '../compaction/types.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator, type EstimatorId } from '../tokens/counters.ts';
import { countEntries, countEntry } from '../tokens/entry-tokens.ts';
import { maskingThenSummaryStrategy } from './masking-then-summary.ts';
import { observationMaskingStrategy } from './observation-masking.ts';
import { toolResultClearingStrategy } from './tool-result-clearing.ts';
import { generatedTranscripts, textArb } from './transcript-arbitraries.ts';
import { planAndAssemble } from './test-fixtures.ts';

const text = textArb(300);

const transcriptArb = generatedTranscripts({
  maxText: 300, maxTurns: 8, split: true, pin: true,
  call: (id, k, say) => ({ name: ['read', 'bash', 'grep'][k % 3]!, input: { path: `f/${id}`, body: say } }),
});

const settings = fc.record({
  counter: fc.constantFrom<EstimatorId>('chars4', 'len3', 'chars'),
  contextWindow: fc.integer({ min: 50, max: 5000 }),
  keepTurns: fc.integer({ min: 1, max: 6 }),
  summaryEveryTurns: fc.integer({ min: 0, max: 12 }),
  ratio: fc.integer({ min: 1, max: 100 }).map((n) => n / 100),
  summaryMaxTokens: fc.integer({ min: 50, max: 400 }),
  triggerTokens: fc.integer({ min: 1, max: 3000 }),
  keepToolUses: fc.integer({ min: 0, max: 5 }),
  clearAtLeastTokens: fc.constantFrom(0, 0, 50, 300),
  excludeTools: fc.constantFrom('', 'read', 'bash, grep'),
  clearToolInputs: fc.boolean(),
  summary: text,
  /** Run first on a prefix of this length (fraction) to get a `previous`. */
  prefix: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
});

type Settings = typeof settings extends fc.Arbitrary<infer S> ? S : never;

const CASES: Array<{ strategy: Strategy; raw: (s: Settings) => Record<string, unknown> }> = [
  { strategy: observationMaskingStrategy as unknown as Strategy, raw: (s) => ({ keepTurns: s.keepTurns }) },
  {
    strategy: toolResultClearingStrategy as unknown as Strategy,
    raw: (s) => ({ triggerTokens: s.triggerTokens, keepToolUses: s.keepToolUses, clearAtLeastTokens: s.clearAtLeastTokens, excludeTools: s.excludeTools, clearToolInputs: s.clearToolInputs }),
  },
  {
    strategy: maskingThenSummaryStrategy as unknown as Strategy,
    raw: (s) => ({ keepTurns: s.keepTurns, summaryEveryTurns: s.summaryEveryTurns, summaryTriggerRatio: s.ratio, summaryMaxTokens: s.summaryMaxTokens }),
  },
];

function inputFor(entries: readonly Entry[], s: Pick<Settings, 'counter' | 'contextWindow'>, pinned?: string, previous?: PreviousCompaction): CompactionInput {
  const ids = new Set(entries.map((e) => e.id));
  return makeInput(entries, {
    counter: getEstimator(s.counter), contextWindow: s.contextWindow,
    ...(pinned && ids.has(pinned) ? { pinned: new Set([pinned]) } : {}),
    ...(previous ? { previous } : {}),
  });
}

/** Call ids the input holds both halves of: the context must hold both or neither. */
function pairedIds(entries: readonly Entry[]): Set<string> {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const e of entries) {
    for (const b of e.blocks) {
      if (b.type === 'tool_call') calls.add(b.callId);
      if (b.type === 'tool_result') results.add(b.callId);
    }
  }
  return new Set([...calls].filter((id) => results.has(id)));
}

function check(strategy: Strategy, input: CompactionInput, options: Options, summary: string): CompactedContext {
  const before = structuredClone(input.entries);
  const trigger = strategy.trigger(input, options);
  expect(input.entries).toEqual(before); // the trigger leaves the entries as they were too
  // Deterministic, the entries untouched; the trigger is the plan's; a trigger that fires leads to a plan that changes something.
  const { plan, context } = planAndAssemble(strategy, input, options, summary);
  expect(plan.trigger).toEqual(trigger);
  expect(trigger.fire).toBe(plan.nothingToDo === undefined);
  expect(plan.fates).toHaveLength(input.entries.length);

  // System prompts stay, verbatim.
  for (const e of input.entries) {
    if (e.role === 'system' && e.kind === 'message') expect(context.entries.find((c) => c.entry.id === e.id)).toEqual({ role: 'system', entry: e, origin: 'journal' });
  }
  // A call never loses its result, nor a result its call.
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const { entry } of context.entries) {
    for (const b of entry.blocks) {
      if (b.type === 'tool_call') calls.add(b.callId);
      if (b.type === 'tool_result') results.add(b.callId);
    }
  }
  for (const id of pairedIds(input.entries)) expect(calls.has(id)).toBe(results.has(id));
  // Rewritten entries keep their id and pairing keys; nothing masked or cleared leaves the context.
  const byId = new Map(input.entries.map((e) => [e.id, e]));
  for (const c of context.entries.filter((x) => x.origin === 'compressed')) {
    const original = byId.get(c.entry.id)!;
    expect(c.entry.blocks.map((b) => [b.type, 'callId' in b ? b.callId : ''])).toEqual(original.blocks.map((b) => [b.type, 'callId' in b ? b.callId : '']));
  }
  expect(context.tokensAfter).toBe(context.entries.reduce((n, e) => n + countEntry(e.entry, input.counter).total, 0));
  if (plan.nothingToDo === undefined) {
    // Masking and clearing never grow the context; a summary may be longer than the few entries it
    // replaces, but never longer than the plan's estimate (summaryMaxTokens).
    if (plan.summaries.length === 0) {
      expect(context.tokensAfter).toBeLessThanOrEqual(plan.tokensBefore);
      expect(context.tokensAfter).toBe(plan.tokensAfterEstimate);
    } else expect(context.tokensAfter).toBeLessThanOrEqual(plan.tokensAfterEstimate);
    if (strategy.id !== 'masking-then-summary') expect(context.entries.map((e) => e.entry.id)).toEqual(input.entries.map((e) => e.id));

    // The next trigger on the same branch sees this context (the replay's), and does not fire again.
    const next = strategy.trigger({ ...input, previous: context.previous }, options);
    expect(next.numbers.contextTokens).toBe(context.tokensAfter);
    expect(next.fire).toBe(false);
  }
  return context;
}

describe.each(CASES)('$strategy.id properties', ({ strategy, raw }) => {
  it('holds the invariants on generated transcripts, also after an earlier run on a prefix', () => {
    let changed = 0;
    fc.assert(
      fc.property(transcriptArb, settings, ({ entries, pinned }, s) => {
        const options = strategy.parse(raw(s));
        const head = entries.slice(0, Math.floor(entries.length * s.prefix));
        const first = check(strategy, inputFor(head, s, pinned), options, s.summary);
        const input = inputFor(entries, s, pinned, first.previous);
        const context = check(strategy, input, options, s.summary);
        // The replay's context after the first run: its entries plus the new ones verbatim.
        const current = first.tokensAfter + (entries.length > head.length ? input.tokens.range(head.length, entries.length - 1) : 0);
        if (first.entries.some((e) => e.origin !== 'journal')) expect(strategy.trigger(input, options).numbers.contextTokens).toBe(current);
        if (context.entries.some((e) => e.origin !== 'journal')) changed++;
      }),
      { numRuns: 300 },
    );
    expect(changed).toBeGreaterThan(20);
  });
});

const SAMPLES = ['public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'public/samples/pi/large-session.jsonl'];

const REPLAYED: Array<{ strategy: Strategy; raw: Record<string, unknown> }> = [
  { strategy: observationMaskingStrategy as unknown as Strategy, raw: {} },
  { strategy: toolResultClearingStrategy as unknown as Strategy, raw: { triggerTokens: 20_000 } },
  { strategy: toolResultClearingStrategy as unknown as Strategy, raw: { triggerTokens: 15_000, keepToolUses: 5, clearAtLeastTokens: 3_000, excludeTools: 'Read,read', clearToolInputs: true } },
  { strategy: maskingThenSummaryStrategy as unknown as Strategy, raw: {} },
  { strategy: maskingThenSummaryStrategy as unknown as Strategy, raw: { summaryEveryTurns: 0, summaryTriggerRatio: 0.5 } },
];

describe.each(SAMPLES)('on the real sample %s', (file) => {
  const entries = importText(readFileSync(file, 'utf8')).entries.filter((e) => e.kind !== 'event' && !e.flags?.sidechain);
  const counter = getEstimator('chars4');
  const totals = Array.from(countEntries(entries, counter).totals);

  it.each(REPLAYED.map((c) => ({ ...c, label: `${c.strategy.id} ${JSON.stringify(c.raw)}` })))('replays $label before every model call', ({ strategy, raw }) => {
    const options = strategy.parse(raw);
    const contextWindow = 40_000;
    let last: CompactedContext | undefined;
    let appendFrom = 0;
    let runs = 0;
    let summaries = 0;
    for (let end = 1; end <= entries.length; end++) {
      const next = entries[end];
      // A model call happens before each assistant response (not before each part of a split one).
      if (end < entries.length && (next?.role !== 'assistant' || entries[end - 1]!.role === 'assistant')) continue;
      const input = makeInput(entries.slice(0, end), { counter, counts: totals.slice(0, end), contextWindow, ...(last ? { previous: last.previous } : {}) });
      const replayTokens = (last?.tokensAfter ?? 0) + (end > appendFrom ? input.tokens.range(appendFrom, end - 1) : 0);
      const trigger = strategy.trigger(input, options);
      expect(trigger.numbers.contextTokens).toBe(replayTokens);
      if (!trigger.fire) continue;
      const plan = strategy.plan(input, options);
      expect(plan.nothingToDo).toBeUndefined();
      const texts = new Map(plan.summaries.map((t) => [t.id, `Summary of ${t.to - t.from + 1} entries through ${entries[t.to]!.id}.`]));
      const context = check(strategy, input, options, texts.values().next().value ?? '');
      if (plan.summaries.length === 0) expect(context.tokensAfter).toBeLessThan(replayTokens);
      summaries += plan.summaries.length;
      last = context;
      appendFrom = end;
      runs++;
    }
    expect(runs).toBeGreaterThan(0);
    if (strategy.id === 'masking-then-summary') expect(summaries).toBeGreaterThan(0);
    // The last context is smaller than the raw branch.
    const final = (last?.tokensAfter ?? 0) + (entries.length > appendFrom ? totals.slice(appendFrom).reduce((a, b) => a + b, 0) : 0);
    expect(final).toBeLessThan(totals.reduce((a, b) => a + b, 0));
  });
});
