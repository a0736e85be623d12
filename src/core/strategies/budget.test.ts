import { describe, expect, it } from 'vitest';
import { OptionError } from '../compaction/options.ts';
import { runCompaction } from '../compaction/run.ts';
import { echoSummarizer, failingSummarizer, linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { Summarizer } from '../compaction/summarizer.ts';
import type { CompactionInput } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { budgetStrategy, MEMORY_PROMPT_ID, type BudgetOptions } from './budget.ts';
import { capMemoryBlock, fitMemoryBlock, MEMORY_MARKER, memoryEntry } from './budget/memory-block.ts';
import { trimUnits } from './budget/units.ts';
import { loadPrompts } from '../test-fixtures.ts';

const PROMPTS = loadPrompts();

/** Text of `n` tokens under chars/4. */
const T = (n: number, c = 'x') => c.repeat(4 * n);

/** e0 system, e1 old user, e2+e3 chain c1, e4 text, e5 user, e6+e7 chain c2, e8 text, e9 last user, e10 answer. */
function transcript(): Entry[] {
  const specs: Spec[] = [
    { system: T(10, 's') },
    { user: T(20, 'a') },
    { assistant: '', calls: [{ id: 'c1', name: 'read', input: { path: 'a.ts' } }] },
    { tool: T(100, 'r'), callId: 'c1' },
    { assistant: T(30, 'b') },
    { user: T(20, 'c') },
    { assistant: '', calls: [{ id: 'c2', name: 'bash', input: { command: 'ls' } }] },
    { tool: T(100, 'q'), callId: 'c2' },
    { assistant: T(30, 'd') },
    { user: T(5, 'e') },
    { assistant: T(10, 'f') },
  ];
  return linkEntries(makeEntries(specs));
}

const WINDOW = 10_000;

/** An input whose budget (window - reserved) is `budget` tokens. */
function setup(budget: number, raw: Record<string, unknown> = {}, entries = transcript()) {
  const input = makeInput(entries, { contextWindow: WINDOW });
  const options = budgetStrategy.parse({ keepRecentEntries: 0, reservedOutputTokens: WINDOW - budget, ...raw });
  return { input, options };
}

function dropped(plan: { fates: string[] }): number[] {
  return plan.fates.flatMap((f, i) => (f === 'drop' ? [i] : []));
}

function ids(context: { entries: Array<{ entry: Entry }> }): string[] {
  return context.entries.map((e) => e.entry.id);
}

function tokens(input: CompactionInput, i: number, j: number): number {
  return input.tokens.range(i, j);
}

describe('budget options', () => {
  // The registry (index.ts) is not imported: it pulls in every strategy, and this file tests one.
  it('has the documented defaults', () => {
    expect(budgetStrategy.parse()).toEqual({ reservedOutputTokens: 16_384, keepRecentEntries: 6, summaryEnabled: false, memoryMaxLines: 8, memoryMaxChars: 800 });
    expect(budgetStrategy.id).toBe('budget');
  });

  it('accepts the seed spellings and strings', () => {
    const o = budgetStrategy.parse({ BUDGET_HISTORY_SUMMARY_ENABLED: 'true', reserved_output_tokens: '8_192', memory_max_lines: '3' });
    expect(o.summaryEnabled).toBe(true);
    expect(o.reservedOutputTokens).toBe(8192);
    expect(o.memoryMaxLines).toBe(3);
  });

  it.each([
    ['reservedOutputTokens', -1, /reservedOutputTokens must be a whole number from 0 to 10000000 \(tokens\)/],
    ['memoryMaxLines', 0, /memoryMaxLines must be a whole number from 1 to 200 \(lines\)/],
    ['memoryMaxChars', 39, /memoryMaxChars must be a whole number from 40 to 20000 \(chars\)/],
    ['keepRecentEntries', 1.5, /keepRecentEntries must be a whole number/],
    ['summaryEnabled', 'yes', /summaryEnabled must be true or false/],
  ])('refuses %s = %s with its name and range', (name, value, message) => {
    expect(() => budgetStrategy.parse({ [name]: value })).toThrow(OptionError);
    expect(() => budgetStrategy.parse({ [name]: value })).toThrow(message);
  });

  it('refuses an unknown option and a reserve that leaves no input budget', () => {
    expect(() => budgetStrategy.parse({ reservedTokens: 5 })).toThrow(/Unknown option "reservedTokens"/);
    const input = makeInput(transcript(), { contextWindow: 8_000 });
    const options = budgetStrategy.parse({ reservedOutputTokens: 8_000 });
    expect(() => budgetStrategy.plan(input, options)).toThrow(OptionError);
    expect(() => budgetStrategy.trigger(input, options)).toThrow(/reservedOutputTokens \(8,000 tokens\) leaves no input budget in a context window of 8,000 tokens; set it below 8,000/);
  });
});

describe('B1 precheck', () => {
  it('states the decision with its numbers', () => {
    const entries = transcript();
    const counts = entries.map((_, i) => (i === 0 ? 231_004 - 10 * (entries.length - 1) : 10));
    const input = makeInput(entries, { contextWindow: 200_000, counts });
    const decision = budgetStrategy.trigger(input, budgetStrategy.parse());
    expect(decision).toEqual({
      fire: true,
      rule: 'input-budget',
      detail: 'input 231,004 > budget 200,000 - 16,384 = 183,616',
      numbers: { input: 231_004, contextWindow: 200_000, reservedOutputTokens: 16_384, unseenPrefixTokens: 0, budget: 183_616 },
    });
  });

  it('leaves the transcript the window less the reserve and the tokens every request sends outside it', () => {
    const entries = transcript();
    const counts = entries.map((_, i) => (i === 0 ? 170_000 - 10 * (entries.length - 1) : 10));
    const input = { ...makeInput(entries, { contextWindow: 200_000, counts }), unseenPrefixTokens: 18_000 };
    const decision = budgetStrategy.trigger(input, budgetStrategy.parse());
    expect(decision).toMatchObject({ fire: true, detail: 'input 170,000 > budget 200,000 - 16,384 - 18,000 not in the transcript = 165,616' });
    expect(budgetStrategy.trigger({ ...input, unseenPrefixTokens: 0 }, budgetStrategy.parse()).fire).toBe(false);
    expect(() => budgetStrategy.trigger({ ...input, unseenPrefixTokens: 190_000 }, budgetStrategy.parse())).toThrow(/16,384 tokens\) and the 190,000 tokens every request sends outside the transcript/);
  });

  it('has nothing to do under budget, says so with the numbers, and leaves the context unchanged', () => {
    const { input, options } = setup(0);
    const total = input.tokens.total;
    const fit = setup(total);
    const plan = budgetStrategy.plan(fit.input, fit.options);
    expect(plan.trigger.fire).toBe(false);
    expect(plan.nothingToDo).toBe(`Under the input budget: input ${total} <= budget 10,000 - ${(WINDOW - total).toLocaleString('en-US')} = ${total}; nothing to trim.`);
    expect(plan.fates.every((f) => f === 'keep')).toBe(true);
    const context = budgetStrategy.assemble(fit.input, plan, new Map(), fit.options);
    expect(ids(context)).toEqual(input.entries.map((e) => e.id));
    expect(context.truncationApplied).toBe(false);
    expect(context.summaryApplied).toBe(false);
    expect(context.tokensAfter).toBe(total);
    expect(options).toBeDefined();
  });
});

