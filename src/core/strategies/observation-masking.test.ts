import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactedContext, CompactionInput } from '../compaction/types.ts';
import type { Entry, ToolResultBlock } from '../journal/entry.ts';
import { getStrategy, STRATEGY_IDS } from './index.ts';
import { maskPlaceholder, observationMaskingStrategy as strategy } from './observation-masking.ts';

/** System, the task, then `n` turns: an assistant call and a 400-character result (100 tokens in chars/4). */
function session(n: number, result: (i: number) => string = () => 'x'.repeat(400)): Entry[] {
  const specs: Spec[] = [{ system: 'You are an agent.' }, { user: 'Fix the bug.' }];
  for (let i = 1; i <= n; i++) {
    specs.push({ assistant: `step ${i}`, calls: [{ id: `c${i}`, name: 'read', input: { path: `f${i}.ts` } }] });
    specs.push({ tool: result(i), callId: `c${i}` });
  }
  return linkEntries(makeEntries(specs));
}

function run(input: CompactionInput, raw: Record<string, unknown> = {}) {
  const options = strategy.parse(raw);
  const plan = strategy.plan(input, options);
  return { options, plan, context: strategy.assemble(input, plan, new Map(), options) };
}

function resultText(context: CompactedContext, callId: string): string {
  for (const { entry } of context.entries) {
    const block = entry.blocks.find((b): b is ToolResultBlock => b.type === 'tool_result' && b.callId === callId);
    if (block) return block.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  }
  throw new Error(`no result for ${callId}`);
}

