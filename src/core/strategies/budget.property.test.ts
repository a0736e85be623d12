import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeInput } from '../compaction/testing.ts';
import type { CompactedContext, CompactionInput, Plan } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { importText } from '../import/run.ts';
import { getEstimator, type EstimatorId } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { budgetStrategy, MEMORY_TASK_ID, type BudgetOptions } from './budget.ts';
import { MEMORY_MARKER } from './budget/memory-block.ts';
import { generatedTranscripts } from './transcript-arbitraries.ts';
import { planAndAssemble } from './test-fixtures.ts';

const SAMPLE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8');

const transcriptArb = generatedTranscripts({
  maxText: 1500, maxTurns: 8, minResults: 1, injected: true,
  call: (id, k) => ({ name: k % 2 ? 'bash' : 'read', input: { path: id } }),
}).map(({ entries }) => entries);

const memoryText = fc.array(fc.tuple(fc.nat({ max: 120 }), fc.constantFrom('m', '记', '😀 ')).map(([n, c]) => `- ${c.repeat(n)}`), { maxLength: 30 })
  .chain((lines) => fc.boolean().map((marker) => (marker ? [MEMORY_MARKER, ...lines] : lines).join('\n')));

const settings = fc.record({
  counter: fc.constantFrom<EstimatorId>('chars4', 'len3', 'chars'),
  /** Input budget as a fraction of the input's tokens (fc.double crowds at the ends of its range). */
  ratio: fc.integer({ min: 0, max: 1500 }).map((n) => n / 1000),
  reservedOutputTokens: fc.nat({ max: 20_000 }),
  keepRecentEntries: fc.nat({ max: 12 }),
  summaryEnabled: fc.boolean(),
  memoryMaxLines: fc.integer({ min: 1, max: 20 }),
  memoryMaxChars: fc.integer({ min: 40, max: 2000 }),
  memory: memoryText,
});

type Settings = typeof settings extends fc.Arbitrary<infer S> ? S : never;

function prepare(entries: readonly Entry[], s: Settings): { input: CompactionInput; options: BudgetOptions } {
  const counter = getEstimator(s.counter);
  const total = makeInput(entries, { counter }).tokens.total;
  const budget = Math.max(1, Math.round(total * s.ratio));
  const input = makeInput(entries, { counter, contextWindow: budget + s.reservedOutputTokens });
  const options = budgetStrategy.parse({
    reservedOutputTokens: s.reservedOutputTokens, keepRecentEntries: s.keepRecentEntries, summaryEnabled: s.summaryEnabled,
    memoryMaxLines: s.memoryMaxLines, memoryMaxChars: s.memoryMaxChars,
  });
  return { input, options };
}

/** The last user message by the brief's definition: the user's own words, else any user entry. */
function lastUser(entries: readonly Entry[]): Entry | undefined {
  const users = entries.filter((e) => e.role === 'user' && e.kind === 'message');
  const own = users.filter((e) => !e.flags?.injected && e.blocks.some((b) => b.type === 'text' && b.text.trim()));
  return own.at(-1) ?? users.at(-1);
}

