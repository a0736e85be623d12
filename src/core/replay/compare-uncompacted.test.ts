/**
 * The uncompacted baseline of a comparison counts every call on the same basis as the replays: the
 * transcript plus the unseen prefix (recorded or entered), so `ratioToUncompacted` compares like
 * with like.
 */
import { describe, expect, it } from 'vitest';
import { importFile, loadPrompts } from '../test-fixtures.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { buildInput } from '../compaction/input.ts';
import { compareConfigs } from './compare.ts';
import { uncompactedRun } from './recorded-run.ts';
import { parseUnseenPrefix } from './unseen-estimate.ts';

const FILE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

describe('the uncompacted baseline carries the unseen prefix', () => {
  it('recorded on the Claude Code sample, and an entered estimate', async () => {
    const result = await importFile(FILE);
    const counter = await getCounter('o200k');
    const { totals } = countEntries(result.entries, counter);
    const built = buildInput(result.entries, totals, counter, { contextWindow: 200_000, now: 0 });
    const bare = uncompactedRun(built.input, built.firstCall);
    const calls = built.scope.calls;
    const base = { journal: result.entries, totals, counter, contextWindow: 200_000, summarizer: createOfflineSummarizer(), prompts: loadPrompts(), configs: [{ strategy: 'pi', options: {} }] };
    const recorded = await compareConfigs(base);
    expect(recorded.unseenPrefix.source).toBe('recorded');
    expect(recorded.unseenPrefix.tokens).toBeGreaterThan(10_000);
    expect(recorded.uncompacted.tokensPerTask).toBe(bare.tokensPerTask + recorded.unseenPrefix.tokens * calls);
    expect(recorded.uncompacted.peakTokens).toBe(bare.peakTokens + recorded.unseenPrefix.tokens);
    // pi never compacts under a 200k window here: its run is the uncompacted one, ratio 1.
    expect(recorded.results[0]!.totals.compactions).toBe(0);
    expect(recorded.results[0]!.totals.tokensPerTask).toBe(recorded.uncompacted.tokensPerTask);
    const entered = await compareConfigs({ ...base, unseenPrefix: parseUnseenPrefix('1000') });
    expect(entered.uncompacted.tokensPerTask).toBe(bare.tokensPerTask + 1_000 * calls);
  }, 60_000);
});
