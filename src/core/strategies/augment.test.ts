import { describe, expect, it } from 'vitest';
import { OptionError } from '../compaction/options.ts';
import { renderTemplate } from '../compaction/prompts.ts';
import { runCompaction } from '../compaction/run.ts';
import { echoSummarizer, failingSummarizer, linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactionInput, ContextEntry, PreviousCompaction } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { AugmentSummaryMissingError, augmentStrategy, cacheExpiryDecision, SUMMARY_TASK_ID } from './augment.ts';
import { AUGMENT_CODE_DEFAULTS, type AugmentOptions } from './augment/params.ts';
import { plannedMemories } from './augment/memories.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { ABRIDGED_EXCHANGE_TEMPLATE, SUMMARY_NODE_RESPONSE, SUPERVISOR_TEMPLATE } from './augment/templates.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { buildInput } from '../compaction/input.ts';
import { formatTime } from '../journal/clock.ts';

const prompts = loadPrompts();
const opts = (raw: Record<string, unknown> = {}): AugmentOptions => augmentStrategy.parse(raw);

/** One exchange per size: a user message of exactly that many characters. */
function sizedTurns(sizes: readonly number[]): Entry[] {
  return makeEntries(sizes.map((size, i) => ({ user: `E${i + 1}`.padEnd(size, '.') })));
}

/** A coding session: n turns, each user message + read + bash + edit + final answer. */
function session(n: number, pad = 400): Entry[] {
  const specs: Spec[] = [{ system: 'You are a coding agent.' }];
  for (let t = 0; t < n; t++) {
    specs.push({ user: `Task ${t}: ${'please '.repeat(pad / 7)}` });
    specs.push({ assistant: `Reading file ${t}.`, calls: [{ id: `r${t}`, name: 'Read', input: { file_path: `src/f${t}.ts` } }] });
    specs.push({ tool: `contents of f${t} ${'x'.repeat(pad)}`, callId: `r${t}` });
    specs.push({ assistant: '', calls: [{ id: `b${t}`, name: 'Bash', input: { command: `npm test -- f${t}` } }, { id: `e${t}`, name: 'Edit', input: { file_path: `src/f${t}.ts`, old_string: 'a', new_string: 'b' } }] });
    specs.push({ tool: `PASS ${'y'.repeat(pad)}`, callId: `b${t}` });
    specs.push({ tool: 'edited', callId: `e${t}` });
    specs.push({ assistant: `Done with task ${t}. ${'z'.repeat(pad)}` });
  }
  return linkEntries(makeEntries(specs));
}

function pairsValid(context: readonly ContextEntry[]): boolean {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const item of context) {
    for (const block of item.entry.blocks) {
      if (block.type === 'tool_call') calls.add(block.callId);
      if (block.type === 'tool_result') {
        if (!calls.has(block.callId)) return false;
        results.add(block.callId);
      }
    }
  }
  return [...calls].every((id) => results.has(id));
}

async function run(input: CompactionInput, raw: Record<string, unknown> = {}, summarizer = echoSummarizer()) {
  const outcome = await runCompaction({ strategy: augmentStrategy as never, input, rawOptions: raw, summarizer, prompts });
  return { ...outcome, summarizer };
}

describe('prompt files', () => {
  it('the fixed templates in prompts/ are the ones the code uses', () => {
    expect(prompts['augment-supervisor']).toBe(`${SUPERVISOR_TEMPLATE}\n`);
    expect(prompts['augment-abridged-exchange']).toBe(ABRIDGED_EXCHANGE_TEMPLATE);
    expect(SUPERVISOR_TEMPLATE).toContain('{summary}');
    expect(SUPERVISOR_TEMPLATE).toContain('{abridged_history}');
    expect(SUMMARY_NODE_RESPONSE).toBe('Ok. I will continue the conversation from this point.');
  });

  it('the summary and memories prompts render with the variables the plan gives', () => {
    const summary = renderTemplate(prompts['augment-summary']!, { conversation: '<conversation>\nx\n</conversation>', previous_summary: '', abridged_history: 'a', previous_summary_section: '', sequence_id: '1.5' });
    expect(summary).toContain('<conversation>');
    expect(summary).toContain('<summary></summary>');
    expect(() => renderTemplate(prompts['augment-memories-compression']!, { memories: 'm', recent_memories: 'r', target_lines: '40', num_recent: '10', conversation: '', previous_summary: '' })).not.toThrow();
  });
});

