import { describe, expect, it } from 'vitest';
import { describeChange } from '../core/compaction/plan-change.ts';
import { STRATEGY_IDS } from '../core/strategies/index.ts';
import { runCompact } from './compact.ts';

/** The repository's real samples, each with a window its strategies fire at (the small ones a window that leaves them little room). */
const SAMPLES: ReadonlyArray<readonly [string, number]> = [
  ['public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 60_000],
  ['public/samples/pi/large-session.jsonl', 60_000],
  ['public/samples/codex/schema-coverage.jsonl', 20_000],
  ['public/samples/openai-chat/gpt-4o-airline.json', 18_000],
  ['public/samples/pi/before-compaction.jsonl', 60_000],
  ['public/samples/claude-code/dag_compact_after_rewind.jsonl', 60_000],
];
describe('compact: the plan’s after figure is the run’s, and the context as sent carries the unseen prefix', () => {
  for (const [file, contextWindow] of SAMPLES) {
    it(`${file.split('/').slice(-2).join('/')} at a ${contextWindow.toLocaleString('en-US')}-token window`, async () => {
      for (const strategy of STRATEGY_IDS.filter((id) => id !== 'custom')) {
        const report = await runCompact({ file, strategy, options: {}, counter: 'o200k', contextWindow });
        expect(report.sentTokensBefore - report.tokensBefore).toBe(report.unseenPrefixTokens);
        expect(report.sentTokensAfter - report.tokensAfter).toBe(report.unseenPrefixTokens);
        expect(report.change).toBe(describeChange(report.sentTokensBefore, report.sentTokensAfter));
        expect(Math.abs(report.plannedTokensAfter - report.tokensAfter), `${strategy}: planned ${report.plannedTokensAfter}, run ${report.tokensAfter}`).toBeLessThanOrEqual(0.02 * report.tokensAfter);
        expect(report.plannedBasis).toBe(report.counts.summarized > 0 ? 'offline' : 'counted');
      }
    }, 120_000);
  }

  it('derives the prefix from the recorded usage, or takes the one given', async () => {
    const file = SAMPLES[0]![0];
    const recorded = await runCompact({ file, strategy: 'observation-masking', options: {}, counter: 'o200k', contextWindow: 200_000 });
    expect(recorded).toMatchObject({ unseenPrefixTokens: 18_094, unseenPrefix: { source: 'recorded' } });
    const given = await runCompact({ file, strategy: 'observation-masking', options: {}, counter: 'o200k', contextWindow: 200_000, unseenPrefix: 'pi' });
    expect(given).toMatchObject({ unseenPrefixTokens: 1_640, unseenPrefix: { source: 'estimate' } });
    expect(given.unseenPrefix.note).toContain('The recorded usage gives 18,094.');
    await expect(runCompact({ file, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 200_000, unseenPrefix: 'big' })).rejects.toThrow(/whole number of tokens >= 0 or one of the presets/);
  });
});

describe('describeChange', () => {
  it('says a context grows instead of a negative saving', () => {
    expect(describeChange(39_072, 41_559)).toBe('grows by 2,487 tokens (+6%)');
    expect(describeChange(72_484, 39_629)).toBe('45% saved (32,855 fewer tokens)');
    expect(describeChange(100, 100)).toBe('no change');
  });
});
