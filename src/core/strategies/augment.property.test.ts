import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInput } from '../compaction/input.ts';
import { runCompaction } from '../compaction/run.ts';
import { echoSummarizer, makeInput } from '../compaction/testing.ts';
import type { CompactedContext, CompactionInput, Plan } from '../compaction/types.ts';
import type { Block, Entry } from '../journal/entry.ts';
import { importText } from '../import/run.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries, countEntry } from '../tokens/entry-tokens.ts';
import { augmentStrategy } from './augment.ts';
import { loadPrompts } from '../test-fixtures.ts';

const prompts = loadPrompts();
const chars = getEstimator('chars');

// ---- generated transcripts ---------------------------------------------------------------

interface TurnSpec {
  user: number;
  injected: boolean;
  iterations: Array<{ text: number; calls: Array<{ tool: string; result: 'ok' | 'missing' | 'error'; size: number }>; parallel: boolean }>;
  final: number | null;
  aborted: boolean;
}

const TOOLS = ['Read', 'Edit', 'Bash', 'Write', 'Grep', 'delete_file', 'mcp__x__lookup'];
const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  user: fc.integer({ min: 1, max: 3000 }),
  injected: fc.boolean(),
  iterations: fc.array(fc.record({
    text: fc.nat(600),
    calls: fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), result: fc.constantFrom('ok', 'ok', 'ok', 'error', 'missing'), size: fc.nat(4000) }), { maxLength: 3 }),
    parallel: fc.boolean(),
  }), { maxLength: 4 }),
  final: fc.option(fc.integer({ min: 1, max: 2000 }), { nil: null }),
  aborted: fc.boolean(),
});

interface TranscriptSpec {
  system: boolean;
  midSystem: boolean;
  orphanResult: boolean;
  turns: TurnSpec[];
}

const transcriptArb: fc.Arbitrary<TranscriptSpec> = fc.record({
  system: fc.boolean(),
  midSystem: fc.boolean(),
  orphanResult: fc.boolean(),
  turns: fc.array(turnArb, { minLength: 1, maxLength: 14 }),
});

function build(spec: TranscriptSpec): Entry[] {
  const out: Entry[] = [];
  let t = 1_700_000_000_000;
  let callN = 0;
  const push = (role: Entry['role'], blocks: Block[], flags?: Entry['flags']) => {
    const index = out.length;
    out.push({ id: `g${index}`, index, parentId: index === 0 ? null : `g${index - 1}`, role, kind: 'message', blocks, sourceType: 'gen', line: index + 1, timestamp: (t += 1000), ...(flags ? { flags } : {}) });
  };
  const text = (n: number, seed: string) => (seed + ' ').repeat(Math.ceil(n / (seed.length + 1))).slice(0, n);
  if (spec.system) push('system', [{ type: 'text', text: 'You are a coding agent.' }]);
  if (spec.orphanResult) push('tool', [{ type: 'tool_result', callId: 'ghost', content: [{ type: 'text', text: 'from nowhere' }], isError: false }]);
  spec.turns.forEach((turn, k) => {
    push('user', [{ type: 'text', text: text(turn.user, `ask${k}`) }]);
    if (turn.injected) push('user', [{ type: 'text', text: '<system-reminder>keep going</system-reminder>' }], { injected: true });
    if (spec.midSystem && k === Math.floor(spec.turns.length / 2)) push('system', [{ type: 'text', text: 'Mid-session system note.' }]);
    for (const it of turn.iterations) {
      const calls = it.calls.map((c) => ({ ...c, id: `call${callN++}` }));
      const callBlock = (c: (typeof calls)[number]): Block => ({ type: 'tool_call', callId: c.id, name: c.tool, input: c.tool === 'Bash' ? { command: `run ${c.id}` } : { file_path: `src/${c.id}.ts` } });
      const result = (c: (typeof calls)[number]) => push('tool', [{ type: 'tool_result', callId: c.id, content: [{ type: 'text', text: text(c.size, 'out') }], isError: c.result === 'error' }]);
      if (it.parallel) {
        push('assistant', [...(it.text ? [{ type: 'text' as const, text: text(it.text, 'think') }] : []), ...calls.map(callBlock)]);
        for (const c of calls) if (c.result !== 'missing') result(c);
      } else {
        if (it.text) push('assistant', [{ type: 'text', text: text(it.text, 'think') }]);
        for (const c of calls) {
          push('assistant', [callBlock(c)]);
          if (c.result !== 'missing') result(c);
        }
      }
    }
    if (turn.final !== null) push('assistant', [{ type: 'text', text: text(turn.final, 'answer') }], turn.aborted ? { aborted: true } : undefined);
  });
  return out;
}

