import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../test-fixtures.ts';
import { buildInput } from '../compaction/input.ts';
import { makeEntries } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import { recordedCalls, recordedSentTokens, unseenPrefixOf } from './recorded-usage.ts';

/** user, assistant, user, assistant, ... with 100 counted tokens per entry (counts given directly). */
function turns(n: number): { entries: Entry[]; tokens: TokenIndex } {
  const entries = makeEntries(Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? { user: `u${i}` } : { assistant: `a${i}` })));
  return { entries, tokens: new TokenIndex(entries.map(() => 100)) };
}

describe('recordedCalls', () => {
  it('derives each call’s unseen prefix as recorded input minus the counted context of that call', () => {
    const { entries, tokens } = turns(3);
    // Call k (entry 2k + 1) is sent the 2k + 1 entries before it: 100, 300, 500 counted tokens.
    entries[1]!.usage = { input: 5_100, output: 10 };
    entries[3]!.usage = { input: 5_320, output: 10, cacheRead: 5_000 };
    const calls = recordedCalls(entries, tokens);
    expect(calls.map((c) => [c.call, c.entryIndex, c.sentTokens, c.countedTokens, c.unseenTokens])).toEqual([
      [0, 1, 5_100, 100, 5_000],
      [1, 3, 5_320, 300, 5_020],
      [2, 5, null, 500, null],
    ]);
  });

  it('counts a call after the agent’s own compaction from that compaction, with the entries pi kept', () => {
    const { entries, tokens } = turns(4);
    // Entry 4 becomes pi's compaction: summary of entries 0..1, kept entries 2..3.
    entries[4] = { ...entries[4]!, role: 'summary', kind: 'compaction', marker: { source: 'pi.compaction', firstKeptEntryId: 'e2' } };
    entries[5]!.usage = { input: 1_300, output: 1 };
    entries[7]!.usage = { input: 1_500, output: 1 };
    const calls = recordedCalls(entries, tokens);
    // Call at 5: kept 2..3 (200) + compaction entry 4 (100); call at 7: + entries 5, 6.
    expect(calls.filter((c) => c.sentTokens !== null).map((c) => [c.countedTokens, c.unseenTokens])).toEqual([[300, 1_000], [500, 1_000]]);
    // Without firstKeptEntryId (Claude Code's boundary), only the summary and what follows.
    delete entries[4]!.marker!.firstKeptEntryId;
    expect(recordedCalls(entries, tokens).find((c) => c.entryIndex === 5)!.countedTokens).toBe(100);
  });

  it('never reads the usage of an aborted, failed or synthetic reply', () => {
    const { entries } = turns(1);
    const reply = { ...entries[1]!, usage: { input: 900, output: 3 } };
    expect(recordedSentTokens(reply)).toBe(900);
    for (const flags of [{ aborted: true }, { error: true }, { synthetic: true }]) expect(recordedSentTokens({ ...reply, flags })).toBeUndefined();
    expect(recordedSentTokens({ ...reply, usage: { input: 0, output: 3 } })).toBeUndefined();
  });
});

describe('unseenPrefixOf', () => {
  it('takes the median figure of the calls sent the least transcript and names the call it comes from', () => {
    const { entries, tokens } = turns(5);
    // Per-call unseen: 5,000, 9,000 (an odd call), 5,010, then 5,190 and 5,420 where the transcript is larger.
    [5_100, 9_300, 5_510, 5_890, 6_320].forEach((input, k) => (entries[2 * k + 1]!.usage = { input, output: 1 }));
    const prefix = unseenPrefixOf(recordedCalls(entries, tokens));
    expect(prefix).toMatchObject({ tokens: 5_010, source: 'recorded', call: 2, entryId: 'e5', calls: 5 });
    expect(prefix.note).toBe('5,510 sent = 500 in the transcript + 5,010 not in it: system prompt and tool definitions, from the usage recorded at call 3 (of the 3 calls with usage sent the least transcript).');
  });

  it('reports how much faster the recorded usage grows than the counted transcript, apart from the prefix', () => {
    const { entries, tokens } = turns(20);
    // The provider counts 1.5 tokens per counted token, over a 2,000-token prefix.
    for (let k = 0; k < 20; k++) entries[2 * k + 1]!.usage = { input: 2_000 + 1.5 * (200 * k + 100), output: 1 };
    const prefix = unseenPrefixOf(recordedCalls(entries, tokens));
    expect(prefix.tokens).toBe(2_000 + 0.5 * 300);
    // Read over the prefix the first calls give (150 above the true one): a little under 1.5.
    expect(prefix.providerRatio).toBeGreaterThan(1.4);
    expect(prefix.providerRatio).toBeLessThanOrEqual(1.5);
    expect(prefix.note).toContain(`grows about ${prefix.providerRatio} times as fast as the counted transcript`);
  });

  it('is 0 with a note without recorded usage, and never negative', () => {
    const { entries, tokens } = turns(2);
    expect(unseenPrefixOf(recordedCalls(entries, tokens))).toMatchObject({ tokens: 0, source: 'none', calls: 0 });
    entries[1]!.usage = { input: 40, output: 1 };
    const prefix = unseenPrefixOf(recordedCalls(entries, tokens));
    expect(prefix).toMatchObject({ tokens: 0, source: 'recorded', call: 0 });
    expect(prefix.note).toContain('counts more than the provider did');
  });

  it('finds the system prompt and tool definitions of the real Claude Code sample', async () => {
    const file = resolve(import.meta.dirname, '../../../public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
    const imported = await importFile(file);
    const counter = await getCounter('o200k');
    const { input } = buildInput(imported.entries, countEntries(imported.entries, counter).totals, counter, { contextWindow: 200_000 });
    const calls = recordedCalls(input.entries, input.tokens);
    const prefix = unseenPrefixOf(calls);
    expect(prefix.source).toBe('recorded');
    // Checked by hand: the first call recorded 17,437 prompt tokens for 37 counted ones; the next
    // two 20,171 for 2,077 and 20,537 for 2,414. Claude Code's system prompt and tool definitions.
    expect(calls.slice(0, 3).map((c) => [c.sentTokens, c.countedTokens])).toEqual([[17_437, 37], [20_171, 2_077], [20_537, 2_414]]);
    expect(prefix).toMatchObject({ tokens: 20_171 - 2_077, call: 1, calls: 105 });
    // Claude's tokenizer counts this session's text about 1.4 times as o200k does.
    expect(prefix.providerRatio).toBeGreaterThan(1.3);
    expect(prefix.providerRatio).toBeLessThan(1.6);
  });
});
