import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { buildInput } from '../compaction/input.ts';
import { failingSummarizer } from '../compaction/testing.ts';
import { extractProbes } from '../probes/index.ts';
import { agentSession } from '../replay/testing.ts';
import { ratioToUncompacted, uncompactedRun } from '../replay/recorded-run.ts';
import { recordedCalls, unseenPrefixOf } from '../replay/recorded-usage.ts';
import { replaySession } from '../replay/replay.ts';
import { retention } from '../replay/retention.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { paretoFront } from './pareto.ts';
import { assembleSweep } from './assemble.ts';
import { etaMs } from './eta.ts';
import { runSweep, sweepSession, type SweepSession } from './run.ts';
import { DEFAULT_RETENTION_WEIGHTS, weightedRetention } from './score.ts';
import { sweepPoints } from './points.ts';

const prompts = loadPrompts();
const WINDOW = 12_000;
const counter = await getCounter('chars4');

const turns = fc.array(fc.record({ tools: fc.integer({ min: 0, max: 4 }), resultChars: fc.integer({ min: 200, max: 6000 }) }), { minLength: 1, maxLength: 8 });
const piOptions = fc.record({ reserveTokens: fc.integer({ min: 1000, max: 6000 }), keepRecentTokens: fc.integer({ min: 0, max: 5000 }) });

function session(name: string, shape: Parameters<typeof agentSession>[0]): SweepSession {
  const journal = agentSession(shape);
  return { name, journal, totals: countEntries(journal, counter).totals };
}

const base = { strategy: 'pi', counter, contextWindow: WINDOW, summarizer: createOfflineSummarizer(), prompts };

describe('a sweep of one point', () => {
  it('equals that configuration replayed on its own', async () => {
    await fc.assert(fc.asyncProperty(turns, piOptions, async (shape, options) => {
      const s = session('s', shape);
      const points = sweepPoints({ strategy: 'pi', vary: [`reserveTokens=${options.reserveTokens}`, `keepRecentTokens=${options.keepRecentTokens}`] });
      const result = await runSweep([s], { ...base, points, weights: DEFAULT_RETENTION_WEIGHTS });
      const built = buildInput(s.journal, s.totals, counter, { contextWindow: WINDOW, now: 0 });
      const unseenPrefix = unseenPrefixOf(recordedCalls(built.input.entries, built.input.tokens, built.firstCall));
      const replay = await replaySession({ input: built.input, config: { strategy: 'pi', options }, summarizer: createOfflineSummarizer(), prompts, probes: extractProbes(built.input.entries), firstCall: built.firstCall, unseenPrefix });
      const point = result.points[0]!;
      expect(point.options).toEqual(points[0]);
      expect(point.tokensPerTask).toBe(replay.totals.tokensPerTask);
      expect(point.ratioToUncompacted).toBe(ratioToUncompacted(replay.totals.tokensPerTask, uncompactedRun(built.input, built.firstCall, unseenPrefix.tokens)));
      expect(point.probes).toEqual(retention(replay.probes).byCategory);
      expect(point.retention).toBe(weightedRetention(retention(replay.probes).byCategory, DEFAULT_RETENTION_WEIGHTS));
      expect(point.overflowCalls).toBe(replay.totals.overflowCalls);
      expect(point.compactions).toBe(replay.totals.compactions);
      expect(result.pareto).toEqual([0]);
      expect(result.recommended).toBe(0);
    }), { numRuns: 15 });
  }, 120_000);
});

describe('runSweep', () => {
  it('gives the same result for the same input, however the work is split', async () => {
    await fc.assert(fc.asyncProperty(fc.array(turns, { minLength: 1, maxLength: 3 }), async (shapes) => {
      const sessions = shapes.map((shape, i) => session(`s${i}`, shape));
      const points = sweepPoints({ strategy: 'pi', vary: ['reserveTokens=1000..5000:3', 'keepRecentTokens=500..4000:2'] });
      const progress: number[] = [];
      const whole = await runSweep(sessions, { ...base, points, weights: DEFAULT_RETENTION_WEIGHTS, onProgress: (done, total) => progress.push(done / total) });
      expect(progress).toHaveLength(points.length * sessions.length);
      expect(progress.at(-1)).toBe(1);
      expect(await runSweep(sessions, { ...base, points, weights: DEFAULT_RETENTION_WEIGHTS })).toEqual(whole);
      // Each session on its own, the points in two halves, as threads or a page pool would run them.
      const half = Math.ceil(points.length / 2);
      const bySession = await Promise.all(sessions.map(async (s) => [...await sweepSession(s, points.slice(0, half), base), ...await sweepSession(s, points.slice(half), base)]));
      const split = assembleSweep({ strategy: 'pi', points, sessions: sessions.map((s) => s.name), figures: points.map((_, p) => bySession.map((row) => row[p]!)), weights: DEFAULT_RETENTION_WEIGHTS, contextWindow: WINDOW });
      expect(split).toEqual(whole);
      expect(whole.pareto).toEqual(paretoFront(whole.points));
      expect(whole.pareto).toContain(whole.recommended);
      // pi's own settings.json block carries the recommended values.
      const chosen = whole.points[whole.recommended]!.options;
      expect(whole.agentConfig?.agent).toBe('pi');
      expect(JSON.parse(whole.agentConfig!.text)).toEqual({ compaction: { enabled: true, reserveTokens: chosen.reserveTokens, keepRecentTokens: chosen.keepRecentTokens } });
    }), { numRuns: 6 });
  }, 120_000);

  it('keeps a point whose replay failed off the front, naming the session and why', async () => {
    const s = session('a.jsonl#2', [{ tools: 3, resultChars: 6000 }, { tools: 3, resultChars: 6000 }, { tools: 3, resultChars: 6000 }]);
    const points = sweepPoints({ strategy: 'pi', vary: ['reserveTokens=2000,4000'], base: { keepRecentTokens: 1000 } });
    const result = await runSweep([s], { ...base, summarizer: failingSummarizer(new Error('model unreachable')), points, weights: DEFAULT_RETENTION_WEIGHTS });
    expect(result.points[0]!.errors?.[0]).toBe('a.jsonl#2: Call 10: model unreachable');
    expect(result.pareto).toEqual([]);
    expect(result.recommended).toBe(-1);
    expect(result.reason).toBe('No point ran on every one of the 1 session, so none is recommended: see each point\'s errors.');
    expect(result.agentConfig).toBeUndefined();
  });

  it('estimates the time left from the pace so far', () => {
    expect(etaMs(0, 10, 500)).toBeUndefined();
    expect(etaMs(5, 20, 1000)).toBe(3000);
    expect(etaMs(20, 20, 1000)).toBe(0);
  });
});
