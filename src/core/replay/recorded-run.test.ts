import { describe, expect, it } from 'vitest';
import { importFile } from '../test-fixtures.ts';
import { buildInput } from '../compaction/input.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { findCalls } from './calls.ts';
import { ratioToUncompacted, recordedRun, uncompactedRun } from './recorded-run.ts';
import { recordedSentTokens } from './recorded-usage.ts';

async function load(file: string) {
  const result = await importFile(file);
  const counter = await getCounter('chars4');
  const { totals } = countEntries(result.entries, counter);
  const built = buildInput(result.entries, totals, counter, { contextWindow: 100_000, now: 0 });
  const run = recordedRun({ journal: result.entries, entries: built.input.entries, journalIndex: built.journalIndex, firstCall: built.firstCall, contextWindow: 100_000 });
  return { result, built, run };
}

describe('the agent\'s own run as recorded', () => {
  it('pi: the usage of every replayed call, its two compactions at the calls after them, its tokens per task', async () => {
    const { built, run } = await load('public/samples/pi/before-compaction.jsonl');
    expect(run).not.toBeNull();
    const calls = findCalls(built.input.entries, built.firstCall);
    expect(run!.series).toHaveLength(calls.length);
    run!.series.forEach((point, k) => expect(point.sentTokens).toBe(recordedSentTokens(built.input.entries[calls[k]!]!) ?? null));
    expect(run!.compactions.map((c) => [c.call, c.line, c.source])).toEqual([[171, 360, 'pi.compaction'], [294, 629, 'pi.compaction']]);
    expect(run!.series.filter((p) => p.compacted).map((p) => p.call)).toEqual([171, 294]);
    // Each own compaction lowered what the agent sent.
    for (const c of run!.compactions) expect(run!.series[c.call]!.sentTokens!).toBeLessThan(run!.series[c.call - 1]!.sentTokens! / 2);
    const recorded = run!.series.filter((p) => p.sentTokens !== null);
    expect(run!.recordedCalls).toBe(recorded.length);
    expect(run!.recordedCalls).toBeLessThan(calls.length); // aborted and failed replies record none
    expect(run!.tokensPerTask).toBe(recorded.reduce((sum, p) => sum + p.sentTokens!, 0));
    expect(run!.peakTokens).toBe(Math.max(...recorded.map((p) => p.sentTokens!)));
    expect(run!.overflowCalls).toBe(recorded.filter((p) => p.sentTokens! > 100_000).length);
  });

  it('Claude Code: the compact summary marks the call after it; a transcript without usage has no recorded run', async () => {
    const claude = await load('public/samples/claude-code/dag_compact_after_rewind.jsonl');
    expect(claude.run!.compactions).toEqual([{ call: 3, entryId: 'cs', line: 10, source: 'claude.compact_summary' }]);
    const codex = await load('public/samples/codex/schema-coverage.jsonl');
    expect(codex.run).toBeNull();
  });

  it('uncompacted: each call sent every input entry before it; ratios against it', async () => {
    const { built } = await load('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
    const { input } = built;
    const sizes = findCalls(input.entries).map((c) => input.tokens.range(0, c - 1));
    const u = uncompactedRun(input, built.firstCall);
    expect(u).toEqual({ tokensPerTask: sizes.reduce((a, b) => a + b, 0), peakTokens: Math.max(...sizes), overflowCalls: sizes.filter((s) => s > 100_000).length });
    expect(uncompactedRun({ ...input, contextWindow: 10_000 }, built.firstCall).overflowCalls).toBe(sizes.filter((s) => s > 10_000).length);
    expect(uncompactedRun(input, built.firstCall, 1_000).tokensPerTask).toBe(u.tokensPerTask + 1_000 * sizes.length);
    expect(ratioToUncompacted(u.tokensPerTask / 2, u)).toBe(0.5);
    expect(ratioToUncompacted(5, { tokensPerTask: 0 })).toBeNull();
  });
});
