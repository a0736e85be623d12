/**
 * The threshold strategies (augment, pi, layered) read what their triggers need from facts kept per
 * branch array and extended as the array grows (a replay asks before every call). These properties
 * check, on random growing sessions with compactions in between, that a growing branch gets the
 * same trigger decisions and the same plans as a fresh copy of it read from scratch, and that
 * augment's indexed history view equals the view segmented from the whole branch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { runCompaction } from '../compaction/run.ts';
import type { Options, Strategy } from '../compaction/strategy.ts';
import { echoSummarizer } from '../compaction/testing.ts';
import type { Block, Entry, Role } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { augmentStrategy } from './augment.ts';
import { historyView, historyViewFromScratch } from './augment/history.ts';
import { parseAugmentOptions } from './augment/params.ts';
import { layeredStrategy } from './layered.ts';
import { piStrategy } from './pi.ts';
import { fresh, growBranch } from './test-fixtures.ts';

const prompts = loadPrompts();
const counter = getEstimator('chars4');

/** One step of a generated session: the shapes that move turn and exchange boundaries. */
type Step =
  | { kind: 'user'; size: number; injected: boolean }
  | { kind: 'assistant'; size: number; calls: number; usage: number | null }
  | { kind: 'results'; late: boolean }
  | { kind: 'system' }
  | { kind: 'pin' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: 3_000 }), injected: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('assistant' as const), size: fc.nat(3_000), calls: fc.nat(3), usage: fc.option(fc.integer({ min: 100, max: 300_000 }), { nil: null }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('results' as const), late: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pin' as const) }) },
);

/** Entries from steps: results answer the open calls (a late one answers the oldest, from before later user messages). */
function build(steps: readonly Step[]): Entry[] {
  const out: Entry[] = [];
  const open: string[] = [];
  let n = 0;
  const push = (role: Role, blocks: Block[], extra: Partial<Entry> = {}) => {
    const index = out.length;
    out.push({ id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind: 'message', blocks, sourceType: 'test', line: index + 1, timestamp: 1_700_000_000_000 + index * 7_000, ...extra });
  };
  for (const step of steps) {
    if (step.kind === 'user') push('user', [{ type: 'text', text: 'u'.repeat(step.size) }], step.injected ? { flags: { injected: true } } : {});
    else if (step.kind === 'assistant') {
      const calls: Block[] = Array.from({ length: step.calls }, () => {
        const callId = `c${n++ % 40}`; // ids come back now and then, as real transcripts reuse them
        open.push(callId);
        return { type: 'tool_call', callId, name: n % 2 ? 'Read' : 'Bash', input: n % 2 ? { file_path: `/src/f${n}.ts` } : { command: `ls ${n}` } };
      });
      push('assistant', [...(step.size > 0 ? [{ type: 'text' as const, text: 'a'.repeat(step.size) }] : []), ...calls], step.usage !== null ? { usage: { input: step.usage, output: 50 } } : {});
    } else if (step.kind === 'results') {
      const callId = step.late ? open.shift() : open.pop();
      if (callId !== undefined) push('tool', [{ type: 'tool_result', callId, content: [{ type: 'text', text: 'r'.repeat(200 + (out.length % 7) * 300) }], isError: false }]);
    } else if (step.kind === 'system') push('system', [{ type: 'text', text: 'system note' }]);
    else if (out.length > 0) out[out.length - 1] = { ...out[out.length - 1]!, flags: { ...out[out.length - 1]!.flags, pinned: true } };
  }
  return out;
}

const STRATEGIES: Array<{ strategy: Strategy; raw: Record<string, unknown> }> = [
  { strategy: augmentStrategy as unknown as Strategy, raw: { triggerOnHistorySizeChars: 12_000, historyTailSizeCharsToExclude: 4_000, triggerOnHistorySizeCharsWhenCacheExpiring: 6_000 } },
  { strategy: augmentStrategy as unknown as Strategy, raw: { triggerOnHistorySizeChars: 12_000, historyTailSizeCharsToExclude: 4_000, exchangeUnit: 'turn', sizeUnit: 'tokens' } },
  { strategy: piStrategy as unknown as Strategy, raw: { reserveTokens: 2_000, keepRecentTokens: 1_500 } },
  { strategy: layeredStrategy as unknown as Strategy, raw: { keepTurns: 2, contextWindow: 8_000 } },
];

describe('incremental triggers of the threshold strategies', () => {
  it('a growing branch gets the decisions and plans of a fresh copy, across compactions', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 70 }), fc.nat(STRATEGIES.length - 1), async (steps, which) => {
      const { strategy, raw } = STRATEGIES[which]!;
      const options = strategy.parse(raw) as Options;
      await growBranch(build(steps), counter, 10_000, async (branch) => {
        const decision = strategy.trigger(branch.input(), options);
        expect(decision).toEqual(strategy.trigger(branch.input(fresh(branch.live)), options));
        if (!decision.fire) return;
        const copy = branch.live.slice();
        const plan = strategy.plan(branch.input(copy), options);
        expect(plan).toEqual(strategy.plan(branch.input(fresh(copy)), options));
        const outcome = await runCompaction({ strategy, input: branch.input(copy), rawOptions: raw, summarizer: echoSummarizer(), prompts });
        branch.previous = outcome.context.previous;
      });
    }), { numRuns: 60 });
  });

  it('augment: the indexed history view equals the view segmented from the whole branch', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 70 }), fc.constantFrom('iteration', 'turn'), async (steps, exchangeUnit) => {
      const raw = { triggerOnHistorySizeChars: 9_000, historyTailSizeCharsToExclude: 3_000, exchangeUnit };
      const options = parseAugmentOptions(raw);
      await growBranch(build(steps), counter, 10_000, async (branch) => {
        const input = branch.input();
        const view = historyView(input, options);
        const scratch = historyViewFromScratch(input, options);
        const shape = (v: typeof view) => ({ items: v.items, totalSize: v.totalSize, previous: v.previous, notes: v.notes, unit: v.unit, byCounter: v.byCounter });
        expect(shape(view)).toEqual(shape(scratch));
        if (!augmentStrategy.trigger(input, options).fire) return;
        const outcome = await runCompaction({ strategy: augmentStrategy as unknown as Strategy, input: branch.input(branch.live.slice()), rawOptions: raw, summarizer: echoSummarizer(), prompts });
        branch.previous = outcome.context.previous;
      });
    }), { numRuns: 80 });
  });
});
