import { describe, expect, it } from 'vitest';
import { OptionError } from '../compaction/options.ts';
import { linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactedContext, CompactionInput } from '../compaction/types.ts';
import type { Entry, ToolCallBlock, ToolResultBlock } from '../journal/entry.ts';
import { getStrategy, STRATEGY_IDS } from './index.ts';
import { CLEARED_INPUT, CLEARED_RESULT, toolResultClearingStrategy as strategy } from './tool-result-clearing.ts';

/** System, task, then one call per turn (tool names cycle read, bash, grep) with a 400-character result. */
function session(n: number): Entry[] {
  const names = ['read', 'bash', 'grep'];
  const specs: Spec[] = [{ system: 'You are an agent.' }, { user: 'Fix the bug.' }];
  for (let i = 1; i <= n; i++) {
    specs.push({ assistant: `step ${i}`, calls: [{ id: `c${i}`, name: names[(i - 1) % 3]!, input: { command: 'z'.repeat(200) } }] });
    specs.push({ tool: 'x'.repeat(400), callId: `c${i}` });
  }
  return linkEntries(makeEntries(specs));
}

function run(input: CompactionInput, raw: Record<string, unknown>) {
  const options = strategy.parse(raw);
  const plan = strategy.plan(input, options);
  return { options, plan, context: strategy.assemble(input, plan, new Map(), options) };
}

function result(context: CompactedContext, callId: string): string {
  for (const { entry } of context.entries) {
    const block = entry.blocks.find((b): b is ToolResultBlock => b.type === 'tool_result' && b.callId === callId);
    if (block) return block.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  }
  throw new Error(`no result for ${callId}`);
}

function call(context: CompactedContext, callId: string): ToolCallBlock {
  for (const { entry } of context.entries) {
    const block = entry.blocks.find((b): b is ToolCallBlock => b.type === 'tool_call' && b.callId === callId);
    if (block) return block;
  }
  throw new Error(`no call ${callId}`);
}

const cleared = (context: CompactedContext, n: number) => Array.from({ length: n }, (_, k) => `c${k + 1}`).filter((id) => result(context, id) === CLEARED_RESULT);

