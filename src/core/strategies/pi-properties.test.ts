import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactedContext, CompactionInput, Plan, PreviousCompaction } from '../compaction/types.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { activeLeaf, pathTo } from '../journal/tree.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { compactionEntry, piStrategy, type PiOptions } from './pi.ts';

/** Unpaired tool calls and results, keyed by call id. */
function orphans(entries: readonly Entry[]): Set<string> {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.add(block.callId);
      if (block.type === 'tool_result') results.add(block.callId);
    }
  }
  const out = new Set<string>();
  for (const id of calls) if (!results.has(id)) out.add(`call:${id}`);
  for (const id of results) if (!calls.has(id)) out.add(`result:${id}`);
  return out;
}

function echo(plan: Plan): Map<string, string> {
  return new Map(plan.summaries.map((task) => [task.id, `S(${task.id}: ${task.from}-${task.to})`]));
}

const NOTHING = /^(Too short to compact|Nothing to summarize|No user or assistant message|No entries|The branch is empty)/;

/** Plans, assembles with short summaries, and checks every invariant of the brief; returns the context. */
function check(input: CompactionInput, options: PiOptions): { plan: Plan; context: CompactedContext } {
  const before = structuredClone(input.entries);
  const plan = piStrategy.plan(input, options);
  // Same input, same plan.
  expect(piStrategy.plan({ ...input, entries: structuredClone(input.entries) }, options)).toEqual(plan);
  expect(plan.fates).toHaveLength(input.entries.length);

  const n = input.entries.length;
  if (plan.nothingToDo !== undefined) {
    expect(plan.nothingToDo).toMatch(NOTHING);
    expect(plan.summaries).toEqual([]);
  } else {
    const cut = plan.cut!.index;
    const cutEntry = input.entries[cut]!;
    // Never at a tool result: only user or assistant messages.
    expect(cutEntry.role === 'user' || cutEntry.role === 'assistant').toBe(true);
    expect(cutEntry.kind).toBe('message');
    // The kept tail holds keepRecentTokens (the span was at least that long, or nothingToDo said so).
    let kept = 0;
    for (let i = cut; i < n; i++) if (plan.fates[i] !== 'drop') kept += input.tokens.countAt(i);
    if (!plan.notes.some((note) => note.includes('moves forward'))) expect(kept).toBeGreaterThanOrEqual(options.keepRecentTokens);
    for (let i = cut; i < n; i++) expect(['keep', 'drop']).toContain(plan.fates[i]);
    for (let i = 0; i < cut; i++) {
      const entry = input.entries[i]!;
      expect(plan.fates[i]).toBe(entry.role === 'system' && entry.kind === 'message' ? 'keep' : 'summarize');
    }
    for (const task of plan.summaries) {
      expect(task.from).toBeLessThanOrEqual(task.to);
      expect(task.to).toBeLessThan(cut);
    }
  }

  const context = piStrategy.assemble(input, plan, echo(plan), options);
  // Compaction never edits the journal.
  expect(input.entries).toEqual(before);
  // No orphan the input did not already have.
  const had = orphans(input.entries);
  for (const orphan of orphans(context.entries.map((item) => item.entry))) expect(had.has(orphan)).toBe(true);
  // System messages are kept.
  const inContext = new Set(context.entries.map((item) => item.entry));
  for (const entry of input.entries) if (entry.role === 'system' && entry.kind === 'message') expect(inContext.has(entry)).toBe(true);
  // Journal entries are the journal's own objects, in order; summaries are new entries that say what they replace.
  let last = -1;
  for (const item of context.entries) {
    if (item.origin === 'journal') {
      const at = input.entries.indexOf(item.entry);
      expect(at).toBeGreaterThan(last);
      last = at;
    } else {
      expect(item.origin).toBe('summary');
      expect(item.role).toBe('user');
      expect(input.entries.includes(item.entry)).toBe(false);
      expect(item.replaces!.count).toBeGreaterThan(0);
    }
  }
  expect(context.tokensAfter).toBe(context.entries.reduce((sum, item) => sum + countEntry(item.entry, input.counter).total, 0));
  if (plan.nothingToDo === undefined) {
    expect(context.summaryApplied).toBe(true);
    const entry = compactionEntry(context)!;
    expect(entry.firstKeptEntryId).toBe(input.entries[plan.cut!.index]!.id);
    expect(entry.tokensBefore).toBe(plan.tokensBefore);
    // Fits below the threshold, or the plan says why not.
    if (context.tokensAfter > input.contextWindow - options.reserveTokens) expect(plan.notes.join('\n')).toContain('still above contextWindow - reserveTokens');
    expect(context.tokensAfter).toBeLessThanOrEqual(plan.tokensAfterEstimate);
  } else {
    expect(context.summaryApplied).toBe(false);
    expect(compactionEntry(context)).toBeUndefined();
  }
  return { plan, context };
}

// ---- generated transcripts ----

const TOOLS = ['read', 'edit', 'write', 'bash', 'grep', 'ls'] as const;
const PATHS = ['src/a.ts', 'src/b.ts', 'README.md', 'test/c.test.ts'] as const;

const stepArb = fc.record({
  text: fc.nat({ max: 3000 }),
  calls: fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), path: fc.constantFrom(...PATHS), result: fc.nat({ max: 20_000 }) }), { maxLength: 3 }),
});
const turnArb = fc.record({ user: fc.integer({ min: 1, max: 6000 }), steps: fc.array(stepArb, { maxLength: 4 }), final: fc.nat({ max: 3000 }) });
const transcriptArb = fc.record({
  system: fc.boolean(),
  turns: fc.array(turnArb, { minLength: 1, maxLength: 10 }),
  orphanResult: fc.boolean(),
  openCall: fc.boolean(),
});

