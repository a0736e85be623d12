/**
 * What the gauge counts, on real samples with compactions the agent recorded: from the first entry,
 * the whole branch without those compaction entries; from the last one, the context the agent had
 * (its summary, pi's kept entries, what followed), the same entries a plan's input holds.
 */
import { describe, expect, it } from 'vitest';
import { importFile } from '../test-fixtures.ts';
import { activeLeaf, pathTo } from '../journal/tree.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { GAUGE_COUNTS, gaugeContext } from './gauge-context.ts';
import { buildInput } from './input.ts';
import { isSourceCompaction } from './input-scope.ts';
import { sessionUnseenPrefix } from '../replay/session-prefix.ts';

async function branch(file: string) {
  const { entries } = await importFile(file);
  const counter = await getCounter('o200k');
  const { totals } = countEntries(entries, counter);
  const whole = pathTo(entries, activeLeaf(entries)!.id);
  const shown = whole.filter((index) => entries[index]!.kind !== 'event' && !entries[index]!.flags?.sidechain);
  const sum = (indices: readonly number[]) => indices.reduce((total, index) => total + (totals[index] ?? 0), 0);
  return { entries, totals, counter, whole, shown, sum };
}

describe('the gauge counts the context sent, never the agent’s compactions on top of what they summarize', () => {
  it('pi/before-compaction: two recorded compactions left out from the first entry; from the last one, its summary, the kept entries and what followed', async () => {
    const { entries, totals, counter, whole, shown, sum } = await branch('public/samples/pi/before-compaction.jsonl');
    const compactions = shown.filter((index) => isSourceCompaction(entries[index]!));
    expect(compactions.map((index) => entries[index]!.line)).toEqual([360, 629]);

    const start = gaugeContext(entries, whole, totals, 'start');
    expect(start.compactionsLeftOut).toBe(2);
    expect(start.transcriptTokens).toBe(sum(shown) - sum(compactions));
    expect(start.entries).toBe(shown.length - 2);

    const last = gaugeContext(entries, whole, totals, 'last-compaction');
    const input = buildInput(entries, totals, counter, { from: 'last-compaction', contextWindow: 200_000 });
    expect(last.transcriptTokens).toBe(input.input.tokens.total);
    expect(last.entries).toBe(input.input.entries.length);
    expect(entries[input.journalIndex[0]!]!.line).toBe(629);
    // The agent's context after its compaction is far smaller than the whole session.
    expect(last.transcriptTokens).toBeLessThan(start.transcriptTokens / 2);
    expect(last.compactionsLeftOut).toBe(1);
    // The prefix is read from the calls after the kept entries, as the plan reads it.
    expect(input.firstCall).toBeGreaterThan(1);
    expect(last.unseenPrefix).toEqual(sessionUnseenPrefix(input.input, input.firstCall));
    expect(last.unseenPrefix.source).toBe('recorded');
  }, 60_000);

  it('claude-code/dag_compact_after_rewind: the compact boundary and its summary are not counted from the first entry; from it, the summary and what followed', async () => {
    const { entries, totals, whole, shown, sum } = await branch('public/samples/claude-code/dag_compact_after_rewind.jsonl');
    const compactions = shown.filter((index) => isSourceCompaction(entries[index]!));
    expect(compactions.map((index) => entries[index]!.marker?.source)).toEqual(['claude.compact_boundary', 'claude.compact_summary']);
    const start = gaugeContext(entries, whole, totals, 'start');
    expect(start.compactionsLeftOut).toBe(2);
    expect(start.transcriptTokens).toBe(sum(shown) - sum(compactions));
    expect(start.transcriptTokens).toBeLessThan(sum(shown));
    const last = gaugeContext(entries, whole, totals, 'last-compaction');
    const summary = compactions.find((index) => entries[index]!.role === 'summary')!;
    const after = shown.filter((index) => index > summary);
    expect(last.transcriptTokens).toBe(sum([summary, ...after]));
    expect(last.entries).toBe(1 + after.length);
  }, 60_000);

  it('a branch without recorded compactions counts the same from either start', async () => {
    const { entries, totals, whole, shown, sum } = await branch('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
    const start = gaugeContext(entries, whole, totals, 'start');
    expect(start).toMatchObject({ transcriptTokens: sum(shown), compactionsLeftOut: 0 });
    expect(gaugeContext(entries, whole, totals, 'last-compaction')).toMatchObject({ transcriptTokens: start.transcriptTokens, entries: start.entries });
    expect(start.unseenPrefix).toMatchObject({ tokens: 18_094, source: 'recorded' });
  }, 60_000);

  it('says what it counts in one sentence', () => {
    expect(GAUGE_COUNTS.split(/(?<=\.)\s/)).toHaveLength(1);
    expect(GAUGE_COUNTS).toContain('compaction summaries left out');
  });
});
