/**
 * A replay covers the whole session on a real pi file that compacted twice (pi-mono's
 * before-compaction.jsonl): 484 assistant replies, 13 of them aborted with only an error message
 * (lines 91, 195, 362, 370, 407, 429, 443, 459, 545, 639, 848, 940, 996), so 471 calls, counted
 * from the file by hand; 177 of them after the second compaction (line 629), which keeps the
 * entries from line 552 (`firstKeptEntryIndex` 551 of the file's lines, header included).
 */
import { describe, expect, it } from 'vitest';
import { importFile, loadPrompts } from '../test-fixtures.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { compareConfigs } from './compare.ts';

const FILE = 'public/samples/pi/before-compaction.jsonl';

async function replay(from?: 'start' | 'last-compaction') {
  const result = await importFile(FILE);
  const counter = await getCounter('chars4');
  const { totals } = countEntries(result.entries, counter);
  return compareConfigs({
    journal: result.entries, totals, counter, contextWindow: 200_000, summarizer: createOfflineSummarizer(), prompts: loadPrompts(),
    configs: [{ strategy: 'observation-masking', options: {} }, { strategy: 'sliding-window', options: {} }],
    ...(from ? { from } : {}),
  });
}

describe('the whole session (pi before-compaction.jsonl)', () => {
  it('replays every call from the first entry, without the two summaries pi recorded', async () => {
    const output = await replay();
    expect(output.calls).toBe(471);
    expect(output.scope).toMatchObject({ from: 'start', calls: 471, branchCalls: 471, sourceCompactions: 2 });
    expect(output.scope.note).toMatch(/^From the first entry of the branch \(\d[\d,]* entries, 471 calls\): the source agent's own compactions \(line 360, 629\) are left out/);
    for (const result of output.results) {
      expect(result.error).toBeUndefined();
      expect(result.totals.calls).toBe(471);
      expect(result.calls[0]!.entryIndex).toBeLessThan(5);
    }
    expect(output.entryIds.length).toBe(output.scope.entries);
  }, 60_000);

  it('continues from the last recorded compaction on request (177 calls, as before), with the entries pi kept as context', async () => {
    const [output, imported] = await Promise.all([replay('last-compaction'), importFile(FILE)]);
    const byId = new Map(imported.entries.map((entry) => [entry.id, entry]));
    const lines = output.entryIds.map((id) => byId.get(id)!.line);
    expect(output.calls).toBe(177);
    expect(output.scope).toMatchObject({ from: 'last-compaction', calls: 177, branchCalls: 471, sourceCompactions: 2 });
    // pi's context after its compaction: the summary, the kept entries (lines 552..628), then what followed.
    expect(lines[0]).toBe(629);
    expect(lines[1]).toBe(552);
    expect(lines.slice(1).every((line, i) => i === 0 || line > lines[i]!)).toBe(true);
    expect(lines.slice(1).every((line) => line >= 552 && line !== 629)).toBe(true);
    for (const result of output.results) {
      expect(result.totals.calls).toBe(177);
      expect(byId.get(result.calls[0]!.entryId)!.line).toBeGreaterThan(629);
    }
    expect(output.scope.note).toMatch(/^From the compaction the source agent recorded at line 629: its summary, the \d+ entries it kept \(from line 552, as the agent rebuilt its context/);
  }, 60_000);
});
