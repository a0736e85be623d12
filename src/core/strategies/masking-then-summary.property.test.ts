/**
 * Masking, then summary, compacting at nearly every call of one growing branch as a replay does:
 * a masking-only plan tells the context builder how much of it is the last plan's, so the builder
 * continues the last context from there. Every context of such a run must equal the one assembled
 * for a fresh copy of the branch at that point (where nothing is continued). The fresh copies are
 * compacted after the whole run, so they cannot break the chain of plans on the growing branch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { runCompaction } from '../compaction/run.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import type { PreviousCompaction } from '../compaction/types.ts';
import type { Block, Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { getStrategy } from './index.ts';
import { fresh, growBranch } from './test-fixtures.ts';

const prompts = loadPrompts();
const counter = getEstimator('chars4');

/** A turn: a user message (sometimes), an assistant message with `calls` tool calls, their results. */
interface Turn {
  user: number;
  text: number;
  calls: number;
  size: number;
  pin: boolean;
}

const turnArb: fc.Arbitrary<Turn> = fc.record({
  user: fc.nat(400), text: fc.nat(300), calls: fc.nat(2), size: fc.integer({ min: 5, max: 2_000 }), pin: fc.boolean(),
});

function build(turns: readonly Turn[]): Entry[] {
  const out: Entry[] = [];
  const push = (role: Entry['role'], blocks: Block[], pinned = false): Entry => {
    const index = out.length;
    const entry: Entry = {
      id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind: 'message', blocks, sourceType: 'test', line: index + 1,
      timestamp: 1_700_000_000_000 + index * 7_000, ...(pinned ? { flags: { pinned: true } } : {}),
    };
    out.push(entry);
    return entry;
  };
  push('system', [{ type: 'text', text: 'system prompt' }]);
  turns.forEach((turn, t) => {
    if (turn.user > 0 || t === 0) push('user', [{ type: 'text', text: 'u '.repeat(turn.user + 1) }]);
    const calls: Block[] = Array.from({ length: turn.calls }, (_, k) => ({ type: 'tool_call', callId: `c${t}-${k}`, name: 'Read', input: { file_path: `/f${k}.ts` } }));
    const assistant = push('assistant', [{ type: 'text', text: 'a '.repeat(turn.text + 1) }, ...calls], turn.pin && t % 7 === 3);
    for (const call of calls) {
      if (call.type !== 'tool_call') continue;
      const result = push('tool', [{ type: 'tool_result', callId: call.callId, callEntryId: assistant.id, content: [{ type: 'text', text: 'r '.repeat(turn.size) }], isError: false }]);
      call.resultEntryId = result.id;
    }
  });
  return out;
}

const CONFIGS: Array<Record<string, unknown>> = [
  { keepTurns: 2, summaryEveryTurns: 5 },
  { keepTurns: 1, summaryEveryTurns: 0, summaryTriggerRatio: 0.3 },
  { keepTurns: 3, summaryEveryTurns: 0 },
];

const contextOf = (outcome: Awaited<ReturnType<typeof runCompaction>>) => ({
  entries: outcome.context.entries.map((item) => [item.origin, item.entry.id, item.entry.blocks]),
  tokensAfter: outcome.context.tokensAfter,
  previous: outcome.context.previous,
});

describe('masking, then summary, on a growing branch', () => {
  it('assembles at every call what a fresh copy of the branch assembles', async () => {
    const strategy = getStrategy('masking-then-summary') as Strategy;
    await fc.assert(fc.asyncProperty(fc.array(turnArb, { minLength: 3, maxLength: 40 }), fc.nat(CONFIGS.length - 1), async (turns, which) => {
      const raw = CONFIGS[which]!;
      const options = strategy.parse(raw) as Options;
      const all = build(turns);
      const runs: Array<{ length: number; previous: PreviousCompaction | undefined; context: ReturnType<typeof contextOf> }> = [];
      let input: Parameters<Parameters<typeof growBranch>[3]>[0]['input'] | undefined;
      await growBranch(all, counter, 12_000, async (branch) => {
        input = branch.input;
        if (!strategy.trigger(branch.input(), options).fire) return;
        const outcome = await runCompaction({ strategy, input: branch.input(), rawOptions: raw, summarizer: echoSummarizer(), prompts });
        runs.push({ length: branch.live.length, previous: branch.previous, context: contextOf(outcome) });
        branch.previous = outcome.context.previous;
      });
      for (const run of runs) {
        const copy = fresh(all.slice(0, run.length));
        const { previous: _last, ...base } = input!(copy);
        const outcome = await runCompaction({
          strategy, input: { ...base, ...(run.previous ? { previous: run.previous } : {}) }, rawOptions: raw, summarizer: echoSummarizer(), prompts,
        });
        expect(contextOf(outcome)).toEqual(run.context);
      }
    }), { numRuns: 60, seed: 20_261_126 });
  }, 120_000);
});
