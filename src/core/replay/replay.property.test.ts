import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoSummarizer, makeInput } from '../compaction/testing.ts';
import { loadPrompts } from '../test-fixtures.ts';
import type { Entry } from '../journal/entry.ts';
import { compactionContext } from './compaction-context.ts';
import { replaySession } from './replay.ts';
import { agentSession } from './testing.ts';
import type { ContextRef, ReplayResult } from './types.ts';

const prompts = loadPrompts();

const turns = fc.array(fc.record({ tools: fc.integer({ min: 0, max: 4 }), resultChars: fc.integer({ min: 50, max: 6000 }), idleBefore: fc.constantFrom(2, 5, 400) }), { minLength: 1, maxLength: 10 });

/** Token-triggered configurations whose trigger sits below a 12k window. */
const configs = fc.constantFrom(
  { strategy: 'pi', options: { reserveTokens: 3000, keepRecentTokens: 2000 } },
  { strategy: 'augment', options: { triggerOnHistorySizeChars: 30_000, historyTailSizeCharsToExclude: 8000, minTailExchanges: 1 } },
  { strategy: 'layered', options: { contextWindow: 12_000, triggerRatio: 0.7, keepTurns: 1 } },
  { strategy: 'budget', options: { reservedOutputTokens: 2000 } },
  { strategy: 'sliding-window', options: { windowSize: 4 } },
);

/** The context a call was sent, rebuilt from the result as the compare view does. */
function contextOf(result: ReplayResult, entries: readonly Entry[], k: number): Entry[] {
  const call = result.calls[k]!;
  const at = result.compactions.findLastIndex((c) => c.call <= k);
  const last = result.compactions[at];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const refs: ContextRef[] = last ? compactionContext(result.compactions, at, entries.map((e) => e.id)) : [];
  const made = refs.map((ref) => (ref.origin === 'journal' ? byId.get(ref.entryId)! : ref.entry));
  return [...made, ...entries.slice(last ? last.appendFrom : 0, call.entryIndex)];
}

function orphans(entries: readonly Entry[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const entry of entries) for (const block of entry.blocks) {
    if (block.type === 'tool_call') calls.add(block.callId);
    if (block.type === 'tool_result') results.add(block.callId);
  }
  return [...[...calls].filter((id) => !results.has(id)).map((id) => `call ${id}`), ...[...results].filter((id) => !calls.has(id)).map((id) => `result ${id}`)];
}

const series = (result: ReplayResult) => result.calls.map((c) => [c.entryIndex, c.contextTokens, c.compacted]);

describe('replay invariants', () => {
  it('the replay of a prefix is the prefix of the replay; same input, same series; no orphaned tool pair is ever sent; no overflow below a token trigger', async () => {
    await fc.assert(
      fc.asyncProperty(turns, configs, fc.integer({ min: 1, max: 40 }), async (shape, config, cut) => {
        const entries = agentSession(shape);
        const input = makeInput(entries, { contextWindow: 12_000 });
        const full = await replaySession({ input, config, summarizer: echoSummarizer(), prompts });
        const again = await replaySession({ input, config, summarizer: echoSummarizer(), prompts });
        expect(series(again)).toEqual(series(full));
        const k = Math.min(cut, full.calls.length);
        const part = await replaySession({ input, config, summarizer: echoSummarizer(), prompts, calls: k });
        expect(series(part)).toEqual(series(full).slice(0, k));
        expect(part.compactions.map((c) => c.call)).toEqual(full.compactions.filter((c) => c.call < k).map((c) => c.call));
        for (let i = 0; i < full.calls.length; i++) {
          const sent = contextOf(full, entries, i);
          expect(orphans(sent)).toEqual([]);
          // The system prompt is always sent.
          expect(sent[0]?.role).toBe('system');
          const call = full.calls[i]!;
          if (call.overflow) expect(call.note, `call ${i} overflowed without a reason`).toBeTruthy();
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