describe('B2 trimming', () => {
  it('drops the oldest tool chain first, whole', () => {
    const { input, options } = setup(0);
    const c1 = tokens(input, 2, 3);
    const { input: i2, options: o2 } = setup(input.tokens.total - c1);
    const plan = budgetStrategy.plan(i2, o2);
    expect(dropped(plan)).toEqual([2, 3]);
    expect(plan.nothingToDo).toBeUndefined();
    expect(plan.tokensAfterEstimate).toBe(input.tokens.total - c1);
    const context = budgetStrategy.assemble(i2, plan, new Map(), o2);
    expect(ids(context)).toEqual(['e0', 'e1', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10']);
    expect(context.truncationApplied).toBe(true);
    expect(context.tokensAfter).toBeLessThanOrEqual(input.tokens.total - c1);
    expect(options).toBeDefined();
  });

  it('drops every tool chain before assistant text, and assistant text before user words', () => {
    const base = setup(0).input;
    const chains = tokens(base, 2, 3) + tokens(base, 6, 7);
    let plan = budgetStrategy.plan(...args(setup(base.tokens.total - chains - 1)));
    expect(dropped(plan)).toEqual([2, 3, 4, 6, 7]);
    plan = budgetStrategy.plan(...args(setup(base.tokens.total - chains - tokens(base, 4, 4) - tokens(base, 8, 8) - tokens(base, 10, 10) - 1)));
    // All assistant text gone (e4, e8, e10), then the oldest user message e1.
    expect(dropped(plan)).toEqual([1, 2, 3, 4, 6, 7, 8, 10]);
  });

  it('keeps the first system entry and the last user message when everything else goes', () => {
    const base = setup(0).input;
    const floor = tokens(base, 0, 0) + tokens(base, 9, 9);
    const { input, options } = setup(floor);
    const plan = budgetStrategy.plan(input, options);
    expect(plan.fates.filter((f) => f === 'keep')).toHaveLength(2);
    const context = budgetStrategy.assemble(input, plan, new Map(), options);
    expect(ids(context)).toEqual(['e0', 'e9']);
    expect(context.tokensAfter).toBe(floor);
  });

  it('rejects with the precheck error when trimming cannot fit, and changes nothing', () => {
    const base = setup(0).input;
    const floor = tokens(base, 0, 0) + tokens(base, 9, 9);
    const { input, options } = setup(floor - 1);
    const plan = budgetStrategy.plan(input, options);
    const precheck = budgetStrategy.trigger(input, options);
    expect(plan.trigger).toEqual(precheck);
    expect(plan.nothingToDo?.startsWith(`context_length_exceeded: ${precheck.detail}.`)).toBe(true);
    expect(plan.nothingToDo).toContain(`never dropped take ${floor} tokens`);
    expect(plan.notes.some((n) => n.startsWith('Rejected after trimming, same as the precheck: context_length_exceeded'))).toBe(true);
    expect(plan.fates.every((f) => f === 'keep')).toBe(true);
    const context = budgetStrategy.assemble(input, plan, new Map(), options);
    expect(ids(context)).toEqual(input.entries.map((e) => e.id));
    expect(context.truncationApplied).toBe(false);
    expect(context.notes).toEqual([plan.nothingToDo]);
  });

  it('protects the latest entries and the tool chains they reach into', () => {
    const base = setup(0).input;
    // keepRecentEntries 4 reaches e7, the result of chain c2: the call e6 stays with it.
    const { input, options } = setup(1, { keepRecentEntries: 4 });
    const units = trimUnits(input, options.keepRecentEntries);
    expect(units.find((u) => u.indices.includes(6))).toMatchObject({ indices: [6, 7], protectedBy: 'recent' });
    const plan = budgetStrategy.plan(input, options);
    expect(plan.nothingToDo).toContain(`never dropped take ${tokens(base, 0, 0) + tokens(base, 6, 10)} tokens`);
  });

  it('never splits parallel calls from their results, nor a results entry holding two calls', () => {
    const entries = linkEntries(makeEntries([
      { system: 'S' },
      { user: T(5) },
      { assistant: '', calls: [{ id: 'p1', name: 'read', input: { path: 'a' } }, { id: 'p2', name: 'read', input: { path: 'b' } }] },
      { tool: T(50), callId: 'p1' },
      { tool: T(50), callId: 'p2' },
      { assistant: '', calls: [{ id: 'q1', name: 'read', input: { path: 'c' } }] },
      { assistant: '', calls: [{ id: 'q2', name: 'read', input: { path: 'd' } }] },
      { tool: T(50), callId: 'q1' },
      { user: T(5) },
    ]));
    // e7 answers q1; add q2's result to the same entry, as Anthropic user messages do.
    entries[7]!.blocks.push({ type: 'tool_result', callId: 'q2', content: [{ type: 'text', text: T(50) }], isError: false });
    const input = makeInput(entries);
    const units = trimUnits(input, 0).map((u) => u.indices);
    expect(units).toEqual([[0], [1], [2, 3, 4], [5, 6, 7], [8]]);
  });

  it('keeps pinned entries, and ranks injected user text with assistant text', () => {
    const entries = transcript();
    entries[1]!.flags = { injected: true };
    const input = makeInput(entries, { pinned: new Set(['e3']) });
    const units = trimUnits(input, 0);
    expect(units.find((u) => u.indices.includes(3))).toMatchObject({ indices: [2, 3], protectedBy: 'pinned' });
    expect(units.find((u) => u.indices.includes(1))).toMatchObject({ tier: 1 });
    expect(units.find((u) => u.indices.includes(5))).toMatchObject({ tier: 2 });
    expect(units.find((u) => u.indices.includes(9))).toMatchObject({ protectedBy: 'last user message' });
  });

  it('never edits the input entries', () => {
    const { input, options } = setup(60, { summaryEnabled: true, memoryMaxChars: 40 });
    const before = structuredClone(input.entries);
    const plan = budgetStrategy.plan(input, options);
    budgetStrategy.assemble(input, plan, new Map([['budget-memory', 'x\ny\nz']]), options);
    expect(input.entries).toEqual(before);
  });
});

function args(s: { input: CompactionInput; options: BudgetOptions }): [CompactionInput, BudgetOptions] {
  return [s.input, s.options];
}

describe('B3 memory block', () => {
  it('asks for one summary of the dropped entries only, and reserves its tokens in the re-check', () => {
    const base = setup(0).input;
    const c1 = tokens(base, 2, 3);
    const budget = base.tokens.total - c1;
    // Without the block only chain c1 goes; with a 100-token reserve chain c2 goes too.
    expect(dropped(budgetStrategy.plan(...args(setup(budget))))).toEqual([2, 3]);
    const { input, options } = setup(budget, { summaryEnabled: true, memoryMaxChars: 400 });
    const plan = budgetStrategy.plan(input, options);
    expect(dropped(plan)).toEqual([2, 3, 6, 7]);
    expect(plan.summaries).toHaveLength(1);
    const task = plan.summaries[0]!;
    expect(task).toMatchObject({ id: 'budget-memory', prompt: MEMORY_PROMPT_ID, from: 2, to: 7, maxTokens: 100 });
    // Exactly the dropped entries are summarized (e5 is kept, so it is not in the task).
    expect(task.indices).toEqual([2, 3, 6, 7]);
    expect(plan.tokensAfterEstimate).toBe(base.tokens.total - c1 - tokens(base, 6, 7) + 100);
    expect(plan.notes.at(-1)).toMatch(/^Re-check: kept [\d,]+ \+ memory reserve 100 = [\d,]+ <= budget [\d,]+\.$/);
  });

  it('injects a capped block as a user entry right before the last user message', () => {
    const base = setup(0).input;
    const { input, options } = setup(base.tokens.total - 150, { summaryEnabled: true, memoryMaxLines: 3, memoryMaxChars: 200 });
    const plan = budgetStrategy.plan(input, options);
    const long = Array.from({ length: 20 }, (_, i) => `- point ${i} ${'详'.repeat(40)}`).join('\n');
    const context = budgetStrategy.assemble(input, plan, new Map([['budget-memory', long]]), options);
    const at = context.entries.findIndex((e) => e.origin === 'summary');
    const block = context.entries[at]!;
    expect(context.entries[at + 1]!.entry.id).toBe('e9');
    expect(block.role).toBe('user');
    expect(block.entry.role).toBe('user');
    const text = block.entry.blocks[0]!.type === 'text' ? block.entry.blocks[0]!.text : '';
    expect(text.startsWith(`${MEMORY_MARKER}\n- point 0`)).toBe(true);
    expect(text.split('\n').length).toBeLessThanOrEqual(4);
    expect(Array.from(text).length).toBeLessThanOrEqual(200);
    expect(block.replaces).toEqual({ fromId: 'e2', toId: 'e7', count: 4 });
    expect(context.summaryApplied).toBe(true);
    expect(context.truncationApplied).toBe(true);
    expect(context.previous.summaries).toEqual([text]);
    expect(context.tokensAfter).toBe(context.entries.reduce((n, e) => n + countEntry(e.entry, input.counter).total, 0));
    expect(context.tokensAfter).toBeLessThanOrEqual(base.tokens.total - 150);
  });

  it('skips the block, not the trimming, when its reserve does not fit', () => {
    const base = setup(0).input;
    const floor = tokens(base, 0, 0) + tokens(base, 9, 9);
    const { input, options } = setup(floor + 20, { summaryEnabled: true, memoryMaxChars: 400 });
    const plan = budgetStrategy.plan(input, options);
    expect(plan.nothingToDo).toBeUndefined();
    expect(plan.summaries).toEqual([]);
    expect(plan.notes.some((n) => n.startsWith('Memory block skipped: its 100-token reserve'))).toBe(true);
  });

  it('caps whatever the summarizer returned, and does not repeat its marker', () => {
    expect(capMemoryBlock(`${MEMORY_MARKER}\n\n- a\n- b\n- c`, 2, 100)).toBe(`${MEMORY_MARKER}\n- a\n- b`);
    expect(capMemoryBlock(`${MEMORY_MARKER} - a`, 5, 100)).toBe(`${MEMORY_MARKER}\n- a`);
    expect(capMemoryBlock('   \n\n', 5, 100)).toBeUndefined();
    const cut = capMemoryBlock(`- ${'😀'.repeat(50)}`, 5, 20)!;
    expect(Array.from(cut)).toHaveLength(20);
    expect(cut.endsWith('😀…')).toBe(true);
  });

  it('shortens a block heavier than its reserve to the room left', () => {
    const counter = getEstimator('chars4');
    const at = transcript()[2]!;
    const make = (text: string) => memoryEntry(text, at, null, 0);
    const text = `${MEMORY_MARKER}\n- ${'a'.repeat(40)}\n- ${'b'.repeat(40)}`;
    expect(fitMemoryBlock(text, 100, counter, make)).toBe(text);
    expect(fitMemoryBlock(text, 16, counter, make)).toBe(`${MEMORY_MARKER}\n- ${'a'.repeat(40)}`);
    const one = fitMemoryBlock(text, 6, counter, make)!;
    expect(countEntry(make(one), counter).total).toBeLessThanOrEqual(6);
    expect(one.endsWith('…')).toBe(true);
    expect(fitMemoryBlock(text, 2, counter, make)).toBeUndefined();
  });

  it('the prompt keeps the marker and renders with the task variables', () => {
    expect(PROMPTS[MEMORY_PROMPT_ID]).toContain('{{marker}}');
    expect(PROMPTS[MEMORY_PROMPT_ID]).toContain('{{conversation}}');
  });
});

describe('B4 context_management record through runCompaction', () => {
  const run = (budget: number, raw: Record<string, unknown>, summarizer: Summarizer = echoSummarizer()) => {
    const { input } = setup(budget);
    return runCompaction({ strategy: budgetStrategy as unknown as Strategy, input, rawOptions: { keepRecentEntries: 0, reservedOutputTokens: WINDOW - budget, ...raw }, summarizer, prompts: PROMPTS, clock: () => 0 });
  };

  it('records a trim without a summary', async () => {
    const total = setup(0).input.tokens.total;
    const { record, context, plan } = await run(total - 150, {});
    expect(record).toMatchObject({ event: 'context_management', strategy: 'budget', truncation_applied: true, summary_applied: false, dropped_messages: 4, kept_messages: 7, summarized_messages: 0 });
    expect(record.tokens_after).toBe(context.tokensAfter);
    expect(record.tokens_after).toBeLessThanOrEqual(total - 150);
    expect(record.trigger.detail).toBe(plan.trigger.detail);
    expect(record.prompts).toEqual([]);
  });

  it('records a trim with the memory block', async () => {
    const total = setup(0).input.tokens.total;
    const summarizer = echoSummarizer();
    const { record, context } = await run(total - 150, { summaryEnabled: true, memoryMaxChars: 200 }, summarizer);
    expect(record).toMatchObject({ truncation_applied: true, summary_applied: true, dropped_messages: 4, kept_messages: 7, prompts: [MEMORY_PROMPT_ID] });
    expect(context.entries).toHaveLength(8);
    expect(summarizer.requests).toHaveLength(1);
    const prompt = summarizer.requests[0]!.prompt;
    expect(prompt).toContain(MEMORY_MARKER);
    expect(prompt).toContain('At most 200 characters');
    expect(prompt).toContain('bash({"command":"ls"})');
    expect(prompt).not.toContain(T(20, 'c'));
  });

  it('falls back to the trim alone when the summary fails', async () => {
    const total = setup(0).input.tokens.total;
    const { record, context } = await run(total - 150, { summaryEnabled: true, memoryMaxChars: 200 }, failingSummarizer(new Error('model offline')));
    expect(record).toMatchObject({ truncation_applied: true, summary_applied: false, dropped_messages: 4, kept_messages: 7 });
    expect(context.entries.some((e) => e.origin === 'summary')).toBe(false);
    expect(record.notes.some((n) => n.includes('model offline'))).toBe(true);
  });

  it('records nothing dropped under budget and on rejection', async () => {
    const total = setup(0).input.tokens.total;
    const under = await run(total, {});
    expect(under.record).toMatchObject({ truncation_applied: false, summary_applied: false, dropped_messages: 0, kept_messages: 11 });
    const rejected = await run(5, { summaryEnabled: true });
    expect(rejected.record).toMatchObject({ truncation_applied: false, summary_applied: false, dropped_messages: 0, kept_messages: 11, prompts: [] });
    expect(rejected.record.notes.some((n) => n.startsWith('context_length_exceeded: '))).toBe(true);
  });
});
