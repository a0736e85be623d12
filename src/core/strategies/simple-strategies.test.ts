import { describe, expect, it } from 'vitest';
import { OptionError } from '../compaction/options.ts';
import { runCompaction } from '../compaction/run.ts';
import { echoSummarizer, linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { Summarizer } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { CHECKPOINT_PROMPT_ID, checkpointsStrategy } from './checkpoints.ts';
import { QUERY_HISTORY_TOOL, queryOnDemandStrategy } from './query-on-demand.ts';
import { iterationGroups, slidingWindowStrategy, taskIndex, totalIterations } from './sliding-window.ts';
import { capTokens, TWO_LAYER_PROMPT_ID, TWO_LAYER_TASK_ID, twoLayerStrategy } from './two-layer.ts';
import { loadPrompts } from '../test-fixtures.ts';

const PROMPTS = loadPrompts();

/** System, the task, then `n` iterations (assistant + call + result); a user message opens every 10th. */
function session(n: number): Entry[] {
  const specs: Spec[] = [{ system: 'You are an agent.' }, { user: 'Build the thing.' }];
  for (let i = 1; i <= n; i++) {
    if (i > 1 && i % 10 === 1) specs.push({ user: `keep going ${i}` });
    specs.push({ assistant: `step ${i}`, calls: [{ id: `c${i}`, name: i % 3 ? 'read' : 'edit', input: { path: `src/f${i}.ts` } }] });
    specs.push({ tool: `result ${i}`, callId: `c${i}` });
  }
  return linkEntries(makeEntries(specs));
}

/** Id of the assistant entry of iteration `i` in `session`. */
function stepId(entries: readonly Entry[], i: number): string {
  return entries.find((e) => e.role === 'assistant' && e.blocks.some((b) => b.type === 'text' && b.text === `step ${i}`))!.id;
}

function ids(context: { entries: Array<{ entry: Entry }> }): string[] {
  return context.entries.map((e) => e.entry.id);
}

function run(strategy: Strategy, entries: Entry[], rawOptions: Record<string, unknown> = {}, extra: Parameters<typeof makeInput>[1] = {}, summarizer: Summarizer = echoSummarizer()) {
  return runCompaction({ strategy, input: makeInput(entries, extra), rawOptions, summarizer, prompts: PROMPTS, clock: () => 0 });
}

describe('iteration groups', () => {
  it('counts an assistant response with its results as one iteration, the user message going with the next', () => {
    const entries = session(12);
    const groups = iterationGroups(entries);
    expect(totalIterations(groups)).toBe(12);
    expect(groups[0]!.indices).toEqual([1, 2, 3]);
    const eleven = groups[10]!;
    expect(eleven.first).toBe(11);
    expect(eleven.indices.map((i) => entries[i]!.role)).toEqual(['user', 'assistant', 'tool']);
    expect(taskIndex(entries)).toBe(1);
  });

  it('keeps one response split over several assistant entries together, and merges groups a pair spans', () => {
    const entries = linkEntries(makeEntries([
      { user: 'go' },
      { assistant: 'thinking' },
      { assistant: '', calls: [{ id: 'a', name: 'read', input: {} }] },
      { assistant: '', calls: [{ id: 'b', name: 'read', input: {} }] },
      { tool: 'A', callId: 'a' },
      { assistant: 'early answer' },
      { tool: 'B', callId: 'b' },
      { assistant: 'done' },
    ]));
    const groups = iterationGroups(entries);
    // [go, thinking, call a, call b, A] then [early answer] -- but B answers call b, so they merge.
    expect(groups.map((g) => g.indices)).toEqual([[0, 1, 2, 3, 4, 5, 6], [7]]);
    expect(groups.map((g) => g.count)).toEqual([2, 1]);
  });
});

describe('sliding window', () => {
  it('parses the seed names and defaults', () => {
    expect(slidingWindowStrategy.parse()).toEqual({ windowSize: 50, keepTask: true });
    expect(slidingWindowStrategy.parse({ window_size: '30' }).windowSize).toBe(30);
    expect(() => slidingWindowStrategy.parse({ windowSize: 0 })).toThrow(OptionError);
  });

  it('does nothing within the window', async () => {
    const { plan, context } = await run(slidingWindowStrategy, session(50));
    expect(plan.trigger).toMatchObject({ fire: false, numbers: { iterations: 50, windowSize: 50 } });
    expect(plan.nothingToDo).toMatch(/50 iterations, within the window of 50/);
    expect(context.entries).toHaveLength(session(50).length);
  });

  it('keeps system, task and the last 50 iterations; drops the rest', async () => {
    const entries = session(60);
    const { plan, context, record } = await run(slidingWindowStrategy, entries);
    expect(plan.trigger).toMatchObject({ fire: true, detail: 'iterations 60 > windowSize 50' });
    const kept = ids(context);
    expect(kept.slice(0, 2)).toEqual(['e0', 'e1']);
    expect(kept).not.toContain(stepId(entries, 10));
    expect(kept[2]).toBe(entries.find((e) => e.role === 'user' && e.blocks.some((b) => b.type === 'text' && b.text === 'keep going 11'))!.id);
    expect(kept).toContain(stepId(entries, 11));
    expect(totalIterations(iterationGroups(context.entries.map((e) => e.entry)))).toBe(50);
    expect(plan.summaries).toEqual([]);
    expect(context.truncationApplied).toBe(true);
    expect(record.dropped_messages).toBe(plan.fates.filter((f) => f === 'drop').length);
    expect(plan.notes.join('\n')).toMatch(/Initial task e1 kept verbatim/);
  });

  it('drops the task too with keepTask off, and keeps pinned iterations whole', async () => {
    const entries = session(60);
    const pinned = stepId(entries, 3);
    const { context } = await run(slidingWindowStrategy, entries, { keepTask: false }, { pinned: new Set([pinned]) });
    const kept = ids(context);
    expect(kept).not.toContain('e1');
    const at = entries.findIndex((e) => e.id === pinned);
    expect(kept).toContain(pinned);
    expect(kept).toContain(entries[at + 1]!.id);
  });

  it('says so when the window alone exceeds the context window', async () => {
    const { plan } = await run(slidingWindowStrategy, session(60), {}, { contextWindow: 100 });
    expect(plan.notes.at(-1)).toMatch(/still about .* > context window 100.*lower windowSize/);
  });
});

describe('checkpoints', () => {
  it('parses the seed names and defaults', () => {
    expect(checkpointsStrategy.parse()).toEqual({
      windowSize: 50, checkpointInterval: 50, checkpointPrompt: 'Summarize iterations {start}-{end} in 1 sentence', checkpointMaxTokens: 200, keepTask: true,
    });
    expect(checkpointsStrategy.parse({ checkpoint_interval: 20, window_size: 30 })).toMatchObject({ checkpointInterval: 20, windowSize: 30 });
  });

  it('waits for a full block of iterations outside the window', async () => {
    const { plan } = await run(checkpointsStrategy, session(99));
    expect(plan.nothingToDo).toMatch(/No complete block of 50/);
    expect(plan.trigger.fire).toBe(false);
  });

  it('turns every 50 old iterations into one checkpoint and keeps the rest verbatim', async () => {
    const entries = session(160);
    const summarizer = echoSummarizer();
    const { plan, context } = await run(checkpointsStrategy, entries, {}, {}, summarizer);
    expect(plan.trigger).toMatchObject({ fire: true, numbers: { checkpoints: 2, newCheckpoints: 2 } });
    expect(plan.summaries.map((t) => [t.id, t.prompt, t.vars?.start, t.vars?.end])).toEqual([
      ['checkpoint-1', CHECKPOINT_PROMPT_ID, '1', '50'], ['checkpoint-2', CHECKPOINT_PROMPT_ID, '51', '100'],
    ]);
    // The task stays verbatim, so the first block's entries are not contiguous.
    expect(plan.summaries[0]!.from).toBe(2);
    expect(summarizer.requests[0]!.prompt).toContain('Summarize iterations 1-50 in 1 sentence.');
    expect(summarizer.requests[1]!.prompt).toContain('Summarize iterations 51-100 in 1 sentence.');
    const made = context.entries.filter((e) => e.origin === 'summary');
    expect(made.map((e) => e.entry.blocks[0])).toEqual([
      { type: 'text', text: '[Checkpoint: iterations 1-50]\nSUMMARY(checkpoint: 104 entries)' },
      { type: 'text', text: '[Checkpoint: iterations 51-100]\nSUMMARY(checkpoint: 105 entries)' },
    ]);
    expect(ids(context).slice(0, 4)).toEqual(['e0', 'e1', made[0]!.entry.id, made[1]!.entry.id]);
    expect(ids(context)).toContain(stepId(entries, 101));
    expect(ids(context)).not.toContain(stepId(entries, 100));
    expect(made[0]!.replaces).toMatchObject({ fromId: stepId(entries, 1) });
    expect(context.summaryApplied).toBe(true);
  });

  it('reuses the checkpoints of the previous run and summarizes only the new block', async () => {
    const first = await run(checkpointsStrategy, session(160));
    const summarizer = echoSummarizer();
    const second = await run(checkpointsStrategy, session(210), {}, { previous: first.context.previous }, summarizer);
    expect(second.plan.summaries.map((t) => t.id)).toEqual(['checkpoint-3']);
    expect(second.plan.summaries[0]!.vars).toMatchObject({ start: '101', end: '150' });
    expect(second.context.entries.filter((e) => e.origin === 'summary')).toHaveLength(3);
    expect(second.context.previous.summaries).toHaveLength(3);
    const third = await run(checkpointsStrategy, session(215), {}, { previous: second.context.previous });
    expect(third.plan.trigger.fire).toBe(false);
    expect(third.plan.summaries).toEqual([]);
    expect(third.context.entries.filter((e) => e.origin === 'summary')).toHaveLength(3);
  });

  it('reports a missing summary as an error instead of dropping history', () => {
    const input = makeInput(session(120));
    const options = checkpointsStrategy.parse();
    const plan = checkpointsStrategy.plan(input, options);
    expect(() => checkpointsStrategy.assemble(input, plan, new Map(), options)).toThrow(/needs the "checkpoint-1" summary/);
  });
});

describe('two-layer', () => {
  it('parses the seed names and defaults', () => {
    expect(twoLayerStrategy.parse()).toEqual({ recentSize: 50, summaryMaxTokens: 5000, updateInterval: 20, summaryStyle: 'concise', keepTask: true });
    expect(twoLayerStrategy.parse({ recent_size: 100, summary_max_tokens: 10000, summary_style: 'detailed' })).toMatchObject({ recentSize: 100, summaryMaxTokens: 10000, summaryStyle: 'detailed' });
    expect(() => twoLayerStrategy.parse({ summaryStyle: 'long' })).toThrow(/one of concise, detailed/);
  });

  it('summarizes in steps of updateInterval and keeps the rest verbatim', async () => {
    const entries = session(100);
    const summarizer = echoSummarizer();
    const { plan, context } = await run(twoLayerStrategy, entries, {}, {}, summarizer);
    // 50 iterations left Recent Memory: the summary covers the 40 of two full steps.
    expect(plan.trigger.numbers).toMatchObject({ summarizedBefore: 0, summarizedAfter: 40 });
    const [task] = plan.summaries;
    expect(task).toMatchObject({ id: TWO_LAYER_TASK_ID, prompt: TWO_LAYER_PROMPT_ID, maxTokens: 5000, vars: { start: '1', end: '40', style: 'concise' } });
    expect(task!.previousSummary).toBeUndefined();
    expect(summarizer.requests[0]!.prompt).toContain('<previous-summary>\n\n</previous-summary>');
    const made = context.entries.filter((e) => e.origin === 'summary');
    expect(made).toHaveLength(1);
    expect(made[0]!.entry.blocks[0]).toEqual({ type: 'text', text: '[Summary of iterations 1-40]\nSUMMARY(two-layer-summary: 83 entries)' });
    expect(ids(context)).toContain(stepId(entries, 41));
    expect(ids(context)).not.toContain(stepId(entries, 40));
    expect(context.previous.state).toMatchObject({ iterations: 40 });
  });

  it('updates the previous summary with only the iterations that newly left', async () => {
    const first = await run(twoLayerStrategy, session(100));
    const summarizer = echoSummarizer();
    const second = await run(twoLayerStrategy, session(125), {}, { previous: first.context.previous }, summarizer);
    expect(second.plan.summaries[0]).toMatchObject({ previousSummary: first.context.previous.summaries[0], vars: { start: '41', end: '60' } });
    expect(summarizer.requests[0]!.prompt).toContain(`<previous-summary>\n${first.context.previous.summaries[0]}\n</previous-summary>`);
    expect(summarizer.requests[0]!.prompt).not.toContain('step 40\n');
    // No new full step: the previous summary is reused without a call.
    const third = await run(twoLayerStrategy, session(129), {}, { previous: second.context.previous });
    expect(third.plan.trigger.fire).toBe(false);
    expect(third.plan.summaries).toEqual([]);
    expect(third.context.entries.filter((e) => e.origin === 'summary')[0]!.entry.blocks[0]).toMatchObject({ text: expect.stringContaining(second.context.previous.summaries[0]!) });
  });

  it('cuts a summary longer than summaryMaxTokens', async () => {
    const long: Summarizer = { id: 'long', label: 'long', summarize: () => Promise.resolve({ text: 'word '.repeat(2000), model: 'long' }) };
    const { context } = await run(twoLayerStrategy, session(100), { summaryMaxTokens: 100 }, {}, long);
    expect(context.notes.join('\n')).toMatch(/longer than 100 tokens/);
    const counter = getEstimator('chars4');
    expect(counter.count(context.previous.summaries[0]!)).toBeLessThanOrEqual(100);
    expect(capTokens('short', 100, counter)).toBe('short');
  });
});

describe('query on demand', () => {
  it('parses the seed names and defaults', () => {
    expect(queryOnDemandStrategy.parse()).toEqual({ recentSize: 50, enableQueryTool: true, keepTask: true });
    expect(queryOnDemandStrategy.parse({ enable_query_tool: 'false' }).enableQueryTool).toBe(false);
  });

  it('replaces older history with one index entry pointing at query_history', async () => {
    const entries = session(70);
    const summarizer = echoSummarizer();
    const { plan, context } = await run(queryOnDemandStrategy, entries, {}, {}, summarizer);
    expect(summarizer.requests).toHaveLength(0);
    expect(plan.summaries).toEqual([]);
    const index = context.entries.filter((e) => e.origin === 'synthetic');
    expect(index).toHaveLength(1);
    expect(ids(context).slice(0, 3)).toEqual(['e0', 'e1', index[0]!.entry.id]);
    const text = (index[0]!.entry.blocks[0] as { text: string }).text;
    expect(text).toMatch(/^\[Earlier history not shown: iterations 1-20 \(41 entries, e2 to e42\)/);
    expect(text).toContain(`call the ${QUERY_HISTORY_TOOL.name} tool`);
    expect(text).toMatch(/Files touched there: src\/f12\.ts, .*and \d+ more\./);
    expect(plan.notes.join('\n')).toMatch(/Retrievable with query_history: iterations 1-20, 41 entries e2..e42/);
    expect(index[0]!.replaces).toEqual({ fromId: 'e2', toId: 'e42', count: 41 });
    expect(context.truncationApplied).toBe(true);
  });

  it('does not mention the tool when it is off', async () => {
    const { context } = await run(queryOnDemandStrategy, session(70), { enableQueryTool: false });
    const text = (context.entries.find((e) => e.origin === 'synthetic')!.entry.blocks[0] as { text: string }).text;
    expect(text).not.toContain('query_history');
    expect(text).toContain('cannot be searched');
  });
});