const optionsArb = fc.record({
  trigger_on_history_size_chars: fc.integer({ min: 0, max: 30_000 }),
  trigger_on_history_size_chars_when_cache_expiring: fc.integer({ min: 0, max: 20_000 }),
  history_tail_size_chars_to_exclude: fc.integer({ min: 0, max: 15_000 }),
  min_tail_exchanges: fc.integer({ min: 0, max: 3 }),
  cache_ttl_ms: fc.constantFrom(0, 5000, 300_000),
  buffer_time_before_cache_expiration_ms: fc.constantFrom(0, 1000, 30_000),
  summary_mode: fc.constantFrom('replace', 'nested'),
  exchange_unit: fc.constantFrom('turn', 'iteration'),
  size_unit: fc.constantFrom('auto', 'chars', 'counter', 'tokens'),
  total_chars_limit: fc.constantFrom(0, 2000, 10_000),
});

// ---- invariants ----------------------------------------------------------------------------

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Orphans that already exist in the input (they may stay; new ones must not appear). */
function inputOrphans(entries: readonly Entry[]) {
  const calls = new Set<string>();
  const results = new Set<string>();
  const orphanResults = new Set<string>();
  for (const entry of entries) for (const block of entry.blocks) {
    if (block.type === 'tool_call') calls.add(block.callId);
    if (block.type === 'tool_result') {
      results.add(block.callId);
      if (!calls.has(block.callId)) orphanResults.add(block.callId);
    }
  }
  return { orphanCalls: new Set([...calls].filter((id) => !results.has(id))), orphanResults };
}

function checkContext(input: CompactionInput, plan: Plan, context: CompactedContext): void {
  const { entries } = input;
  const orphans = inputOrphans(entries);
  // Pairs: every result after its call, every call with a result after it, unless the orphan was already there.
  const seenCalls = new Set<string>();
  const seenResults = new Set<string>();
  for (const item of context.entries) for (const block of item.entry.blocks) {
    if (block.type === 'tool_call') seenCalls.add(block.callId);
    if (block.type === 'tool_result') {
      expect(seenCalls.has(block.callId) || orphans.orphanResults.has(block.callId), `result ${block.callId} without its call`).toBe(true);
      seenResults.add(block.callId);
    }
  }
  for (const id of seenCalls) expect(seenResults.has(id) || orphans.orphanCalls.has(id), `call ${id} without its result`).toBe(true);

  // System entries kept, as the same objects.
  const inContext = new Set(context.entries.map((item) => item.entry));
  for (const entry of entries) if (entry.role === 'system' && entry.kind === 'message') expect(inContext.has(entry)).toBe(true);

  // Journal entries in the context are exactly the kept ones (or, with an earlier node standing, those after it).
  expect(plan.fates).toHaveLength(entries.length);
  const journal = context.entries.filter((item) => item.origin === 'journal');
  for (const item of journal) expect(plan.fates[entries.indexOf(item.entry)]).toBe('keep');
  if (context.summaryApplied) expect(journal).toHaveLength(plan.fates.filter((f) => f === 'keep').length);

  // Pinned entries are never summarized.
  for (const [i, entry] of entries.entries()) if (input.pinned?.has(entry.id)) expect(plan.fates[i]).toBe('keep');

  // New entries are new objects; summaries say what they replace.
  for (const item of context.entries) {
    if (item.origin === 'journal') continue;
    expect(entries.includes(item.entry)).toBe(false);
    if (item.origin === 'summary') expect(item.replaces).toBeDefined();
  }

  // The token count is the counter's over the context.
  expect(context.tokensAfter).toBe(context.entries.reduce((sum, item) => sum + countEntry(item.entry, input.counter).total, 0));

  // The promise: the kept tail is under historyTailSizeCharsToExclude, or the notes say why not.
  if (context.summaryApplied && plan.cut && plan.options.sizeUnit !== 'tokens') {
    let tail = 0;
    for (let i = plan.cut.index; i < entries.length; i++) if (entries[i]!.role !== 'system') tail += countEntry(entries[i]!, chars).total;
    const limit = plan.options.historyTailSizeCharsToExclude as number;
    if (tail >= limit) expect(plan.notes.some((note) => note.includes('is over historyTailSizeCharsToExclude'))).toBe(true);
    const task = plan.summaries.find((t) => t.id === 'augment-summary')!;
    expect(task.from).toBeLessThanOrEqual(task.to);
    expect(task.to).toBeLessThan(plan.cut.index);
  }
}

async function compactChecked(input: CompactionInput, raw: Record<string, unknown>) {
  const before = structuredClone(input.entries);
  const previousBefore = structuredClone(input.previous);
  const options = augmentStrategy.parse(raw);
  const plan = augmentStrategy.plan(input, options);
  expect(augmentStrategy.plan(input, options)).toEqual(plan);
  const outcome = await runCompaction({ strategy: augmentStrategy as never, input, rawOptions: raw, summarizer: echoSummarizer(), prompts });
  expect(outcome.plan).toEqual(plan);
  checkContext(input, plan, outcome.context);
  const again = await runCompaction({ strategy: augmentStrategy as never, input, rawOptions: raw, summarizer: echoSummarizer(), prompts });
  expect(again.context).toEqual(outcome.context);
  expect(input.entries).toEqual(before);
  expect(input.previous).toEqual(previousBefore);
  return outcome;
}