function blockText(entry: Entry): string {
  return entry.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

function check(input: CompactionInput, options: BudgetOptions, memory: string): { plan: Plan; context: CompactedContext } {
  // Deterministic, and the journal untouched.
  const { plan, context } = planAndAssemble(budgetStrategy, input, options, memory);
  const budget = input.contextWindow - options.reservedOutputTokens;

  // tokensAfter is the counter over the context; it fits, or the plan says why not.
  const counted = context.entries.reduce((n, e) => n + countEntry(e.entry, input.counter).total, 0);
  expect(context.tokensAfter).toBe(counted);
  if (plan.nothingToDo === undefined) expect(counted).toBeLessThanOrEqual(budget);
  else if (plan.trigger.fire) expect(plan.nothingToDo.startsWith(`context_length_exceeded: ${plan.trigger.detail}.`)).toBe(true);
  else expect(input.tokens.total).toBeLessThanOrEqual(budget);
  if (plan.nothingToDo !== undefined) {
    expect(context.entries.map((e) => e.entry)).toEqual([...input.entries]);
    expect(context.truncationApplied).toBe(false);
  }

  // Fates match the context; flags match what happened.
  expect(plan.fates).toHaveLength(input.entries.length);
  const journal = context.entries.filter((e) => e.origin === 'journal').map((e) => e.entry);
  expect(journal).toEqual(input.entries.filter((_, i) => plan.fates[i] === 'keep'));
  expect(context.truncationApplied).toBe(plan.fates.includes('drop'));
  expect(plan.fates.every((f) => f === 'keep' || f === 'drop')).toBe(true);

  // System entries, the first one above all, and the last user message are kept.
  const kept = new Set(context.entries.map((e) => e.entry.id));
  for (const e of input.entries) if (e.role === 'system' && e.kind === 'message') expect(kept.has(e.id)).toBe(true);
  const last = lastUser(input.entries);
  if (last) expect(kept.has(last.id)).toBe(true);

  // No call without its result, no result without its call, unless the input already had it so.
  for (const { entry } of context.entries) {
    for (const b of entry.blocks) {
      if (b.type === 'tool_call' && b.resultEntryId !== undefined) expect(kept.has(b.resultEntryId)).toBe(true);
      if (b.type === 'tool_result' && b.callEntryId !== undefined) expect(kept.has(b.callEntryId)).toBe(true);
    }
  }

  // The memory block: at most one, marked, capped, a user entry right before the last user message.
  const blocks = context.entries.filter((e) => e.origin === 'summary');
  expect(blocks.length).toBe(context.summaryApplied ? 1 : 0);
  expect(plan.summaries.length).toBeLessThanOrEqual(options.summaryEnabled ? 1 : 0);
  if (blocks[0]) {
    const text = blockText(blocks[0].entry);
    expect(plan.summaries[0]?.id).toBe(MEMORY_TASK_ID);
    expect(text.startsWith(`${MEMORY_MARKER}\n`)).toBe(true);
    expect(text.split('\n').length).toBeLessThanOrEqual(options.memoryMaxLines + 1);
    expect(Array.from(text).length).toBeLessThanOrEqual(options.memoryMaxChars);
    expect(blocks[0].role).toBe('user');
    expect(blocks[0].replaces?.count).toBe(plan.fates.filter((f) => f === 'drop').length);
    const at = context.entries.indexOf(blocks[0]);
    if (last) expect(context.entries[at + 1]?.entry.id).toBe(last.id);
  }
  return { plan, context };
}

describe('budget strategy properties', () => {
  it('holds the invariants on generated transcripts with tool calls and random budgets', () => {
    const seen = { under: 0, trimmed: 0, rejected: 0, memory: 0 };
    fc.assert(
      fc.property(transcriptArb, settings, (entries, s) => {
        const { input, options } = prepare(entries, s);
        const { plan, context } = check(input, options, s.memory);
        if (!plan.trigger.fire) seen.under++;
        else if (plan.nothingToDo) seen.rejected++;
        else seen.trimmed++;
        if (context.summaryApplied) seen.memory++;
      }),
      { numRuns: 300 },
    );
    // Every path was taken, not just the easy ones (shortening a heavy block is rare here: unit-tested).
    for (const [path, n] of Object.entries(seen)) expect(n, path).toBeGreaterThan(0);
  });

  it('holds them on a real Claude Code session', () => {
    const entries = importText(SAMPLE).entries
      .filter((e) => e.kind !== 'event' && !e.flags?.sidechain);
    let fired = 0;
    let trimmed = 0;
    fc.assert(
      fc.property(settings, (s) => {
        const { input, options } = prepare(entries, s);
        const { plan } = check(input, options, s.memory);
        if (plan.trigger.fire) fired++;
        if (plan.fates.includes('drop')) trimmed++;
      }),
      // A fixed seed: the count below is a statistic, and a random draw could miss it.
      { numRuns: 40, seed: 20261123 },
    );
    // The sample is one long agentic turn: most budgets under its size must be reachable by
    // dropping old tool chains (counted against the runs whose budget fired, not all 40).
    expect(trimmed * 2).toBeGreaterThan(fired);
  });
});