describe('tool-result-clearing', () => {
  it('has Anthropic\'s defaults and aliases', () => {
    expect(STRATEGY_IDS).toContain('tool-result-clearing');
    expect(getStrategy('tool-result-clearing')).toBe(strategy);
    expect(strategy.parse({})).toEqual({ triggerTokens: 100_000, keepToolUses: 3, clearAtLeastTokens: 0, excludeTools: '', clearToolInputs: false });
    expect(strategy.parse({ trigger: '5000', keep: '2', clear_at_least: '10', exclude_tools: 'memory', clear_tool_inputs: 'true' }))
      .toEqual({ triggerTokens: 5000, keepToolUses: 2, clearAtLeastTokens: 10, excludeTools: 'memory', clearToolInputs: true });
    expect(() => strategy.parse({ triggerTokens: 0 })).toThrow(OptionError);
  });

  it('does not clear under the trigger', () => {
    const input = makeInput(session(6));
    const decision = strategy.trigger(input, strategy.parse({}));
    expect(decision.fire).toBe(false);
    expect(decision.detail).toBe(`contextTokens ${input.tokens.total.toLocaleString('en-US')} <= triggerTokens 100,000`);
    expect(run(input, {}).plan.nothingToDo).toMatch(/^Under the trigger/);
  });

  it('over the trigger, clears the oldest results but the last keepToolUses, keeping every call', () => {
    const entries = session(6);
    const input = makeInput(entries);
    const { plan, context } = run(input, { triggerTokens: 100 });
    expect(cleared(context, 6)).toEqual(['c1', 'c2', 'c3']);
    expect(result(context, 'c4')).toBe('x'.repeat(400));
    for (let i = 1; i <= 6; i++) expect(call(context, `c${i}`).input).toEqual({ command: 'z'.repeat(200) });
    expect(context.entries.map((e) => e.entry.id)).toEqual(entries.map((e) => e.id));
    // 400 chars = 100 tokens each, the placeholder 10 (chars/4).
    expect(plan.trigger).toMatchObject({ fire: true, rule: 'input-tokens', numbers: { toolUses: 6, keepToolUses: 3, toClear: 3, freedTokens: 270, alreadyCleared: 0 } });
    expect(plan.compressions.map((c) => c.text)).toEqual([CLEARED_RESULT, CLEARED_RESULT, CLEARED_RESULT]);
    expect(context.tokensAfter).toBe(plan.tokensAfterEstimate);
    expect(plan.tokensBefore - context.tokensAfter).toBe(270);
    expect(context.previous).toEqual({ strategy: 'tool-result-clearing', summaries: [], state: { clearedCallIds: ['c1', 'c2', 'c3'], clearedInputCallIds: [] } });
  });

  it('never clears excluded tools (they still count among the recent tool uses)', () => {
    const { plan, context } = run(makeInput(session(6)), { triggerTokens: 100, excludeTools: ' read , grep' });
    expect(cleared(context, 6)).toEqual(['c2']);
    expect(plan.trigger.numbers.excluded).toBe(2);
    expect(plan.notes.join('\n')).toMatch(/2 older results of excluded tools/);
  });

  it('clears nothing when it cannot free clearAtLeastTokens', () => {
    const input = makeInput(session(6));
    const decision = strategy.trigger(input, strategy.parse({ triggerTokens: 100, clearAtLeastTokens: 271 }));
    expect(decision.fire).toBe(false);
    expect(decision.detail).toMatch(/frees 270 tokens < clearAtLeastTokens 271/);
    const { plan, context } = run(input, { triggerTokens: 100, clearAtLeastTokens: 271 });
    expect(plan.nothingToDo).toMatch(/clear_at_least/);
    expect(cleared(context, 6)).toEqual([]);
    expect(run(input, { triggerTokens: 100, clearAtLeastTokens: 270 }).plan.trigger.fire).toBe(true);
  });

  it('with clearToolInputs, also replaces the cleared calls\' input', () => {
    const { plan, context } = run(makeInput(session(5)), { triggerTokens: 100, keepToolUses: 3, clearToolInputs: true });
    expect(call(context, 'c1').input).toBe(CLEARED_INPUT);
    expect(call(context, 'c2').input).toBe(CLEARED_INPUT);
    expect(call(context, 'c3').input).toEqual({ command: 'z'.repeat(200) });
    expect(plan.fates.filter((f) => f === 'compress')).toHaveLength(4);
    expect(context.previous.state).toEqual({ clearedCallIds: ['c1', 'c2'], clearedInputCallIds: ['c1', 'c2'] });
  });

  it('clears one result of an entry holding several and leaves the other', () => {
    const entries = linkEntries(makeEntries([
      { user: 'go' },
      { assistant: '', calls: [{ id: 'a', name: 'read', input: {} }, { id: 'b', name: 'read', input: {} }] },
      { tool: 'A'.repeat(400), callId: 'a' },
      { assistant: '', calls: [{ id: 'c', name: 'read', input: {} }] },
      { tool: 'C'.repeat(400), callId: 'c' },
    ]));
    // One user entry holding both results, as the Anthropic Messages format records them.
    const b: ToolResultBlock = { type: 'tool_result', callId: 'b', content: [{ type: 'text', text: 'B'.repeat(400) }], isError: false, callEntryId: 'e1' };
    entries[2]!.blocks.push(b);
    const { plan, context } = run(makeInput(entries), { triggerTokens: 10, keepToolUses: 2 });
    expect(result(context, 'a')).toBe(CLEARED_RESULT);
    expect(result(context, 'b')).toBe('B'.repeat(400));
    expect(plan.compressions).toEqual([{ index: 2, text: CLEARED_RESULT, tokensBefore: 200, tokensAfter: 110, rule: 'tool result clearing: older than the last 2 tool uses' }]);
    expect(context.tokensAfter).toBe(plan.tokensAfterEstimate);
  });

  it('keeps earlier clearings and measures the context with them applied', () => {
    const all = session(9);
    const prefix = all.slice(0, 2 + 2 * 6);
    const first = run(makeInput(prefix), { triggerTokens: 700 });
    expect(cleared(first.context, 6)).toEqual(['c1', 'c2', 'c3']);

    // Three more turns: the raw branch is over the trigger, the cleared context is not.
    const input = makeInput(all, { previous: first.context.previous });
    const appended = input.tokens.range(prefix.length, all.length - 1);
    const current = first.context.tokensAfter + appended;
    expect(input.tokens.total).toBeGreaterThan(1000);
    const decision = strategy.trigger(input, strategy.parse({ triggerTokens: current }));
    expect(decision.fire).toBe(false);
    expect(decision.numbers).toMatchObject({ contextTokens: current, alreadyCleared: 3 });

    // Over it, only the newly old results are cleared; the earlier ones stay cleared.
    const second = run(input, { triggerTokens: current - 1 });
    expect(second.plan.trigger.numbers).toMatchObject({ contextTokens: current, toClear: 3, alreadyCleared: 3, freedTokens: 270 });
    expect(cleared(second.context, 9)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(second.plan.tokensBefore).toBe(current);
    expect(second.context.tokensAfter).toBe(current - 270);
    expect(second.context.previous.state).toEqual({ clearedCallIds: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'], clearedInputCallIds: [] });
    // A cleared result stays cleared even if a larger keepToolUses would now keep it.
    const wide = run(input, { triggerTokens: current - 1, keepToolUses: 8 });
    expect(wide.plan.nothingToDo).toMatch(/Nothing to clear/);
    // Same branch with its own result: nothing new, no re-firing.
    expect(strategy.trigger(makeInput(all, { previous: second.context.previous }), second.options).fire).toBe(false);
  });

  it('never clears a pinned tool use', () => {
    const { context } = run(makeInput(session(6), { pinned: new Set(['e3']) }), { triggerTokens: 100 });
    expect(cleared(context, 6)).toEqual(['c2', 'c3']);
  });
});
