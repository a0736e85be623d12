import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import type { Entry } from '../journal/entry.ts';
import { importText } from '../import/run.ts';
import { runCompaction, type CompactionOutcome } from '../compaction/run.ts';
import { echoSummarizer, linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactionInput, PreviousCompaction } from '../compaction/types.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { layeredStrategy, serializeReact, type LayeredOptions } from './layered.ts';
import { loadPrompts } from '../test-fixtures.ts';

const PROMPTS = loadPrompts();
const S = layeredStrategy;
const TOOLS = ['LS', 'Glob', 'Grep', 'Read', 'Edit', 'MultiEdit', 'Write', 'Bash', 'TodoWrite', 'WebFetch'] as const;

interface CallGen { tool: (typeof TOOLS)[number]; lines: number; error: boolean; noResult: boolean }
interface TurnGen { words: number; injected: boolean; steps: Array<{ calls: CallGen[]; thought: boolean }>; answer: boolean; usage: number | null; marker: boolean; system: boolean }

const callArb: fc.Arbitrary<CallGen> = fc.record({
  tool: fc.constantFrom(...TOOLS),
  lines: fc.integer({ min: 0, max: 60 }),
  error: fc.boolean(),
  noResult: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
const turnArb: fc.Arbitrary<TurnGen> = fc.record({
  words: fc.integer({ min: 1, max: 60 }),
  injected: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  steps: fc.array(fc.record({ calls: fc.array(callArb, { minLength: 1, maxLength: 2 }), thought: fc.boolean() }), { maxLength: 3 }),
  answer: fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
  usage: fc.option(fc.integer({ min: 0, max: 300_000 })),
  marker: fc.integer({ min: 0, max: 12 }).map((n) => n === 0),
  system: fc.integer({ min: 0, max: 15 }).map((n) => n === 0),
});
const transcriptArb = fc.record({
  system: fc.boolean(),
  leading: fc.boolean(),
  strayResult: fc.boolean(),
  turns: fc.array(turnArb, { maxLength: 14 }),
});

function outputFor(call: CallGen, k: string): string {
  const line = (i: number) => {
    switch (call.tool) {
      case 'Read': return `${String(i + 1).padStart(6)}→const line${i} = "${k}";`;
      case 'Grep': return `src/${k}.ts:${i + 1}: match ${i}`;
      case 'Edit': case 'MultiEdit': return i === 0 ? `The file src/${k}.ts has been updated.` : `${String(i).padStart(6)}→edited ${i}`;
      default: return `${call.tool} output line ${i} for ${k}`;
    }
  };
  return Array.from({ length: Math.max(1, call.lines) }, (_, i) => line(i)).join('\n');
}

function build(gen: typeof transcriptArb extends fc.Arbitrary<infer T> ? T : never): Entry[] {
  const specs: Spec[] = [];
  const patches = new Map<number, (entry: Entry) => Entry>();
  let n = 0;
  if (gen.system) specs.push({ system: 'You are a coding agent.' });
  if (gen.leading) specs.push({ assistant: 'Hello, how can I help?' });
  if (gen.strayResult) specs.push({ tool: 'result whose call was lost', callId: 'stray' });
  gen.turns.forEach((turn, t) => {
    specs.push({ user: Array.from({ length: turn.words }, (_, i) => `w${t}_${i}`).join(' ') });
    for (const step of turn.steps) {
      const calls = step.calls.map((call) => ({ call, id: `call${n++}` }));
      specs.push({ assistant: step.thought ? `Thinking about step ${n}.` : '', calls: calls.map(({ call, id }) => ({ id, name: call.tool, input: call.tool === 'TodoWrite' ? { todos: [{ content: 'a', status: 'in_progress' }] } : { path: `src/${id}.ts`, pattern: 'x', command: 'make' } })) });
      for (const { call, id } of calls) if (!call.noResult) specs.push({ tool: outputFor(call, id), callId: id, error: call.error && call.lines % 3 === 0 });
    }
    if (turn.answer) {
      specs.push({ assistant: `Answer for turn ${t}.` });
      if (turn.usage !== null) patches.set(specs.length - 1, (entry) => ({ ...entry, usage: { input: turn.usage!, output: 7 } }));
    }
    if (turn.injected) {
      specs.push({ user: '<system-reminder>hook</system-reminder>' });
      patches.set(specs.length - 1, (entry) => ({ ...entry, flags: { injected: true } }));
    }
    if (turn.marker) {
      specs.push({ user: `Compact summary ${t}` });
      patches.set(specs.length - 1, (entry) => ({ ...entry, role: 'summary', kind: 'compaction' }));
    }
    if (turn.system) specs.push({ system: `Mid-session system note ${t}.` });
  });
  return linkEntries(makeEntries(specs).map((entry, i) => patches.get(i)?.(entry) ?? entry));
}

const opensTurn = (e: Entry) => e.role === 'user' && e.kind === 'message' && !e.flags?.injected && !e.blocks.some((b) => b.type === 'tool_result');
const textOf = (e: Entry) => e.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');

/** The invariants of the brief, plus the layered ones (L4, L5, L6, archives first). */
function checkOutcome(input: CompactionInput, options: LayeredOptions, outcome: CompactionOutcome): void {
  const { plan, context } = outcome;
  const { entries } = input;
  const ids = new Set(context.entries.map((e) => e.entry.id));
  const positions = new Map(context.entries.map((e, i) => [e.entry.id, i]));

  // No orphan is created: pairs present in the input stay together, call before result.
  const inCalls = new Set<string>();
  const inResults = new Set<string>();
  for (const e of entries) for (const b of e.blocks) {
    if (b.type === 'tool_call') inCalls.add(b.callId);
    if (b.type === 'tool_result') inResults.add(b.callId);
  }
  const callPos = new Map<string, number>();
  const resultPos = new Map<string, number>();
  context.entries.forEach((e, i) => {
    for (const b of e.entry.blocks) {
      if (b.type === 'tool_call') callPos.set(b.callId, i);
      if (b.type === 'tool_result') resultPos.set(b.callId, i);
    }
  });
  for (const [id, at] of resultPos) if (inCalls.has(id)) expect(callPos.get(id), `call of ${id}`).toBeLessThan(at);
  for (const id of callPos.keys()) if (inResults.has(id)) expect(resultPos.has(id), `result of ${id}`).toBe(true);

  // System entries are kept.
  for (const e of entries) if (e.role === 'system' && e.kind === 'message') expect(ids.has(e.id), `system ${e.id}`).toBe(true);

  // Budget: under the threshold, or the plan says why not.
  const threshold = options.triggerRatio * options.contextWindow;
  if (context.tokensAfter >= threshold) expect(plan.nothingToDo !== undefined || plan.notes.some((note) => note.startsWith('Over budget'))).toBe(true);

  // tokensAfter is counted over the context.
  expect(context.tokensAfter).toBe(context.entries.reduce((sum, e) => sum + countEntry(e.entry, input.counter).total, 0));

  // New entries are new objects; journal entries are the journal's.
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const item of context.entries) {
    if (item.origin === 'journal') expect(item.entry).toBe(byId.get(item.entry.id));
    if (item.origin === 'compressed') {
      expect(item.entry).not.toBe(byId.get(item.entry.id));
      expect(plan.fates[entries.indexOf(byId.get(item.entry.id)!)]).toBe('compress');
    }
    if (item.origin === 'summary') {
      expect(item.role).toBe('system');
      expect(item.entry.role).toBe('system');
      expect(item.replaces).toBeDefined();
      expect(byId.has(item.entry.id)).toBe(false);
    }
  }

  // Earlier archives: verbatim, first after the leading system entries, then the new one.
  const previous = input.previous?.summaries ?? [];
  let lead = 0;
  while (context.entries[lead]?.origin === 'journal' && context.entries[lead]!.role === 'system') lead++;
  previous.forEach((text, k) => {
    const item = context.entries[lead + k]!;
    expect(item.origin).toBe('summary');
    expect(textOf(item.entry)).toBe(text);
  });
  const summaries = context.entries.filter((e) => e.origin === 'summary');
  expect(summaries).toHaveLength(previous.length + (context.summaryApplied ? 1 : 0));
  if (plan.nothingToDo) expect(context.summaryApplied).toBe(false);

  // At least min(turns, keepTurns) whole turns kept: every entry of them is in the context.
  const firstKept = input.previous?.firstKeptEntryId;
  const start = Math.max(0, firstKept === undefined ? 0 : entries.findIndex((e) => e.id === firstKept));
  const starts = entries.flatMap((e, i) => (i >= start && opensTurn(e) ? [i] : []));
  const k = Math.min(starts.length, options.keepTurns);
  if (k > 0) {
    for (let i = starts[starts.length - k]!; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.kind !== 'event') expect(ids.has(e.id), `kept turn entry ${e.id}`).toBe(true);
    }
  }
  // Compressed only before the current turn; the current turn keeps full observations.
  const current = starts[starts.length - 1] ?? entries.length;
  for (const c of plan.compressions) expect(c.index).toBeLessThan(current);
  // Summarized entries are not in the context; kept ones are in journal order after the archives.
  plan.fates.forEach((fate, i) => {
    if (fate === 'summarize' && context.summaryApplied) expect(ids.has(entries[i]!.id)).toBe(false);
    if (fate === 'keep' || fate === 'compress') expect(positions.has(entries[i]!.id)).toBe(true);
  });
}

