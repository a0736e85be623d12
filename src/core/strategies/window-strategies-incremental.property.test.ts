/**
 * The strategies a replay compacts with at nearly every call (sliding window, checkpoints,
 * two-layer, query on demand, the masking strategies, budget) keep what their triggers and plans
 * read per branch and extend it as the branch grows: iteration groups, masked groups, tool uses,
 * the earlier run's clearings. On random growing sessions with compactions in between, a growing
 * branch must get the decisions, plans and contexts of a fresh copy of it read from scratch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { runCompaction } from '../compaction/run.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import type { Block, Entry, Role } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { getStrategy } from './index.ts';
import { fresh, growBranch } from './test-fixtures.ts';

const prompts = loadPrompts();
const counter = getEstimator('chars4');

type Step =
  | { kind: 'user'; size: number }
  | { kind: 'assistant'; size: number; calls: number }
  | { kind: 'results'; late: boolean; size: number }
  | { kind: 'system' }
  | { kind: 'pin' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: 2_000 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('assistant' as const), size: fc.nat(1_500), calls: fc.nat(3) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('results' as const), late: fc.boolean(), size: fc.integer({ min: 10, max: 4_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pin' as const) }) },
);

/** Entries from steps: results answer the open calls (a late one the oldest, across later turns), linked both ways. */
function build(steps: readonly Step[]): Entry[] {
  const out: Entry[] = [];
  const open: Array<{ callId: string; entry: Entry }> = [];
  let n = 0;
  const push = (role: Role, blocks: Block[]): Entry => {
    const index = out.length;
    const entry: Entry = { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind: 'message', blocks, sourceType: 'test', line: index + 1, timestamp: 1_700_000_000_000 + index * 7_000 };
    out.push(entry);
    return entry;
  };
  for (const step of steps) {
    if (step.kind === 'user') push('user', [{ type: 'text', text: 'u '.repeat(step.size) }]);
    else if (step.kind === 'assistant') {
      const calls = Array.from({ length: step.calls }, (): Block => {
        const i = n++;
        return { type: 'tool_call', callId: `c${i}`, name: i % 3 === 0 ? 'Edit' : 'Read', input: { file_path: `/src/f${i % 5}.ts` } };
      });
      const entry = push('assistant', [...(step.size > 0 ? [{ type: 'text' as const, text: 'a '.repeat(step.size) }] : []), ...calls]);
      for (const block of calls) if (block.type === 'tool_call') open.push({ callId: block.callId, entry });
    } else if (step.kind === 'results') {
      const call = step.late ? open.shift() : open.pop();
      if (!call) continue;
      const result = push('tool', [{ type: 'tool_result', callId: call.callId, callEntryId: call.entry.id, content: [{ type: 'text', text: 'r '.repeat(step.size) }], isError: false }]);
      for (const block of call.entry.blocks) if (block.type === 'tool_call' && block.callId === call.callId) block.resultEntryId = result.id;
    } else if (step.kind === 'system') push('system', [{ type: 'text', text: 'system note' }]);
    else if (out.length > 0) out[out.length - 1] = { ...out[out.length - 1]!, flags: { pinned: true } };
  }
  return out;
}

const WINDOW = 12_000;

const CONFIGS: Array<{ id: string; raw: Record<string, unknown> }> = [
  { id: 'sliding-window', raw: { windowSize: 3 } },
  { id: 'checkpoints', raw: { windowSize: 3, checkpointInterval: 2 } },
  { id: 'two-layer', raw: { recentSize: 3, updateInterval: 2 } },
  { id: 'query-on-demand', raw: { recentSize: 3 } },
  { id: 'observation-masking', raw: { keepTurns: 2 } },
  { id: 'tool-result-clearing', raw: { triggerTokens: 3_000, keepToolUses: 1 } },
  { id: 'tool-result-clearing', raw: { triggerTokens: 3_000, keepToolUses: 2, clearToolInputs: true, excludeTools: 'Edit' } },
  { id: 'masking-then-summary', raw: { keepTurns: 2, summaryEveryTurns: 4 } },
  { id: 'masking-then-summary', raw: { keepTurns: 1, summaryEveryTurns: 0, summaryTriggerRatio: 0.2 } },
  { id: 'budget', raw: { reservedOutputTokens: 6_000, keepRecentEntries: 2 } },
];

/** What a compaction hands on: the context's entries by id and origin, its size and the state for the next run. */
const contextOf = (outcome: Awaited<ReturnType<typeof runCompaction>>) => ({
  entries: outcome.context.entries.map((item) => [item.origin, item.entry.id, item.entry.blocks]),
  tokensAfter: outcome.context.tokensAfter,
  previous: outcome.context.previous,
});

describe('incremental triggers and plans of the window and masking strategies', () => {
  it('a growing branch gets the decisions, plans and contexts of a fresh copy, across compactions', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 80 }), fc.nat(CONFIGS.length - 1), async (steps, which) => {
      const { id, raw } = CONFIGS[which]!;
      const strategy = getStrategy(id as Parameters<typeof getStrategy>[0]) as Strategy;
      const options = strategy.parse(raw) as Options;
      await growBranch(build(steps), counter, WINDOW, async (branch) => {
        const decision = strategy.trigger(branch.input(), options);
        expect(decision).toEqual(strategy.trigger(branch.input(fresh(branch.live)), options));
        if (!decision.fire) return;
        // The replay hands the compaction its growing branch itself; a copy must plan the same.
        const copy = branch.live.length % 2 === 0 ? branch.live : branch.live.slice();
        const plan = strategy.plan(branch.input(copy), options);
        expect(plan).toEqual(strategy.plan(branch.input(fresh(copy)), options));
        const run = (entries: Entry[]) => runCompaction({ strategy, input: branch.input(entries), rawOptions: raw, summarizer: echoSummarizer(), prompts });
        const outcome = await run(copy);
        expect(contextOf(outcome)).toEqual(contextOf(await run(fresh(copy))));
        branch.previous = outcome.context.previous;
      });
    }), { numRuns: 120 });
  }, 120_000);
});
