// The totals table, the probe list, the CSV export and `eval --json` give the same retention
// figures for the same run: all read them from retention() (core/replay/retention.ts).
import { describe, expect, it } from 'vitest';
import { PROBE_CATEGORIES } from '../core/probes/types.ts';
import { compareConfigs } from '../core/replay/compare.ts';
import { retention } from '../core/replay/retention.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import type { ComparisonRow } from '../db/schema.ts';
import { comparisonCsv } from '../store/view/comparison.ts';
import { strategyReport } from './eval.ts';
import { importFile, loadPrompts } from './load.ts';

describe('one retention figure', () => {
  it('the table, the probe list, the CSV and eval --json agree on a real run', async () => {
    const result = await importFile('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
    const counter = await getCounter('o200k');
    const { totals } = countEntries(result.entries, counter);
    const output = await compareConfigs({
      journal: result.entries, totals, counter, contextWindow: 30_000, summarizer: createOfflineSummarizer(), prompts: loadPrompts(),
      configs: [{ strategy: 'pi', options: {} }, { strategy: 'observation-masking', options: {} }],
    });
    const row = { result: { results: output.results } } as unknown as ComparisonRow;
    const csv = comparisonCsv(row).trim().split('\n').map((line) => line.split(','));
    const header = csv[0]!;
    output.results.forEach((replay, i) => {
      expect(replay.totals.compactions, replay.label).toBeGreaterThan(0);
      const figure = retention(replay.probes);
      expect(figure.all.total, replay.label).toBeGreaterThan(0);
      // The table and the probe list read retention(result.probes); the replay's own scores and eval --json equal it.
      expect(replay.scores).toEqual(figure.byCategory);
      expect(strategyReport(replay).probes).toEqual(figure.byCategory);
      const cells = csv[i + 1]!.slice(-(PROBE_CATEGORIES.length * 2 + 3));
      const named = (name: string) => Number(cells[header.slice(-(PROBE_CATEGORIES.length * 2 + 3)).indexOf(name)]);
      for (const category of PROBE_CATEGORIES) {
        expect(named(`${category}_kept`)).toBe(figure.byCategory[category].kept);
        expect(named(`${category}_total`)).toBe(figure.byCategory[category].total);
      }
      expect([named('probes_kept'), named('probes_total')]).toEqual([figure.all.kept, figure.all.total]);
      // The probe list's per-category figure counts each probe of that configuration once.
      for (const category of PROBE_CATEGORIES) expect(replay.probes.filter((outcome) => outcome.probe.category === category).length).toBe(figure.byCategory[category].total);
    });
  }, 120_000);
});