async function compact(input: CompactionInput, raw: Record<string, unknown>): Promise<CompactionOutcome> {
  return runCompaction({ strategy: S, input, rawOptions: raw, summarizer: echoSummarizer(), prompts: PROMPTS, serialize: serializeReact });
}

describe('layered strategy properties', () => {
  it('holds the invariants on generated transcripts with tool calls, pins and earlier archives', async () => {
    const seen = { summarized: 0, compressed: 0, previous: 0, pinned: 0, overBudget: 0, nothingToDo: 0 };
    await fc.assert(
      fc.asyncProperty(
        transcriptArb,
        fc.record({ keepTurns: fc.integer({ min: 1, max: 5 }), minMessages: fc.integer({ min: 1, max: 5 }), contextWindow: fc.integer({ min: 1000, max: 20_000 }), triggerRatio: fc.constantFrom(0.1, 0.5, 0.8), summaryMaxTokens: fc.integer({ min: 100, max: 500 }) }),
        fc.option(fc.record({ summaries: fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 2 }), at: fc.nat() })),
        fc.array(fc.nat(), { maxLength: 2 }),
        async (gen, raw, prev, pins) => {
          const entries = build(gen);
          const starts = entries.flatMap((e, i) => (opensTurn(e) ? [i] : []));
          let previous: PreviousCompaction | undefined;
          if (prev && starts.length > 0) previous = { strategy: 'layered', summaries: prev.summaries, firstKeptEntryId: entries[starts[prev.at % starts.length]!]!.id };
          const pinned = new Set(entries.length > 0 ? pins.map((p) => entries[p % entries.length]!.id) : []);
          const input = makeInput(entries, { ...(previous ? { previous } : {}), ...(pinned.size > 0 ? { pinned } : {}) });
          const frozen = structuredClone(entries);
          const options = S.parse(raw);
          const outcome = await compact(input, raw);
          expect(entries).toEqual(frozen);
          checkOutcome(input, options, outcome);
          // Deterministic: same input, same plan and context.
          expect(S.plan(input, options)).toEqual(outcome.plan);
          expect((await compact(input, raw)).context).toEqual(outcome.context);
          if (outcome.context.summaryApplied) seen.summarized++;
          if (outcome.plan.compressions.length > 0) seen.compressed++;
          if (previous && outcome.context.summaryApplied) seen.previous++;
          if (pinned.size > 0 && outcome.context.summaryApplied) seen.pinned++;
          if (outcome.plan.notes.some((note) => note.startsWith('Over budget'))) seen.overBudget++;
          if (outcome.plan.nothingToDo) seen.nothingToDo++;
        },
      ),
      { numRuns: 200 },
    );
    // The generator reaches every path the invariants are about.
    for (const [path, count] of Object.entries(seen)) expect(count, path).toBeGreaterThan(5);
  });

  it('holds them on the real Claude Code session, and compresses its older tool output', async () => {
    const { entries: all } = importText(readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8'));
    const entries = all.filter((e) => e.kind !== 'event' && !e.flags?.sidechain);
    const frozen = structuredClone(entries);
    for (const keepTurns of [1, 2, 3, 10]) {
      const input = makeInput(entries);
      const options = S.parse({ keepTurns });
      const outcome = await compact(input, { keepTurns });
      checkOutcome(input, options, outcome);
      if (keepTurns === 10) {
        expect(outcome.plan.nothingToDo).toBe('Only 6 whole turns in history; the last 10 turns are always kept (keepTurns), so there is nothing older to archive.');
        continue;
      }
      expect(outcome.context.summaryApplied).toBe(true);
      expect(outcome.context.tokensAfter).toBeLessThan(outcome.plan.tokensBefore);
      if (keepTurns > 1) expect(outcome.plan.compressions.length).toBeGreaterThan(0);
      // Trigger numbers of this session: last usage 104,468 + 4, the last user message 109 chars.
      expect(outcome.plan.trigger.numbers).toMatchObject({ lastUsage: 104_472, inputChars: 109, inputEstimate: 36, estimatedTotal: 104_508, threshold: 160_000 });
      expect(outcome.plan.trigger.fire).toBe(false);
    }
    expect(entries).toEqual(frozen);
  });
});
