// The one trigger loop (trigger-loop.ts): a strategy replay, a folding replay and the live
// session's compaction all go through it, and give the same figures as before it was shared
// (recorded here by value: the call series' hash, the compactions' calls and the totals).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPrompts } from '../../cli/load.ts';
import { makeInput } from '../compaction/testing.ts';
import { fnv1a64 } from '../hash.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { fakeSession, type FakeStep } from '../agent/testing.ts';
import { replayFolding } from './folding-replay.ts';
import { replaySession } from './replay.ts';
import { agentSession } from './testing.ts';
import * as loop from './trigger-loop.ts';
import type { ReplayResult } from './types.ts';

// Every caller reaches the loop through this module: wrap its parts to see which ones each uses.
vi.mock('./trigger-loop.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./trigger-loop.ts')>();
  return { ...real, walkCalls: vi.fn(real.walkCalls), askTrigger: vi.fn(real.askTrigger), planChanged: vi.fn(real.planChanged), madeSmaller: vi.fn(real.madeSmaller) };
});

beforeEach(() => {
  vi.clearAllMocks();
});

const prompts = loadPrompts();
const session = agentSession(Array.from({ length: 12 }, (_, t) => ({ tools: 3, resultChars: 4000 + t * 100 })));

/** What a replay's chart and table show, small enough to pin: the call series' hash, where it compacted, the totals. */
function figures(result: ReplayResult) {
  return {
    series: fnv1a64(JSON.stringify(result.calls.map((c) => [c.entryIndex, c.contextTokens, c.cachedTokens, c.compacted, c.overflow]))),
    compactions: fnv1a64(JSON.stringify(result.compactions.map((c) => [c.call, c.tokensBefore, c.tokensAfter, c.removedIds.length]))),
    totals: result.totals,
    scores: result.scores,
    finalContext: result.finalContext.length,
    notes: result.notes.length,
  };
}

describe('the three callers of the trigger loop give the figures they gave before it', () => {
  it('a strategy replay (pi)', async () => {
    const input = makeInput(session, { contextWindow: 12_000 });
    const result = await replaySession({ input, config: { strategy: 'pi', options: { reserveTokens: 2000, keepRecentTokens: 3000 } }, summarizer: createOfflineSummarizer(), prompts });
    expect(figures(result)).toEqual({
      series: '1e503762ba3b09d2',
      compactions: '8b7233634537cab6',
      totals: { calls: 48, tokensPerTask: 327770, contextTokens: 304009, peakTokens: 9796, compactions: 5, overflowCalls: 0, summarizerTokens: { input: 21414, output: 2347 }, cost: null, costModel: null },
      scores: { artifact: { total: 29, kept: 29 }, constraint: { total: 0, kept: 0 }, task: { total: 1, kept: 1 }, error: { total: 0, kept: 0 }, identifier: { total: 10, kept: 10 }, decision: { total: 0, kept: 0 } },
      finalContext: 21,
      notes: 1,
    });
    expect(loop.walkCalls).toHaveBeenCalledTimes(1);
    expect(vi.mocked(loop.askTrigger).mock.calls.length).toBeGreaterThanOrEqual(48);
    expect(loop.planChanged).toHaveBeenCalled();
  });

  it('a strategy replay (sliding-window)', async () => {
    const input = makeInput(session, { contextWindow: 12_000 });
    const result = await replaySession({ input, config: { strategy: 'sliding-window', options: { windowSize: 5 } }, summarizer: createOfflineSummarizer(), prompts });
    expect(figures(result)).toEqual({
      series: '7bfd6f7db26a1776',
      compactions: 'c7235ec4b83634ac',
      totals: { calls: 48, tokensPerTask: 198622, contextTokens: 198622, peakTokens: 5193, compactions: 42, overflowCalls: 0, summarizerTokens: { input: 0, output: 0 }, cost: null, costModel: null },
      scores: { artifact: { total: 32, kept: 0 }, constraint: { total: 0, kept: 0 }, task: { total: 1, kept: 0 }, error: { total: 0, kept: 0 }, identifier: { total: 10, kept: 0 }, decision: { total: 0, kept: 0 } },
      finalContext: 13,
      notes: 1,
    });
    expect(loop.walkCalls).toHaveBeenCalledTimes(1);
    expect(loop.madeSmaller).toHaveBeenCalled();
  });

  it('a folding replay', async () => {
    const input = makeInput(session, { contextWindow: 12_000 });
    const result = await replayFolding({ input, config: { strategy: 'folding', options: {} } });
    expect(figures(result)).toEqual({
      series: 'a25ba30b50bd78c8',
      compactions: 'eef0776c61634b83',
      totals: { calls: 48, tokensPerTask: 258872, contextTokens: 258872, peakTokens: 9545, compactions: 4, overflowCalls: 0, summarizerTokens: { input: 0, output: 0 }, cost: null, costModel: null },
      scores: { artifact: { total: 29, kept: 12 }, constraint: { total: 0, kept: 0 }, task: { total: 1, kept: 0 }, error: { total: 0, kept: 0 }, identifier: { total: 10, kept: 4 }, decision: { total: 0, kept: 0 } },
      finalContext: 25,
      notes: 1,
    });
    // The fold's own triggers decide; the walk over the calls is the same one.
    expect(loop.walkCalls).toHaveBeenCalledTimes(1);
    expect(loop.askTrigger).not.toHaveBeenCalled();
  });

  it('the live session', async () => {
    const read: FakeStep = { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] };
    const { session: live, of } = fakeSession([read, read, read, read, read, read, { text: 'Done reading.' }], {
      prompts, contextWindow: 2000, strategy: { strategy: 'pi', options: { reserveTokens: 256, keepRecentTokens: 100 } },
    });
    await live.send('Read big.txt six times', new AbortController().signal);
    expect(of('compaction').map((c) => [c.atCall, c.trigger, c.tokensBefore, c.tokensAfter])).toEqual([[4, 'threshold', 2030, 559]]);
    expect(of('call').map((c) => c.contextTokens)).toEqual([822, 1328, 1834, 2340, 1375, 1881, 2387]);
    expect(of('note').map((n) => n.text)).toEqual(['The summary replaces 7 entries; 2 entries are kept from a8 on. 2,030 -> 559 tokens (chars/4).']);
    // Asked before every call, with the same judgement of what the compaction did.
    expect(vi.mocked(loop.askTrigger).mock.calls.length).toBeGreaterThanOrEqual(7);
    expect(loop.planChanged).toHaveBeenCalledTimes(1);
    expect(loop.madeSmaller).toHaveBeenCalledTimes(1);
  });
});
