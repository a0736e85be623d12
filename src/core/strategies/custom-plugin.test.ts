import { describe, expect, it } from 'vitest';
import { runCompaction } from '../compaction/run.ts';
import { echoSummarizer, linkEntries, makeEntries, makeInput } from '../compaction/testing.ts';
import type { Strategy } from '../compaction/strategy.ts';
import {
  customStrategy, pluginEntries, pluginErrorLine, PluginPlanError, validatePluginPlan,
} from './custom-plugin.ts';
import { loadPrompts } from '../test-fixtures.ts';

const PROMPTS = loadPrompts();

/** e0 system, e1 user, e2 call c1, e3 result c1, e4 text, e5 user, e6 answer. */
function input(pinned?: string) {
  const entries = linkEntries(makeEntries([
    { system: 'sys' }, { user: 'task' }, { assistant: '', calls: [{ id: 'c1', name: 'read', input: { path: 'a.ts' } }] },
    { tool: 'contents', callId: 'c1' }, { assistant: 'read it' }, { user: 'next' }, { assistant: 'done' },
  ]));
  return makeInput(entries, pinned ? { pinned: new Set([pinned]) } : {});
}

function violations(raw: unknown, pinned?: string): string[] {
  try {
    validatePluginPlan(raw, pluginEntries(input(pinned)));
  } catch (error) {
    expect(error).toBeInstanceOf(PluginPlanError);
    return (error as PluginPlanError).violations;
  }
  return [];
}

describe('plugin entries', () => {
  it('are plain data with the tool pairing as indices', () => {
    const entries = pluginEntries(input());
    expect(entries[2]).toMatchObject({ index: 2, id: 'e2', role: 'assistant', calls: [{ callId: 'c1', name: 'read', resultIndex: 3 }], result: null });
    expect(entries[3]).toMatchObject({ role: 'tool', text: 'contents', result: { callId: 'c1', callIndex: 2, isError: false } });
    expect(structuredClone(entries)).toEqual(entries);
  });
});

describe('plugin plan validation', () => {
  it('accepts a valid plan and sorts it', () => {
    expect(validatePluginPlan({ keep: [6, 0, 5, 1], summarize: [[2, 4]] }, pluginEntries(input()))).toEqual({ keep: [0, 1, 5, 6], summarize: [[2, 4]] });
    expect(violations({ keep: [0, 2, 3] })).toEqual([]);
  });

  it('names every violation', () => {
    expect(violations(null)).toEqual(['expected an object { keep: [...], summarize?: [[from, to], ...] }, got null']);
    expect(violations({ keep: 'all' })).toEqual(['"keep" must be an array of entry indices, got "all"']);
    expect(violations({ keep: [0, 1.5, 9, -1, '2'] })).toEqual([
      'keep[1]: 1.5 is not a whole number', 'keep[2]: index 9 is outside 0..6', 'keep[3]: index -1 is outside 0..6', 'keep[4]: "2" is not a whole number',
    ]);
    expect(violations({ keep: [0, 0, 4], summarize: [[4, 5], [3, 1], [1]] })).toEqual([
      'index 0 is listed twice (keep and keep)', 'index 4 is listed twice (keep and summarize[0])',
      'summarize[1]: from 3 is after to 1', 'summarize[2]: expected [from, to], got [1]',
    ]);
  });

  it('refuses a dropped system entry, a split call/result and a dropped pinned entry', () => {
    expect(violations({ keep: [1, 2, 6] }, 'e5')).toEqual([
      'system entry 0 (e0) must be kept',
      'tool call c1 (entry 2) and its result (entry 3) are split: keep both or neither',
      'pinned entry 5 (e5) must be kept',
    ]);
    // Summarizing a call while keeping its result splits them too.
    expect(violations({ keep: [0, 3], summarize: [[1, 2]] })).toEqual(['tool call c1 (entry 2) and its result (entry 3) are split: keep both or neither']);
  });

  it('finds the line of the user code in a stack', () => {
    expect(pluginErrorLine('Error: boom\n    at plan (blob:http://localhost:5173/0b1c-22:7:13)')).toBe(7);
    expect(pluginErrorLine('Error: boom\n    at foo (app.js:1:1)')).toBeUndefined();
  });
});

describe('custom strategy', () => {
  const strategy = customStrategy as unknown as Strategy;

  it('waits for the plugin', () => {
    const plan = strategy.plan(input(), strategy.parse());
    expect(plan.nothingToDo).toMatch(/Run the plugin first/);
  });

  it('applies the plugin plan: keeps, summarizes, drops', async () => {
    const summarizer = echoSummarizer();
    const plan = JSON.stringify({ keep: [0, 1, 6], summarize: [[2, 4]] });
    const { plan: p, context } = await runCompaction({ strategy, input: input(), rawOptions: { plan }, summarizer, prompts: PROMPTS, clock: () => 0 });
    expect(p.fates).toEqual(['keep', 'keep', 'summarize', 'summarize', 'summarize', 'drop', 'keep']);
    expect(summarizer.requests[0]!.prompt).toContain('holds entries 2-4 of that session');
    expect(context.entries.map((e) => e.origin === 'journal' ? e.entry.id : e.origin)).toEqual(['e0', 'e1', 'summary', 'e6']);
    expect(context.entries[2]!.replaces).toEqual({ fromId: 'e2', toId: 'e4', count: 3 });
    expect(context.truncationApplied).toBe(true);
  });

  it('re-validates the plan it is given', () => {
    expect(() => strategy.plan(input(), strategy.parse({ plan: '{"keep":[1]}' }))).toThrow(/system entry 0 \(e0\) must be kept/);
    expect(() => strategy.plan(input(), strategy.parse({ plan: '{keep' }))).toThrow(/not valid JSON/);
  });
});