describe('options (A2)', () => {
  it('accepts the feature flag JSON in snake_case, nested, or as the params string', () => {
    const o = opts({
      trigger_on_history_size_chars: 80_000, history_tail_size_chars_to_exclude: 9000, cache_ttl_ms: 60_000,
      abridged_history_params: { total_chars_limit: 5000, user_message_chars_limit: 300 },
      memories_params: { compression_target: 40, num_recent_memories_to_keep: 5 },
    });
    expect(o.triggerOnHistorySizeChars).toBe(80_000);
    expect(o.historyTailSizeCharsToExclude).toBe(9000);
    expect(o.cacheTTLMs).toBe(60_000);
    expect(o.totalCharsLimit).toBe(5000);
    expect(o.userMessageCharsLimit).toBe(300);
    expect(o.compressionTarget).toBe(40);
    expect(o.numRecentMemoriesToKeep).toBe(5);
    const fromString = opts({ history_summary_params: JSON.stringify({ trigger_on_history_size_chars: 123, abridged_history_params: { action_chars_limit: 50 } }) });
    expect(fromString.triggerOnHistorySizeChars).toBe(123);
    expect(fromString.actionCharsLimit).toBe(50);
  });

  it('defaults: the seed feature-flag example and abridged limits', () => {
    const o = opts();
    expect(o).toMatchObject({
      enabled: true, triggerOnHistorySizeChars: 50_000, triggerOnHistorySizeCharsWhenCacheExpiring: 30_000,
      historyTailSizeCharsToExclude: 5000, minTailExchanges: 1, prompt: 'augment-summary', cacheTTLMs: 300_000,
      bufferTimeBeforeCacheExpirationMs: 30_000, summaryNodeRequestMessageTemplate: SUPERVISOR_TEMPLATE,
      summaryNodeResponseMessage: SUMMARY_NODE_RESPONSE, totalCharsLimit: 10_000, userMessageCharsLimit: 1000,
      agentResponseCharsLimit: 2000, actionCharsLimit: 200, numFilesModifiedLimit: 10, numFilesCreatedLimit: 10,
      numFilesDeletedLimit: 10, numFilesViewedLimit: 10, numTerminalCommandsLimit: 10, historySummaryVersion: 3,
      summaryMode: 'replace', sizeUnit: 'chars', exchangeUnit: 'turn',
    });
  });

  it('refuses an out-of-range value with its name and range, a typo, and prompt text', () => {
    expect(() => opts({ trigger_on_history_size_chars: -1 })).toThrow(OptionError);
    expect(() => opts({ trigger_on_history_size_chars: -1 })).toThrow(/triggerOnHistorySizeChars must be a whole number from 0 to 1000000000 \(chars\)/);
    expect(() => opts({ user_message_chars_limit: 0 })).toThrow(/userMessageCharsLimit must be a whole number from 1/);
    expect(() => opts({ summary_mode: 'stacked' })).toThrow(/summaryMode must be one of replace, nested/);
    expect(() => opts({ trigger_on_history_size: 5 })).toThrow(/Unknown option "trigger_on_history_size"/);
    expect(() => opts({ prompt: 'Summarize the conversation.' })).toThrow(/prompt names a prompt file in prompts\//);
    expect(() => opts({ history_summary_params: '{oops' })).toThrow(/history_summary_params is not valid JSON/);
  });

  it("Augment's code defaults disable summarization, and the trigger says why", () => {
    const input = makeInput(sizedTurns([60_000, 60_000]));
    const d = augmentStrategy.trigger(input, opts(AUGMENT_CODE_DEFAULTS as Record<string, unknown>));
    expect(d.fire).toBe(false);
    expect(d.rule).toBe('disabled');
    expect(d.detail).toMatch(/prompt is empty/);
    const zero = augmentStrategy.trigger(input, opts({ trigger_on_history_size_chars: 0, trigger_on_history_size_chars_when_cache_expiring: 0 }));
    expect(zero.detail).toMatch(/Both thresholds are 0/);
    expect(augmentStrategy.plan(input, opts({ prompt: '' })).nothingToDo).toMatch(/prompt is empty/);
  });

  it('a template without {summary} falls back to the default with a visible error', async () => {
    const input = makeInput(session(8));
    const raw = { trigger_on_history_size_chars: 5000, summary_node_request_message_template: 'Summary: {abridged_history}' };
    const plan = augmentStrategy.plan(input, opts(raw));
    expect(plan.notes[0]).toMatch(/^Error: summaryNodeRequestMessageTemplate must contain \{summary\}/);
    const { context } = await run(input, raw);
    expect(context.notes[0]).toMatch(/^Error: summaryNodeRequestMessageTemplate must contain \{summary\}/);
    const node = context.entries.find((e) => e.origin === 'summary')!;
    expect((node.entry.blocks[0] as { text: string }).text.startsWith('<supervisor>')).toBe(true);
  });
});

describe('trigger and split (A1, A3)', () => {
  const wtt = { trigger_on_history_size_chars: 10_000, history_tail_size_chars_to_exclude: 3000, min_tail_exchanges: 1 };
  // §4.2: E8-E10 800 chars each, E7 800, the rest 7,600: 10,800 in all.
  const sizes = [1200, 1200, 1200, 1200, 1400, 1400, 800, 800, 800, 800];

  it('reproduces §4.2 on journal entries: cut before E8, E1-E7 summarized', () => {
    const input = makeInput(sizedTurns(sizes));
    const plan = augmentStrategy.plan(input, opts(wtt));
    expect(plan.trigger).toMatchObject({ fire: true, rule: 'historySize' });
    expect(plan.trigger.detail).toMatch(/^historyChars 10,800 >= 10,000 \(triggerOnHistorySizeChars; characters, Augment's unit\)/);
    expect(plan.trigger.numbers).toMatchObject({ historySize: 10_800, threshold: 10_000, headSize: 8400, tailSize: 2400 });
    expect(plan.cut).toEqual({ index: 7, rule: 'Wtt: tail reached historyTailSizeCharsToExclude 3,000 chars (3 exchanges, 2,400 chars; the next older exchange would pass it)' });
    expect(plan.fates).toEqual([...Array(7).fill('summarize'), 'keep', 'keep', 'keep']);
    expect(plan.summaries).toHaveLength(1);
    expect(plan.summaries[0]).toMatchObject({ id: SUMMARY_TASK_ID, prompt: 'augment-summary', from: 0, to: 6 });
    expect(plan.summaries[0]!.vars!.abridged_history).toContain('<user>\nE7');
  });

  it('under the threshold: nothing to do, with the numbers', () => {
    const input = makeInput(sizedTurns([1000, 1000]));
    const plan = augmentStrategy.plan(input, opts());
    expect(plan.nothingToDo).toMatch(/historyChars 2,000 < 50,000/);
    expect(plan.fates.every((f) => f === 'keep')).toBe(true);
    expect(plan.summaries).toEqual([]);
  });

  it('over the threshold but one exchange: the tail keeps it, nothing to do', () => {
    const input = makeInput(sizedTurns([80_000]));
    const plan = augmentStrategy.plan(input, opts());
    expect(plan.trigger.fire).toBe(false);
    expect(plan.nothingToDo).toMatch(/historyChars 80,000 >= 50,000 .* but the tail keeps every exchange/);
  });

  it('minTailExchanges keeps a large newest exchange and the plan says the tail is over the limit', () => {
    const input = makeInput(sizedTurns([30_000, 30_000]));
    const plan = augmentStrategy.plan(input, opts());
    expect(plan.cut!.rule).toBe('Wtt: tail holds minTailExchanges 1 (1 exchange, 30,000 chars >= historyTailSizeCharsToExclude 5,000)');
    expect(plan.notes.some((n) => n.includes('is over historyTailSizeCharsToExclude'))).toBe(true);
  });

  it('counts characters, not tokens, whatever the counter; sizeUnit=tokens reads the thresholds in the input counter and says so', () => {
    const entries = sizedTurns([30_000, 30_000]);
    const input = makeInput(entries, { counter: getEstimator('chars4') });
    expect(augmentStrategy.trigger(input, opts()).numbers.historySize).toBe(60_000);
    const byTokens = augmentStrategy.trigger(input, opts({ size_unit: 'tokens' }));
    expect(byTokens.numbers.historySize).toBe(15_000);
    expect(byTokens.detail).toMatch(/historySize 15,000 < 50,000 \(triggerOnHistorySizeChars; chars\/4 tokens, sizeUnit = tokens: the thresholds are read in this unit/);
    // An exact tokenizer (o200k) does not turn the *_chars thresholds into tokens (seed 000 §1.3: characters).
    const exact = { ...getEstimator('chars4'), id: 'o200k' as const, label: 'o200k_base', exact: true };
    const byDefault = augmentStrategy.trigger(makeInput(entries, { counter: exact }), opts());
    expect(byDefault.numbers.historySize).toBe(60_000);
    expect(byDefault.fire).toBe(true);
    expect(byDefault.detail).toMatch(/historyChars 60,000 >= 50,000 \(triggerOnHistorySizeChars; characters, Augment's unit\)/);
    expect(augmentStrategy.trigger(makeInput(entries, { counter: exact }), opts({ size_unit: 'tokens' })).numbers.historySize).toBe(15_000);
  });

  it('reads the earlier unit names of stored configurations: counter is tokens, auto is characters', () => {
    expect(opts({ size_unit: 'counter' }).sizeUnit).toBe('tokens');
    expect(opts({ sizeUnit: 'auto' }).sizeUnit).toBe('chars');
    expect(() => opts({ sizeUnit: 'words' })).toThrow(/sizeUnit must be one of chars, tokens/);
  });

  it('a turn is one exchange: tool results stay with their call, cuts land on user messages', () => {
    const entries = session(10);
    const input = makeInput(entries);
    const plan = augmentStrategy.plan(input, opts({ trigger_on_history_size_chars: 5000, history_tail_size_chars_to_exclude: 3000 }));
    expect(entries[plan.cut!.index]!.role).toBe('user');
    expect(plan.fates[0]).toBe('keep'); // system
  });
});

describe('cache-expiry trigger (A1)', () => {
  const base = { cacheTTLMs: 300_000, bufferTimeBeforeCacheExpirationMs: 30_000, threshold: 30_000, historySize: 40_000, cacheWrittenAt: 1_000_000 };
  const written = formatTime(1_000_000);

  it('delay = TTL - cacheAge - buffer; fires once the delay has run out, saying when', () => {
    const early = cacheExpiryDecision({ ...base, now: 1_000_000 + 100_000 });
    expect(early).toMatchObject({ scheduled: true, cacheAgeMs: 100_000, delayMs: 170_000, firesAt: 1_270_000, expiresAt: 1_300_000, due: false, fire: false });
    expect(early.reason).toBe(`delay = cacheTTLMs 300,000 - cacheAge 100,000 - buffer 30,000 = 170,000 ms: the timer has not fired yet, it would fire in 170,000 ms (cache written ${written}, timer at ${formatTime(1_270_000)}, planned call ${formatTime(1_100_000)}; history 40,000 >= 30,000 then)`);
    const at = cacheExpiryDecision({ ...base, now: 1_270_000 });
    expect(at).toMatchObject({ delayMs: 0, due: true, fire: true });
    expect(at.reason).toBe(`delay = cacheTTLMs 300,000 - cacheAge 270,000 - buffer 30,000 = 0 ms: the timer fired 0 ms before the planned call (cache written ${written}, timer at ${formatTime(1_270_000)}, planned call ${formatTime(1_270_000)}); history 40,000 >= 30,000`);
    expect(cacheExpiryDecision({ ...base, historySize: 10_000, now: 1_280_000 })).toMatchObject({ due: true, fire: false });
  });

  it('is off with a zero threshold, TTL <= buffer, or no timestamps', () => {
    expect(cacheExpiryDecision({ ...base, threshold: 0, now: 2_000_000 }).scheduled).toBe(false);
    expect(cacheExpiryDecision({ ...base, cacheTTLMs: 30_000, now: 2_000_000 }).scheduled).toBe(false);
    expect(cacheExpiryDecision({ ...base, cacheWrittenAt: undefined, now: 2_000_000 }).fire).toBe(false);
  });

  /** Two exchanges of 20,000 chars, each answered; the second answer at `answeredAt`, then a user message at `userAt`. */
  function idleSession(answeredAt: number, userAt: number): Entry[] {
    const entries = makeEntries([{ user: 'E1'.padEnd(20_000, '.') }, { assistant: 'ok' }, { user: 'E2'.padEnd(20_000, '.') }, { assistant: 'ok' }, { user: 'back' }]);
    entries[3]!.timestamp = answeredAt;
    entries[4]!.timestamp = userAt;
    return entries;
  }

  it('the cache was written by the last model call; the strategy fires when the history is between the two thresholds', () => {
    const entries = idleSession(5_000_000, 5_000_000);
    const raw = { history_tail_size_chars_to_exclude: 1000 };
    const before = augmentStrategy.trigger(makeInput(entries, { now: 5_200_000 }), opts(raw));
    expect(before.fire).toBe(false);
    expect(before.detail).toMatch(/historyChars 40,0\d\d < 50,000.*cache-expiry trigger: delay = cacheTTLMs 300,000 - cacheAge 200,000 - buffer 30,000 = 70,000 ms: the timer has not fired yet, it would fire in 70,000 ms/);
    expect(before.numbers.cacheFiresAt).toBe(5_270_000);
    const plan = augmentStrategy.plan(makeInput(entries, { now: 5_270_000 }), opts(raw));
    expect(plan.trigger).toMatchObject({ fire: true, rule: 'cacheExpiring' });
    expect(plan.trigger.numbers).toMatchObject({ cacheThreshold: 30_000, cacheAgeMs: 270_000, delayMs: 0 });
    expect(plan.cut!.index).toBe(4);
  });

  it('a single plan takes the transcript’s own time: the user came back after the timer', () => {
    const t0 = Date.UTC(2026, 2, 2, 9, 0, 0);
    const entries = idleSession(t0, t0 + 10 * 60_000);
    // buildInput's default clock: the time of the call being planned (the latest timestamp), never the wall clock.
    const built = buildInput(entries, entries.map(() => 1), getEstimator('chars4'), { contextWindow: 200_000, wallClock: Date.now() });
    expect(built.input.now).toBe(t0 + 10 * 60_000);
    const plan = augmentStrategy.plan(built.input, opts({ history_tail_size_chars_to_exclude: 1000 }));
    expect(plan.trigger).toMatchObject({ fire: true, rule: 'cacheExpiring' });
    expect(plan.trigger.detail).toContain('the timer fired 330,000 ms before the planned call (cache written 2026-03-02 09:00:00 UTC, timer at 2026-03-02 09:04:30 UTC, planned call 2026-03-02 09:10:00 UTC)');
    // Without any timestamp the caller's clock is used, and no timer is scheduled.
    const bare = entries.map((entry) => ({ ...entry, timestamp: undefined }));
    expect(buildInput(bare, bare.map(() => 1), getEstimator('chars4'), { contextWindow: 200_000, wallClock: 42 }).input.now).toBe(42);
  });

  it('a summary rewrites the cache: the timer restarts from it', async () => {
    const t0 = Date.UTC(2026, 2, 2, 9, 0, 0);
    const entries = idleSession(t0, t0 + 10 * 60_000);
    const raw = { history_tail_size_chars_to_exclude: 1000 };
    const first = await run(makeInput(entries, { now: t0 + 10 * 60_000 }), raw);
    expect(first.context.previous.state!.compactedAt).toBe(t0 + 10 * 60_000);
    const again = augmentStrategy.trigger(makeInput(entries, { now: t0 + 11 * 60_000, previous: first.context.previous }), opts(raw));
    expect(again.numbers.cacheAgeMs).toBe(60_000);
  });
});

describe('second truncation (A4)', () => {
  it('the summarizer reads the head from zee\'s segment; older exchanges are dropped from its input', () => {
    // Head exchanges of 133,000 chars x 8 + 100,000 x 2 as in §4.3, plus a small tail exchange.
    const sizes = [133_000, 133_000, 133_000, 133_000, 133_000, 133_000, 133_000, 133_000, 100_000, 100_000, 500];
    const input = makeInput(sizedTurns(sizes));
    const plan = augmentStrategy.plan(input, opts());
    expect(plan.cut!.index).toBe(10);
    expect(plan.fates.slice(0, 4)).toEqual(['drop', 'drop', 'drop', 'drop']);
    expect(plan.fates.slice(4, 10).every((f) => f === 'summarize')).toBe(true);
    expect(plan.summaries[0]).toMatchObject({ from: 4, to: 9 });
    expect(plan.notes.some((n) => n.startsWith('zee: the head is 1,264,000 chars in 5 segments of 266,667; the summarizer reads from segment 2 (exchange 5 of 10); 4 older exchanges are dropped'))).toBe(true);
  });
});

describe('summary node (A5, A7) through runCompaction', () => {
  const raw = { trigger_on_history_size_chars: 5000, history_tail_size_chars_to_exclude: 3000 };

  it('system, node (user), fixed reply, tail; the node has the abridged history and the summary', async () => {
    const entries = session(10);
    const input = makeInput(entries);
    const { plan, context, record, summarizer } = await run(input, raw);
    expect(summarizer.requests).toHaveLength(1);
    expect(summarizer.requests[0]!.promptId).toBe('augment-summary');
    const [system, node, ack, ...tail] = context.entries;
    expect(system!.entry).toBe(entries[0]);
    expect(node!.origin).toBe('summary');
    expect(node!.role).toBe('user');
    expect(node!.replaces).toEqual({ fromId: 'e1', toId: entries[plan.cut!.index - 1]!.id, count: plan.cut!.index - 1 });
    const text = (node!.entry.blocks[0] as { text: string }).text;
    expect(text.startsWith('<supervisor>\nConversation history between Agent(you) and the user')).toBe(true);
    expect(text).toContain(`<abridged_history>\n${plan.summaries[0]!.vars!.abridged_history}\n</abridged_history>`);
    expect(text).toContain('<summary>\nSUMMARY(augment-summary:');
    expect(text).toContain('<files_modified>\n        src/f0.ts');
    expect(ack!.origin).toBe('synthetic');
    expect(ack!.entry.blocks).toEqual([{ type: 'text', text: 'Ok. I will continue the conversation from this point.' }]);
    expect(tail[0]!.entry).toBe(entries[plan.cut!.index]);
    expect(pairsValid(context.entries)).toBe(true);
    expect(context.tokensAfter).toBe(context.entries.reduce((s, e) => s + countEntry(e.entry, input.counter).total, 0));
    expect(context.previous).toMatchObject({ strategy: 'augment', firstKeptEntryId: entries[plan.cut!.index]!.id, state: { version: 3, mode: 'replace' } });
    expect(record.summary_applied).toBe(true);
  });

  it('strips a <summary> wrapper the model added', async () => {
    const input = makeInput(session(10));
    const summarizer = { id: 'tagged', label: 't', summarize: () => Promise.resolve({ text: '<summary>\nI did it.\n</summary>', model: 't' }) };
    const { context } = await runCompaction({ strategy: augmentStrategy as never, input, rawOptions: raw, summarizer, prompts });
    const text = (context.entries[1]!.entry.blocks[0] as { text: string }).text;
    expect(text).toContain('<summary>\nI did it.\n</summary>');
  });

  it('iteration exchanges: the reply carries the cut-off tool calls so their results stay valid', async () => {
    const entries = session(6);
    const input = makeInput(entries);
    // A tail of ~1 iteration: the cut lands on a tool result.
    const { plan, context } = await run(input, { ...raw, exchange_unit: 'iteration', history_tail_size_chars_to_exclude: 500 });
    const cutEntry = entries[plan.cut!.index]!;
    expect(cutEntry.role).toBe('tool');
    const ack = context.entries.find((e) => e.origin === 'synthetic')!;
    const carried = ack.entry.blocks.filter((b) => b.type === 'tool_call');
    expect(carried.length).toBeGreaterThan(0);
    expect(context.notes.some((n) => n.includes('carries'))).toBe(true);
    expect(pairsValid(context.entries)).toBe(true);
    // The carried calls are copies, not the journal's blocks.
    const original = entries.flatMap((e) => e.blocks).find((b) => b.type === 'tool_call' && b.callId === (carried[0] as { callId: string }).callId);
    expect(carried[0]).toEqual(original);
    expect(carried[0]).not.toBe(original);
  });

  it('a failing summarizer changes nothing', async () => {
    const input = makeInput(session(10));
    await expect(run(input, raw, failingSummarizer(new Error('rate limited')) as never)).rejects.toThrow('rate limited');
    const plan = augmentStrategy.plan(input, opts(raw));
    expect(() => augmentStrategy.assemble(input, plan, new Map(), opts(raw))).toThrow(AugmentSummaryMissingError);
  });
});

describe('versions and repeated compaction (A8, A9)', () => {
  const raw = { trigger_on_history_size_chars: 5000, history_tail_size_chars_to_exclude: 3000 };

  async function twice(mode: 'replace' | 'nested') {
    const entries = session(14);
    const first = await run(makeInput(entries.slice(0, 50)), { ...raw, summary_mode: mode });
    const second = await run(makeInput(entries, { previous: first.context.previous }), { ...raw, summary_mode: mode });
    return { entries, first, second };
  }

  it('the next run starts at the previous node; replace mode drops it', async () => {
    const { entries, first, second } = await twice('replace');
    const boundary = entries.findIndex((e) => e.id === first.context.previous.firstKeptEntryId);
    expect(second.plan.notes.some((n) => n.includes(`starts at the previous version 3 summary node (entries before #${boundary}`))).toBe(true);
    expect(second.plan.fates.slice(1, boundary).every((f) => f === 'drop')).toBe(true);
    expect(second.plan.summaries[0]!.from).toBeGreaterThanOrEqual(boundary);
    expect(second.plan.summaries[0]!.previousSummary).toBeUndefined();
    expect(second.summarizer.requests[0]!.prompt).not.toContain('summarized earlier');
    expect(second.context.entries.filter((e) => e.origin === 'summary')).toHaveLength(1);
    // The abridged history reaches back before the previous node (within its character limit).
    const wide = augmentStrategy.plan(makeInput(entries, { previous: first.context.previous }), opts({ ...raw, total_chars_limit: 100_000 }));
    expect(wide.summaries[0]!.vars!.abridged_history).toContain('Task 0:');
  });

  it('nested mode feeds the previous summary into the new one', async () => {
    const { second, first } = await twice('nested');
    const previous = first.context.previous.summaries[0]!;
    expect(second.plan.summaries[0]!.previousSummary).toBe(previous);
    expect(second.summarizer.requests[0]!.prompt).toContain(`<previous_summary>\n${previous}\n</previous_summary>`);
    // The nested-mode instruction is the prompt file augment-nested-section, and its version is recorded (D8).
    const section = renderTemplate(loadPrompts()['augment-nested-section']!, { previous_summary: `<previous_summary>\n${previous}\n</previous_summary>` });
    expect(second.summarizer.requests[0]!.prompt).toContain(section);
    expect(second.record.prompt_versions).toHaveProperty('augment-nested-section');
    expect(first.record.prompt_versions).not.toHaveProperty('augment-nested-section');
    expect(second.plan.fates.slice(1, 10).every((f) => f === 'summarize')).toBe(true);
  });

  it('below the threshold the previous node still stands for the history before it', async () => {
    const entries = session(14);
    const first = await run(makeInput(entries.slice(0, 50)), raw);
    const input = makeInput(entries.slice(0, 57), { previous: first.context.previous });
    const { plan, context } = await run(input, { ...raw, trigger_on_history_size_chars: 1_000_000 });
    expect(plan.nothingToDo).toBeDefined();
    expect(context.summaryApplied).toBe(false);
    const node = context.entries.find((e) => e.origin === 'summary')!;
    expect((node.entry.blocks[0] as { text: string }).text).toBe(first.context.previous.state!.nodeText);
    expect(context.previous).toBe(first.context.previous);
    expect(pairsValid(context.entries)).toBe(true);
  });

  it('a previous node of another version is filtered out; disabled removes every node', async () => {
    const entries = session(14);
    const first = await run(makeInput(entries.slice(0, 50)), raw);
    const old: PreviousCompaction = { ...first.context.previous, state: { ...first.context.previous.state, version: 2 } };
    const plan = augmentStrategy.plan(makeInput(entries, { previous: old }), opts(raw));
    expect(plan.notes.some((n) => n.includes('version 2; only version 3 nodes are used'))).toBe(true);
    expect(plan.summaries[0]!.from).toBe(1);
    const disabled = await run(makeInput(entries, { previous: first.context.previous }), { ...raw, is_history_summary_enabled: false });
    expect(disabled.plan.nothingToDo).toMatch(/disabled/);
    expect(disabled.context.entries.map((e) => e.entry)).toEqual(entries);
    expect(disabled.plan.notes.some((n) => n.includes('every summary node is removed'))).toBe(true);
  });
});

describe('pinned exchanges (A13)', () => {
  it('stay verbatim before the node and are never summarized', async () => {
    const entries = session(10);
    const pinnedId = entries[8]!.id; // inside turn 1
    const input = makeInput(entries, { pinned: new Set([pinnedId]) });
    const raw = { trigger_on_history_size_chars: 5000, history_tail_size_chars_to_exclude: 3000 };
    const { plan, context } = await run(input, raw);
    for (let i = 8; i <= 14; i++) expect(plan.fates[i]).toBe('keep');
    expect(plan.fates[1]).toBe('summarize');
    const ids = context.entries.map((e) => e.entry.id);
    const nodeAt = context.entries.findIndex((e) => e.origin === 'summary');
    expect(ids.indexOf(pinnedId)).toBeLessThan(nodeAt);
    expect(context.entries.find((e) => e.entry.id === pinnedId)!.entry).toBe(entries[8]);
    expect(plan.notes.some((n) => n.includes('1 pinned exchange stays verbatim'))).toBe(true);
    expect(pairsValid(context.entries)).toBe(true);
  });

  it('nothing to do when every head exchange is pinned', () => {
    const entries = sizedTurns([40_000, 40_000]);
    const plan = augmentStrategy.plan(makeInput(entries, { pinned: new Set(['e0']) }), opts());
    expect(plan.nothingToDo).toMatch(/every head exchange is pinned/);
  });
});

describe('memories compression (A11)', () => {
  const memories = Array.from({ length: 120 }, (_, i) => `- memory ${i}`).join('\n');

  it('adds its own task when memories pass the limit; the N most recent stay verbatim', async () => {
    const input = makeInput(sizedTurns([100]));
    const raw = { memories, memories_params: { max_lines: 100, compression_target: 50, num_recent_memories_to_keep: 10 } };
    const plan = augmentStrategy.plan(input, opts(raw));
    expect(plan.nothingToDo).toBeUndefined();
    expect(plan.summaries).toHaveLength(1);
    expect(plan.summaries[0]).toMatchObject({ id: 'augment-memories', prompt: 'augment-memories-compression', from: 0, to: -1 });
    expect(plan.summaries[0]!.vars).toMatchObject({ target_lines: '40', num_recent: '10' });
    expect(plan.notes).toContain('Memories: memories 120 lines > max 100: compress the 110 older ones to 40 lines, keep the 10 most recent verbatim (target 50).');
    const summarizer = { id: 's', label: 's', summarize: () => Promise.resolve({ text: '- merged A\n- merged B', model: 's' }) };
    const { context } = await runCompaction({ strategy: augmentStrategy as never, input, rawOptions: raw, summarizer, prompts });
    const lines = String(context.previous.state!.memories).split('\n');
    expect(lines).toEqual(['- merged A', '- merged B', ...Array.from({ length: 10 }, (_, i) => `- memory ${110 + i}`)]);
    expect(context.entries.map((e) => e.entry)).toEqual(input.entries);
  });

  it('the next run starts from the compressed memories, with the offline summarizer (no tags, no duplicates)', async () => {
    const raw = { memories, memories_params: { max_lines: 100, compression_target: 50, num_recent_memories_to_keep: 10 } };
    const first = await runCompaction({ strategy: augmentStrategy as never, input: makeInput(sizedTurns([100])), rawOptions: raw, summarizer: createOfflineSummarizer(), prompts });
    const compressed = String(first.context.previous.state!.memories);
    expect(compressed.split('\n')).toHaveLength(50);
    expect(compressed).not.toMatch(/<\/?memories>|;/);
    expect(compressed.split('\n').slice(-10)).toEqual(Array.from({ length: 10 }, (_, i) => `- memory ${110 + i}`));
    expect(plannedMemories(first.plan)).toMatchObject({ targetLines: 40, keep: Array.from({ length: 10 }, (_, i) => `- memory ${110 + i}`) });
    expect(plannedMemories(first.plan)!.compress).toHaveLength(110);

    // Next run of the conversation: the memories are the compressed ones, not the option's 120 lines.
    const next = makeInput(sizedTurns([100, 100]), { previous: first.context.previous });
    const plan = augmentStrategy.plan(next, opts(raw));
    expect(plan.summaries).toEqual([]);
    expect(plan.notes).toContain('Memories (as the previous run left them): memories 50 lines <= max 100: not compressed.');
    const second = await runCompaction({ strategy: augmentStrategy as never, input: next, rawOptions: raw, summarizer: createOfflineSummarizer(), prompts });
    expect(second.context.previous.state!.memories).toBe(compressed);
    // Without a previous run, the option's memories.
    expect(augmentStrategy.plan(makeInput(sizedTurns([100, 100])), opts(raw)).summaries).toHaveLength(1);
  });

  it('no task under the limit or without a prompt', () => {
    const input = makeInput(sizedTurns([100]));
    expect(augmentStrategy.plan(input, opts({ memories: 'a\nb' })).nothingToDo).toBeDefined();
    const noPrompt = augmentStrategy.plan(input, opts({ memories, compression_prompt: '' }));
    expect(noPrompt.summaries).toEqual([]);
    expect(noPrompt.notes.some((n) => n.includes('compressionPrompt is empty'))).toBe(true);
  });
});
