/**
 * Invariants of the agents' own compactions (codex, claude-code, opencode) on generated transcripts,
 * first run on a prefix and then again with that run's state: the same input gives the same plan and
 * context, the system prompt is never dropped, and no tool call is kept without its result (nor a
 * result without its call) unless the input already had it so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeInput } from '../compaction/testing.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactedContext, CompactionInput, PreviousCompaction } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator, type EstimatorId } from '../tokens/counters.ts';
import { getStrategy } from './index.ts';
import { planAndAssemble } from './test-fixtures.ts';
import { generatedTranscripts, textArb } from './transcript-arbitraries.ts';

const transcriptArb = generatedTranscripts({
  maxText: 200, maxTurns: 10, split: true, injected: true,
  call: (id, k) => ({ name: k % 2 ? 'bash' : 'read', input: { path: `f/${id}` } }),
});

const settings = fc.record({
  counter: fc.constantFrom<EstimatorId>('chars4', 'len3', 'chars'),
  contextWindow: fc.integer({ min: 50, max: 5000 }),
  cap: fc.integer({ min: 0, max: 300 }),
  summary: textArb(200),
  prefix: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
});
type Settings = typeof settings extends fc.Arbitrary<infer S> ? S : never;

const CASES: Array<{ id: string; raw: (s: Settings) => Record<string, unknown> }> = [
  { id: 'codex', raw: (s) => ({ userMessageTokenCap: s.cap }) },
  { id: 'claude-code', raw: (s) => ({ restoreFiles: s.cap % 4, restoreFileTokens: s.cap, restoreTokenBudget: s.cap * 2 }) },
  {
    id: 'opencode',
    raw: (s) => ({ pruneProtectTokens: s.cap, pruneMinimumTokens: Math.floor(s.cap / 4), tailTurns: s.cap % 3, preserveRecentTokens: s.cap * 2, maxOutputTokens: 10, reserved: 10 }),
  },
];

function inputFor(entries: readonly Entry[], s: Settings, previous?: PreviousCompaction): CompactionInput {
  return makeInput(entries, { counter: getEstimator(s.counter), contextWindow: s.contextWindow, ...(previous ? { previous } : {}) });
}

function check(strategy: Strategy, input: CompactionInput, raw: Record<string, unknown>, summary: string): CompactedContext {
  const { plan, context } = planAndAssemble(strategy, input, strategy.parse(raw), summary);
  expect(plan.fates).toHaveLength(input.entries.length);
  const kept = new Set(context.entries.map((e) => e.entry.id));
  const ids = new Set(input.entries.map((e) => e.id));
  for (const e of input.entries) if (e.role === 'system' && e.kind === 'message') expect(kept.has(e.id), `system ${e.id}`).toBe(true);
  for (const { entry } of context.entries) {
    for (const b of entry.blocks) {
      if (b.type === 'tool_call' && b.resultEntryId !== undefined && ids.has(b.resultEntryId)) expect(kept.has(b.resultEntryId)).toBe(true);
      if (b.type === 'tool_result' && b.callEntryId !== undefined && ids.has(b.callEntryId)) expect(kept.has(b.callEntryId)).toBe(true);
    }
  }
  return context;
}

describe.each(CASES)('$id properties', ({ id, raw }) => {
  it('same input same plan, system prompt kept, tool pairs whole, also after an earlier run on a prefix', () => {
    const strategy = getStrategy(id);
    let summarized = 0;
    fc.assert(
      fc.property(transcriptArb, settings, ({ entries }, s) => {
        const head = entries.slice(0, Math.floor(entries.length * s.prefix));
        const first = check(strategy, inputFor(head, s), raw(s), s.summary);
        const context = check(strategy, inputFor(entries, s, first.previous), raw(s), s.summary);
        if (context.summaryApplied) summarized++;
      }),
      { numRuns: 150 },
    );
    expect(summarized).toBeGreaterThan(20);
  });
});