describe('augment invariants (property)', () => {
  it('generated transcripts with tool calls, pins and repeated compaction', async () => {
    await fc.assert(fc.asyncProperty(
      transcriptArb, optionsArb, fc.array(fc.nat(200), { maxLength: 3 }), fc.nat(400_000), fc.integer({ min: 1, max: 99 }),
      async (spec, raw, pinPicks, delay, splitPct) => {
        const entries = deepFreeze(build(spec));
        const pinned = new Set(pinPicks.filter((p) => p < entries.length).map((p) => entries[p]!.id));
        const last = entries[entries.length - 1]!.timestamp!;
        // First a prefix, then the whole branch with the first run's state.
        const prefix = entries.slice(0, Math.max(1, Math.floor((entries.length * splitPct) / 100)));
        const first = await compactChecked(makeInput(prefix, { pinned, now: last + delay }), raw);
        await compactChecked(makeInput(entries, { pinned, now: last + delay, previous: deepFreeze(first.context.previous) }), raw);
      },
    ), {
      numRuns: 150,
      // Found by this property: a pinned exchange straddling an earlier summary's boundary lost its calls.
      examples: [[{"system":false,"midSystem":false,"orphanResult":false,"turns":[{"user":1,"injected":false,"iterations":[{"text":0,"calls":[{"tool":"Read","result":"ok","size":0}],"parallel":false},{"text":0,"calls":[{"tool":"Read","result":"ok","size":0}],"parallel":false}],"final":1,"aborted":false},{"user":1,"injected":false,"iterations":[],"final":1,"aborted":false}]},{"trigger_on_history_size_chars":1,"trigger_on_history_size_chars_when_cache_expiring":0,"history_tail_size_chars_to_exclude":0,"min_tail_exchanges":0,"cache_ttl_ms":0,"buffer_time_before_cache_expiration_ms":0,"summary_mode":"replace","exchange_unit":"turn","size_unit":"auto","total_chars_limit":0},[2],0,25] as never, [{"system":false,"midSystem":false,"orphanResult":false,"turns":[{"user":1,"injected":false,"iterations":[],"final":1,"aborted":false},{"user":1,"injected":false,"iterations":[{"text":0,"calls":[{"tool":"Read","result":"ok","size":0}],"parallel":false},{"text":0,"calls":[{"tool":"Read","result":"ok","size":0},{"tool":"Read","result":"ok","size":0},{"tool":"Read","result":"ok","size":0}],"parallel":false}],"final":1,"aborted":false},{"user":1,"injected":false,"iterations":[],"final":1,"aborted":false}]},{"trigger_on_history_size_chars":1,"trigger_on_history_size_chars_when_cache_expiring":0,"history_tail_size_chars_to_exclude":0,"min_tail_exchanges":0,"cache_ttl_ms":0,"buffer_time_before_cache_expiration_ms":0,"summary_mode":"replace","exchange_unit":"iteration","size_unit":"auto","total_chars_limit":0},[4],0,29] as never],
    });
  });

  it('the real Claude Code session, across options', async () => {
    const journal = importText(readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8')).entries;
    const counter = getEstimator('chars4');
    const totals = countEntries(journal, counter).totals;
    const { input } = buildInput(journal, totals, counter, { contextWindow: 200_000, now: Date.UTC(2030, 0, 1) });
    deepFreeze(input.entries);
    await fc.assert(fc.asyncProperty(optionsArb, fc.array(fc.nat(input.entries.length - 1), { maxLength: 4 }), async (raw, pinPicks) => {
      const pinned = new Set(pinPicks.map((p) => input.entries[p]!.id));
      const first = await compactChecked({ ...input, pinned }, raw);
      await compactChecked({ ...input, pinned, previous: first.context.previous }, raw);
    }), { numRuns: 40 });
  });

  it('the real session with the defaults: it fires, and the context is smaller', async () => {
    const journal = importText(readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8')).entries;
    const counter = getEstimator('chars4');
    const { input } = buildInput(journal, countEntries(journal, counter).totals, counter, { contextWindow: 200_000, now: Date.UTC(2030, 0, 1) });
    for (const unit of ['turn', 'iteration']) {
      const outcome = await compactChecked(input, { exchange_unit: unit });
      expect(outcome.plan.trigger.fire).toBe(true);
      expect(outcome.context.summaryApplied).toBe(true);
      expect(outcome.context.tokensAfter).toBeLessThan(outcome.plan.tokensBefore);
    }
  });
});
