import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile, loadPrompts } from '../test-fixtures.ts';
import { buildInput } from '../compaction/input.ts';
import { makeInput } from '../compaction/testing.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { recordedCalls, unseenPrefixOf } from './recorded-usage.ts';
import { replaySession } from './replay.ts';
import { agentSession } from './testing.ts';

const prompts = loadPrompts();
const SAMPLE = resolve(import.meta.dirname, '../../../public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

describe('a replay sends the transcript plus the unseen prefix', () => {
  const session = agentSession(Array.from({ length: 8 }, () => ({ tools: 3, resultChars: 3000 })));
  const input = makeInput(session, { contextWindow: 14_000 });

  it('derives the prefix from recorded usage, adds it to every call and gives it to the trigger', async () => {
    // Every reply recorded its context plus a 3,000-token prefix the transcript does not show.
    const entries = session.map((entry, i) => (entry.role === 'assistant' ? { ...entry, usage: { input: input.tokens.range(0, i - 1) + 3_000, output: 5 } } : entry));
    const recorded = { ...input, entries };
    const result = await replaySession({ input: recorded, config: { strategy: 'pi', options: { reserveTokens: 2_000, keepRecentTokens: 3_000 } }, summarizer: createOfflineSummarizer(), prompts });
    expect(result.unseenPrefix).toMatchObject({ tokens: 3_000, source: 'recorded' });
    const first = result.compactions[0]!;
    // Before the first compaction every call is sent its transcript and the prefix.
    for (const call of result.calls.slice(0, first.call)) expect(call.contextTokens).toBe(input.tokens.range(0, call.entryIndex - 1) + 3_000);
    expect(result.compactions.length).toBeGreaterThan(0);
    for (const compaction of result.compactions) {
      // The trigger read the size the chart shows: the same number, over the same threshold.
      expect(compaction.trigger.numbers.contextTokens).toBe(compaction.tokensBefore);
      expect(compaction.tokensBefore).toBeGreaterThan(14_000 - 2_000);
      expect(compaction.tokensAfter).toBeGreaterThanOrEqual(3_000);
    }
    expect(result.notes.some((note) => note.includes('plus 3,000 tokens not in it'))).toBe(true);
  });

  it('takes the prefix the caller gives (an estimate) and fires earlier for it', async () => {
    const config = { strategy: 'pi', options: { reserveTokens: 2_000, keepRecentTokens: 3_000 } };
    const none = await replaySession({ input, config, summarizer: createOfflineSummarizer(), prompts });
    expect(none.unseenPrefix).toMatchObject({ tokens: 0, source: 'none' });
    const estimate = { tokens: 2_500, source: 'estimate' as const, calls: 0, note: 'Entered: 2,500 tokens.' };
    const given = await replaySession({ input, config, summarizer: createOfflineSummarizer(), prompts, unseenPrefix: estimate });
    expect(given.unseenPrefix).toEqual(estimate);
    expect(given.calls[0]!.contextTokens).toBe(none.calls[0]!.contextTokens + 2_500);
    expect(given.compactions[0]!.call).toBeLessThan(none.compactions[0]!.call);
  });

  it('on the real Claude Code sample, pi fires on the size the chart shows and each compaction frees room', async () => {
    const imported = await importFile(SAMPLE);
    const counter = await getCounter('o200k');
    const { input: real } = buildInput(imported.entries, countEntries(imported.entries, counter).totals, counter, { contextWindow: 80_000 });
    const prefix = unseenPrefixOf(recordedCalls(real.entries, real.tokens));
    const result = await replaySession({ input: real, config: { strategy: 'pi', options: {} }, summarizer: createOfflineSummarizer(), prompts });
    expect(result.unseenPrefix).toEqual(prefix);
    expect(result.compactions.length).toBeGreaterThan(0);
    for (const compaction of result.compactions) {
      expect(compaction.trigger.numbers.contextTokens).toBe(compaction.tokensBefore);
      expect(compaction.tokensBefore).toBeGreaterThan(80_000 - 16_384);
      // Not a few hundred tokens at a time: each compaction removes thousands.
      expect(compaction.tokensBefore - compaction.tokensAfter).toBeGreaterThan(15_000);
    }
    expect(result.totals.overflowCalls).toBe(0);
  });
});