type Transcript = typeof transcriptArb extends fc.Arbitrary<infer T> ? T : never;

function build(t: Transcript) {
  const specs: Spec[] = [];
  let id = 0;
  if (t.system) specs.push({ system: 'You are a coding agent. '.repeat(20) });
  if (t.orphanResult) specs.push({ tool: 'result of a call made before this transcript', callId: 'lost' });
  for (const turn of t.turns) {
    specs.push({ user: 'u'.repeat(turn.user) });
    for (const step of turn.steps) {
      const calls = step.calls.map((call) => ({ ...call, id: `call${id++}` }));
      specs.push({ assistant: 'a'.repeat(step.text), calls: calls.map((call) => ({ id: call.id, name: call.tool, input: call.tool === 'bash' ? { command: 'ls' } : { path: call.path } })) });
      for (const call of calls) specs.push({ tool: 'r'.repeat(call.result), callId: call.id });
    }
    specs.push({ assistant: `final ${'f'.repeat(turn.final)}` });
  }
  if (t.openCall) specs.push({ assistant: 'one more', calls: [{ id: 'open', name: 'read', input: { path: 'src/a.ts' } }] });
  return linkEntries(makeEntries(specs));
}

const optionsArb = fc.record({
  keepRecentTokens: fc.nat({ max: 15_000 }),
  reserveTokens: fc.integer({ min: 256, max: 20_000 }),
  contextWindow: fc.integer({ min: 2_000, max: 200_000 }),
});

describe('pi invariants on generated transcripts (fast-check)', () => {
  it('hold for a first compaction', () => {
    fc.assert(
      fc.property(transcriptArb, optionsArb, (t, o) => {
        const entries = build(t);
        check(makeInput(entries, { contextWindow: o.contextWindow }), piStrategy.parse({ keepRecentTokens: o.keepRecentTokens, reserveTokens: o.reserveTokens }));
      }),
      { numRuns: 300 },
    );
  });

  it('hold for a second compaction that updates the first', () => {
    fc.assert(
      fc.property(transcriptArb, optionsArb, fc.double({ min: 0.2, max: 0.9, noNaN: true }), (t, o, share) => {
        const entries = build(t);
        const options = piStrategy.parse({ keepRecentTokens: o.keepRecentTokens, reserveTokens: o.reserveTokens });
        const head = entries.slice(0, Math.max(1, Math.floor(entries.length * share)));
        const first = check(makeInput(head, { contextWindow: o.contextWindow }), options);
        const previous: PreviousCompaction | undefined = first.context.summaryApplied ? first.context.previous : undefined;
        const { plan } = check(makeInput(entries, { contextWindow: o.contextWindow, ...(previous ? { previous } : {}) }), options);
        if (previous && plan.nothingToDo === undefined) {
          const boundary = entries.findIndex((entry) => entry.id === previous.firstKeptEntryId);
          // Entries before the previous boundary are never read again: the history task starts at or after it.
          for (const task of plan.summaries) expect(task.from).toBeGreaterThanOrEqual(boundary);
          const history = plan.summaries.find((task) => task.id === 'history');
          if (history) {
            expect(history.prompt).toBe('pi-update-summary');
            expect(history.previousSummary).toBe(previous.summaries[0]);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

// ---- real transcripts ----

function branch(path: string): Entry[] {
  const { entries } = importText(readFileSync(path, 'utf8'));
  const leaf = activeLeaf(entries);
  const onPath = leaf ? pathTo(entries, leaf.id).map((i) => entries[i]!) : entries;
  return onPath.filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain);
}

const SAMPLES = [
  'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl',
  'public/samples/claude-code/dag_compact_after_rewind.jsonl',
  'public/samples/pi/large-session.jsonl',
  'public/samples/pi/v3-small.jsonl',
  'public/samples/codex/schema-coverage.jsonl',
];

describe('pi invariants on the real samples', () => {
  it.each(SAMPLES)('%s', (path) => {
    const entries = branch(path);
    expect(entries.length).toBeGreaterThan(0);
    for (const keepRecentTokens of [0, 500, 5_000, 20_000]) {
      const options = piStrategy.parse({ keepRecentTokens });
      const first = check(makeInput(entries), options);
      // Run again over the same branch with the first run as the previous compaction.
      if (first.context.summaryApplied) check(makeInput(entries, { previous: first.context.previous }), options);
    }
  });

  it('compacts the Claude Code session at the default 20,000 tokens, cutting at a user or assistant message', () => {
    const entries = branch(SAMPLES[0]!);
    const input = makeInput(entries);
    const { plan, context } = check(input, piStrategy.parse({}));
    expect(plan.nothingToDo).toBeUndefined();
    expect(['user', 'assistant']).toContain(entries[plan.cut!.index]!.role);
    expect(context.tokensAfter).toBeLessThan(plan.tokensBefore);
  });

  it('iterates three times over the pi session, each time reading only what is new', () => {
    const entries = branch(SAMPLES[2]!);
    const options = piStrategy.parse({ keepRecentTokens: 5_000 });
    let previous: PreviousCompaction | undefined;
    const cuts: number[] = [];
    for (const share of [0.4, 0.7, 1]) {
      const part = entries.slice(0, Math.floor(entries.length * share));
      const { plan, context } = check(makeInput(part, previous ? { previous } : {}), options);
      expect(plan.nothingToDo).toBeUndefined();
      if (previous) expect(plan.summaries[0]!.prompt).toBe('pi-update-summary');
      cuts.push(plan.cut!.index);
      previous = context.previous;
    }
    expect(cuts[0]! < cuts[1]! && cuts[1]! < cuts[2]!).toBe(true);
  });
});
