/**
 * The state a tool result clearing run leaves is read from its clearing scan when first read, not
 * copied at every run: read later, after the scan went on over a longer branch and more runs, it
 * must still name exactly what that run cleared (what a run from scratch on a copy writes out). The
 * compressions a continuing run takes over from the earlier one are those of a run from scratch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../../test-fixtures.ts';
import { runCompaction } from '../../compaction/run.ts';
import type { Options, Strategy } from '../../compaction/strategy.ts';
import { echoSummarizer } from '../../compaction/testing.ts';
import type { CompactionInput, PreviousCompaction } from '../../compaction/types.ts';
import type { Block, Entry } from '../../journal/entry.ts';
import { getEstimator } from '../../tokens/counters.ts';
import { countEntry } from '../../tokens/entry-tokens.ts';
import { TokenIndex } from '../../tokens/prefix-sums.ts';
import { getStrategy } from '../index.ts';
import { CLEARABLE, clearingScan, type ClearingRules } from './clearing-scan.ts';
import { toolUsesOf } from './tool-uses.ts';

const prompts = loadPrompts();
const counter = getEstimator('chars4');

/** A session of turns: each an assistant entry with `calls` tool calls, then their results of `sizes` characters. */
function session(turns: ReadonlyArray<{ sizes: number[] }>): Entry[] {
  const out: Entry[] = [];
  const push = (role: Entry['role'], blocks: Block[]): Entry => {
    const index = out.length;
    const entry: Entry = { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind: 'message', blocks, sourceType: 'test', line: index + 1 };
    out.push(entry);
    return entry;
  };
  push('user', [{ type: 'text', text: 'task' }]);
  let n = 0;
  for (const turn of turns) {
    const ids = turn.sizes.map(() => `c${n++}`);
    const call = push('assistant', ids.map((callId, i): Block => ({ type: 'tool_call', callId, name: i % 2 === 0 ? 'Read' : 'Edit', input: { path: `/f${callId}.ts`, body: 'x'.repeat(turn.sizes[i]! % 300) } })));
    ids.forEach((callId, i) => push('tool', [{ type: 'tool_result', callId, callEntryId: call.id, content: [{ type: 'text', text: 'r'.repeat(turn.sizes[i]!) }], isError: false }]));
  }
  return out;
}

const turnsArb = fc.array(fc.record({ sizes: fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 1, maxLength: 3 }) }), { minLength: 2, maxLength: 40 });

const inputOf = (entries: readonly Entry[], counts: number[], previous?: PreviousCompaction): CompactionInput => ({
  entries, tokens: new TokenIndex(counts.slice(0, entries.length)), counter, contextWindow: 50_000, now: 0, ...(previous ? { previous } : {}),
});

describe('the state a clearing scan leaves', () => {
  it('names the clearable uses before its cut however far the scan went on', () => {
    fc.assert(fc.property(turnsArb, fc.boolean(), (turns, clearToolInputs) => {
      const all = session(turns);
      const counts = all.map((e) => countEntry(e, counter).total);
      const rules: ClearingRules = { excluded: new Set(['Edit']), clearToolInputs, clearedResult: '[cleared]', clearedInput: '[input cleared]' };
      const states: Array<{ state: Record<string, unknown>; results: string[]; inputs: string[] }> = [];
      for (let length = 1; length <= all.length; length++) {
        const input = inputOf(all.slice(0, length), counts);
        const { uses, count } = toolUsesOf(input.entries);
        const scan = clearingScan(input, uses, 'Edit', rules)!;
        if (!scan) continue;
        scan.advance(input, uses, count, rules);
        // Read at once: the ids as they are now.
        states.push({ state: scan.state(count, 'r', 'i'), results: scan.clearableIds.slice(0, scan.counts[CLEARABLE]![count]), inputs: scan.inputIds.slice(0, scan.inputCount[count]) });
      }
      for (const { state, results, inputs } of states) expect(JSON.parse(JSON.stringify(state))).toEqual({ r: results, i: inputs });
    }), { numRuns: 60 });
  });

  it('read after later runs, equals the state a run from scratch writes (and the plans are the same)', async () => {
    const strategy = getStrategy('tool-result-clearing') as Strategy;
    await fc.assert(fc.asyncProperty(turnsArb, fc.integer({ min: 0, max: 3 }), async (turns, keepToolUses) => {
      const raw = { triggerTokens: 2_000, keepToolUses, clearToolInputs: keepToolUses % 2 === 1 };
      const options = strategy.parse(raw) as Options;
      const all = session(turns);
      const counts = all.map((e) => countEntry(e, counter).total);
      const live: Entry[] = [];
      let previous: PreviousCompaction | undefined;
      const states: Array<{ live: unknown; scratch: unknown }> = [];
      for (const entry of all) {
        live.push(entry);
        if (!strategy.trigger(inputOf(live, counts, previous), options).fire) continue;
        const run = (entries: Entry[]) => runCompaction({ strategy, input: inputOf(entries, counts, previous), rawOptions: raw, summarizer: echoSummarizer(), prompts });
        const outcome = await run(live);
        const scratch = await run(structuredClone([...live]));
        // Continuing its scan, a run labels the earlier runs' rewrites as a run from scratch does.
        expect(outcome.plan.compressions).toEqual(scratch.plan.compressions);
        states.push({ live: outcome.context.previous.state, scratch: structuredClone(scratch.context.previous.state) });
        previous = outcome.context.previous;
      }
      for (const s of states) expect(structuredClone(s.live)).toEqual(s.scratch);
    }), { numRuns: 60 });
  }, 60_000);
});