describe('observation-masking', () => {
  it('is registered with its source and the paper default M = 10', () => {
    expect(STRATEGY_IDS).toContain('observation-masking');
    expect(getStrategy('observation-masking')).toBe(strategy);
    expect(strategy.seed).toMatch(/2508\.21433/);
    expect(strategy.parse({}).keepTurns).toBe(10);
  });

  it('masks every tool output older than the last M turns with a placeholder, keeping calls and all entries', () => {
    const entries = session(5);
    const input = makeInput(entries);
    const { plan, context } = run(input, { keepTurns: 2 });
    expect(plan.trigger).toMatchObject({ fire: true, rule: 'masking-window', numbers: { iterations: 5, keepTurns: 2, toMask: 3, toMaskTokens: 3 * (100 - 10) } });
    expect(maskPlaceholder(100)).toBe('[Old tool output omitted: 100 tokens]');
    for (const id of ['c1', 'c2', 'c3']) expect(resultText(context, id)).toBe('[Old tool output omitted: 100 tokens]');
    for (const id of ['c4', 'c5']) expect(resultText(context, id)).toBe('x'.repeat(400));
    // Same entries, same ids, in order; only the three old results are rewritten.
    expect(context.entries.map((e) => e.entry.id)).toEqual(entries.map((e) => e.id));
    expect(context.entries.filter((e) => e.origin === 'compressed').map((e) => e.entry.id)).toEqual(['e3', 'e5', 'e7']);
    // The calls are the journal entries themselves.
    expect(context.entries[2]).toEqual({ role: 'assistant', entry: entries[2], origin: 'journal' });
    expect(plan.fates.filter((f) => f === 'compress')).toHaveLength(3);
    expect(plan.fates.filter((f) => f === 'summarize' || f === 'drop')).toHaveLength(0);
    expect(plan.summaries).toEqual([]);
    expect(plan.compressions.map((c) => [c.index, c.text, c.tokensBefore, c.tokensAfter])).toEqual([
      [3, '[Old tool output omitted: 100 tokens]', 100, 10], [5, '[Old tool output omitted: 100 tokens]', 100, 10], [7, '[Old tool output omitted: 100 tokens]', 100, 10],
    ]);
    expect(plan.cut?.index).toBe(8);
    expect(plan.tokensAfterEstimate).toBe(context.tokensAfter);
    expect(plan.tokensBefore - context.tokensAfter).toBe(3 * 90);
    expect(context.summaryApplied).toBe(false);
    expect(context.truncationApplied).toBe(false);
    expect(context.previous).toEqual({ strategy: 'observation-masking', summaries: [], state: { windowFromId: 'e8' } });
    expect(plan.notes.join('\n')).toMatch(/Masked 3 tool-output entries older than the last 2 turns, 270 tokens saved/);
    // The journal is untouched.
    expect((entries[3]!.blocks[0] as ToolResultBlock).content[0]).toEqual({ type: 'text', text: 'x'.repeat(400) });
  });

  it('does not fire while every tool output is in the last M turns', () => {
    const input = makeInput(session(4));
    const decision = strategy.trigger(input, strategy.parse({}));
    expect(decision.fire).toBe(false);
    expect(decision.detail).toBe('turns 4 <= keepTurns 10: every tool output is in the last 10 turns');
    const { plan, context } = run(input);
    expect(plan.nothingToDo).toMatch(/Nothing new to mask/);
    expect(context.entries.every((e) => e.origin === 'journal')).toBe(true);
  });

  it('leaves outputs no longer than their placeholder, and pinned turns, verbatim', () => {
    const entries = session(5, (i) => (i === 1 ? 'ok' : 'y'.repeat(400)));
    const { plan, context } = run(makeInput(entries, { pinned: new Set(['e4']) }), { keepTurns: 2 });
    expect(resultText(context, 'c1')).toBe('ok');
    expect(resultText(context, 'c2')).toBe('y'.repeat(400));
    expect(resultText(context, 'c3')).toBe('[Old tool output omitted: 100 tokens]');
    expect(plan.notes.join('\n')).toMatch(/1 older tool outputs are in pinned turns/);
    expect(plan.notes.join('\n')).toMatch(/1 older tool outputs are no longer than their placeholder/);
  });

  it('never masks a system prompt, even a long one in the middle', () => {
    const entries = session(4);
    entries.splice(3, 0, { ...entries[0]!, id: 'sys2', blocks: [{ type: 'text', text: 's'.repeat(2000) }] });
    const { context } = run(makeInput(entries), { keepTurns: 1 });
    expect(context.entries.find((e) => e.entry.id === 'sys2')?.origin).toBe('journal');
    expect(context.entries.find((e) => e.entry.id === 'e0')?.origin).toBe('journal');
  });

  it('continues from an earlier run: the trigger measures the masked context and fires only for new old outputs', () => {
    const all = session(8);
    const prefix = all.slice(0, 2 + 2 * 5);
    const first = run(makeInput(prefix), { keepTurns: 2 });
    expect(first.plan.trigger.numbers.toMask).toBe(3);

    // Same branch again with its own result: nothing new, no re-firing.
    const again = strategy.trigger(makeInput(prefix, { previous: first.context.previous }), first.options);
    expect(again.fire).toBe(false);
    expect(again.numbers).toMatchObject({ toMask: 0, alreadyMasked: 3, contextTokens: first.context.tokensAfter });

    // Three more turns: the replay's context is the masked one plus the new entries verbatim.
    const input = makeInput(all, { previous: first.context.previous });
    const appended = input.tokens.range(prefix.length, all.length - 1);
    const second = run(input, { keepTurns: 2 });
    expect(second.plan.trigger.numbers).toMatchObject({ iterations: 8, toMask: 3, alreadyMasked: 3, contextTokens: first.context.tokensAfter + appended });
    expect(second.plan.tokensBefore).toBe(first.context.tokensAfter + appended);
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) expect(resultText(second.context, id)).toBe('[Old tool output omitted: 100 tokens]');
    expect(second.plan.compressions.filter((c) => /earlier run/.test(c.rule))).toHaveLength(3);
    expect(second.context.tokensAfter).toBe(second.plan.tokensAfterEstimate);
    expect(second.plan.tokensBefore - second.context.tokensAfter).toBe(3 * 90);
  });
});
