import { compactionMoment } from './compaction-moment.ts';
import { describe, expect, it } from 'vitest';
import { echoSummarizer, failingSummarizer, makeInput } from '../compaction/testing.ts';
import { SummarizerError } from '../compaction/summarizer.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { findCalls } from './calls.ts';
import { compareConfigs } from './compare.ts';
import { replaySession } from './replay.ts';
import { agentSession } from './testing.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { CancelledError } from '../cancel.ts';

const prompts = loadPrompts();
const session = agentSession(Array.from({ length: 12 }, (_, t) => ({ tools: 3, resultChars: 4000 + t * 100 })));

describe('replaySession', () => {
  it('sends every assistant response as one call and compacts when pi’s threshold is passed', async () => {
    const input = makeInput(session, { contextWindow: 12_000 });
    const result = await replaySession({ input, config: { strategy: 'pi', options: { reserveTokens: 2000, keepRecentTokens: 3000 } }, summarizer: createOfflineSummarizer(), prompts });
    expect(result.calls).toHaveLength(findCalls(session).length);
    expect(result.calls).toHaveLength(48);
    expect(result.totals.compactions).toBeGreaterThan(0);
    // The trigger sits below the window: no call is sent more than the window.
    expect(result.totals.overflowCalls).toBe(0);
    for (const compaction of result.compactions) {
      expect(compaction.trigger.fire).toBe(true);
      expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
      expect(result.calls[compaction.call]!.compacted).toBe(true);
      expect(result.calls[compaction.call]!.cachedTokens).toBe(0);
    }
    // Between compactions the context only grows, by what was recorded in between.
    for (let k = 1; k < result.calls.length; k++) {
      const [a, b] = [result.calls[k - 1]!, result.calls[k]!];
      if (!b.compacted) expect(b.contextTokens - a.contextTokens).toBe(input.tokens.range(a.entryIndex, b.entryIndex - 1));
    }
    const sum = result.calls.reduce((s, c) => s + c.contextTokens, 0);
    expect(result.totals.tokensPerTask).toBe(sum + result.totals.summarizerTokens.input + result.totals.summarizerTokens.output);
    expect(result.totals.peakTokens).toBe(Math.max(...result.calls.map((c) => c.contextTokens)));
  });

  it('without compaction, the context of call k is the whole history before it', async () => {
    const input = makeInput(session, { contextWindow: 1_000_000 });
    const result = await replaySession({ input, config: { strategy: 'pi', options: {} }, summarizer: failingSummarizer(new SummarizerError('down')), prompts });
    expect(result.error).toBeUndefined();
    expect(result.calls.map((c) => c.contextTokens)).toEqual(result.calls.map((c) => input.tokens.range(0, c.entryIndex - 1)));
    expect(result.totals.compactions).toBe(0);
  });

  it('a summarizer failure stops that configuration with its reason; the others still run', async () => {
    const input = makeInput(session, { contextWindow: 12_000 });
    const { totals } = countEntries(session, getEstimator('chars4'));
    const failing = failingSummarizer(new SummarizerError('The model is overloaded (529).'));
    const output = await compareConfigs({
      journal: session, totals, counter: getEstimator('chars4'), contextWindow: 12_000, summarizer: failing, prompts,
      configs: [{ strategy: 'pi', options: { reserveTokens: 2000, keepRecentTokens: 3000 } }, { strategy: 'sliding-window', options: { windowSize: 5 } }, { strategy: 'pi', options: { reserveTokens: -5 } }],
    });
    const [pi, window, bad] = output.results;
    expect(pi!.error).toMatch(/^Call \d+: The model is overloaded \(529\)\.$/);
    expect(pi!.calls.length).toBeGreaterThan(0);
    expect(pi!.calls.length).toBeLessThan(48);
    expect(window!.error).toBeUndefined();
    expect(window!.calls).toHaveLength(48);
    expect(bad!.error).toMatch(/reserveTokens/);
    expect(input.entries).toBe(session);
  });

  it('a cancel stops the replay with CancelledError', async () => {
    const input = makeInput(session, { contextWindow: 12_000 });
    const controller = new AbortController();
    controller.abort();
    await expect(replaySession({ input, config: { strategy: 'pi', options: {} }, summarizer: echoSummarizer(), prompts, signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('augment’s cache-expiry trigger fires at an idle gap in the transcript’s own time', async () => {
    const turns = Array.from({ length: 8 }, (_, t) => ({ tools: 2, resultChars: 3000, idleBefore: t === 5 ? 900 : 5 }));
    const entries = agentSession(turns);
    const input = makeInput(entries, { contextWindow: 1_000_000, now: 0 });
    const options = { triggerOnHistorySizeChars: 10_000_000, triggerOnHistorySizeCharsWhenCacheExpiring: 20_000, historyTailSizeCharsToExclude: 4000, minTailExchanges: 1 };
    const result = await replaySession({ input, config: { strategy: 'augment', options }, summarizer: createOfflineSummarizer(), prompts });
    expect(result.compactions).toHaveLength(1);
    const [compaction] = result.compactions;
    expect(compaction!.trigger.rule).toBe('cacheExpiring');
    // The first call of turn 5 is the first one after the 15-minute gap.
    const firstOfTurn5 = entries.findIndex((e) => e.role === 'user' && e.blocks.some((b) => b.type === 'text' && b.text.startsWith('Task 5')));
    expect(result.calls[compaction!.call]!.entryIndex).toBe(firstOfTurn5 + 1);
    // The cache was cold for that call anyway.
    expect(result.calls[compaction!.call]!.cachedTokens).toBe(0);
    // Shown as it ran: between the two calls, when the timer armed after the earlier one fired.
    const at = (call: number) => entries[result.calls[call]!.entryIndex - 1]!.timestamp!;
    const firedAt = compaction!.trigger.numbers.cacheFiresAt!;
    expect(firedAt).toBeGreaterThan(at(compaction!.call - 1));
    expect(firedAt).toBeLessThan(at(compaction!.call));
    expect(compactionMoment(compaction!)).toMatch(new RegExp(`^between calls ${compaction!.call} and ${compaction!.call + 1}, when the cache-expiry timer fired \\(`));
  });

  it('prices calls with cache reads at the cached price', async () => {
    const input = makeInput(session, { contextWindow: 1_000_000 });
    const price = { model: 'm', price: { input: 3, output: 15, cachedInput: 0.3 } };
    const result = await replaySession({ input, config: { strategy: 'pi', options: {} }, summarizer: echoSummarizer(), prompts, price, calls: 4 });
    const expected = result.calls.reduce((usd, c) => usd + ((c.contextTokens - c.cachedTokens) * 3 + c.cachedTokens * 0.3 + c.outputTokens * 15) / 1e6, 0);
    expect(result.totals.cost).toBeCloseTo(expected, 12);
    expect(result.calls[1]!.cachedTokens).toBe(result.calls[0]!.contextTokens);
  });
});
