import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { importFile, loadPrompts } from '../test-fixtures.ts';
import { OptionError } from '../compaction/options.ts';
import { buildInput } from '../compaction/input.ts';
import { makeInput } from '../compaction/testing.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { toIterations } from '../folding/iterations.ts';
import { FoldSession } from '../folding/session.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { findCalls } from './calls.ts';
import { compareConfigs } from './compare.ts';
import { foldReplayOptions } from './config-options.ts';
import { replayFolding } from './folding-replay.ts';
import { scoreOf } from './scoring.ts';
import { agentSession } from './testing.ts';
import type { ReplayResult } from './types.ts';
import { CancelledError } from '../cancel.ts';

const CLAUDE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';
const WINDOW = 32_000;
const counter = getEstimator('chars4');
const folding = { strategy: 'folding', options: {} };

let journal: Entry[];
let totals: ArrayLike<number>;
let input: CompactionInput;
let full: ReplayResult;

beforeAll(async () => {
  journal = (await importFile(CLAUDE)).entries;
  totals = countEntries(journal, counter).totals;
  input = buildInput(journal, totals, counter, { contextWindow: WINDOW, now: 0 }).input;
  full = await replayFolding({ input, config: folding });
}, 60_000);

const series = (result: ReplayResult) => result.calls.map((c) => [c.entryIndex, c.contextTokens, c.compacted, c.overflow]);

describe('replayFolding on a real Claude Code session', () => {
  it('sends one context per call, and each fold that raised levels is a compaction with its trigger, digests and what it replaced', () => {
    expect(full.error).toBeUndefined();
    expect(full.calls).toHaveLength(findCalls(input.entries).length);
    expect(full.calls).toHaveLength(105);
    expect(full.compactions.length).toBeGreaterThan(0);
    for (const compaction of full.compactions) {
      const call = full.calls[compaction.call]!;
      expect(call.compacted).toBe(true);
      expect(call.cachedTokens).toBe(0);
      expect(compaction.trigger.fire).toBe(true);
      expect(compaction.trigger.rule.split('+').every((rule) => ['pressure', 'critical', 'periodic', 'semantic'].includes(rule))).toBe(true);
      expect(compaction.trigger.numbers.foldedIterations).toBeGreaterThan(0);
      expect(compaction.tokensAfter).toBe(call.contextTokens);
      expect(compaction.record).toMatchObject({ strategy: 'folding', summarizer: 'offline', summary_usage: { input: 0, output: 0 } });
      expect(compaction.appendFrom).toBeLessThanOrEqual(call.entryIndex);
    }
    // Folds shrink the context (one may not: a recall or an iteration brought nearer in the same step can outweigh it).
    expect(full.compactions.filter((c) => c.tokensAfter < c.tokensBefore).length).toBeGreaterThan(full.compactions.length / 2);
    expect(full.compactions.reduce((sum, c) => sum + c.tokensBefore - c.tokensAfter, 0)).toBeGreaterThan(0);
    // The digests the folds made are their summaries, and each summary is shown in the context after it.
    const summaries = full.compactions.flatMap((c) => Object.values(c.summaries));
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((text) => /^(Summary|Chapter) \(iteration|^\[iteration/.test(text))).toBe(true);
    for (const compaction of full.compactions) {
      const shown = new Set(compaction.context!.flatMap((ref) => (ref.origin === 'summary' ? [entryText(ref.entry)] : [])));
      for (const text of Object.values(compaction.summaries)) expect(shown.has(text)).toBe(true);
    }
    expect(full.compactions.some((c) => c.removedIds.length > 0)).toBe(true);
    expect(full.totals.summarizerTokens).toEqual({ input: 0, output: 0 });
    expect(full.totals.tokensPerTask).toBe(full.calls.reduce((sum, c) => sum + c.contextTokens, 0));
    expect(full.notes[0]).toMatch(/offline digests.*summarizer tokens are 0.*not used in a replay/);
  });

  it('keeps every call within the window, or says why it did not', () => {
    for (const call of full.calls) {
      expect(call.overflow).toBe(call.contextTokens > WINDOW);
      if (call.overflow) expect(call.note, `call ${call.call}`).toMatch(/> window 32,000: /);
    }
    // Without folding the session would pass the window many times over.
    expect(full.calls.filter((c) => input.tokens.range(0, c.entryIndex - 1) > WINDOW).length).toBeGreaterThan(50);
    expect(full.totals.overflowCalls).toBeLessThanOrEqual(2);
  });

  it('the context listed at each fold holds journal entries of the session, and its tokens are the call’s', () => {
    const ids = new Set(input.entries.map((e) => e.id));
    for (const compaction of full.compactions) {
      let tokens = input.tokens.range(compaction.appendFrom, full.calls[compaction.call]!.entryIndex - 1);
      for (const ref of compaction.context!) {
        if (ref.origin === 'journal') {
          expect(ids.has(ref.entryId)).toBe(true);
          tokens += input.tokens.countAt(input.entries.findIndex((e) => e.id === ref.entryId));
        } else tokens += countEntries([ref.entry], counter).totals[0]!;
      }
      // Made entries are counted as whole messages here, their text alone by the fold.
      expect(Math.abs(tokens - compaction.tokensAfter) / compaction.tokensAfter).toBeLessThan(0.05);
    }
  });

  it('scores the probes of the entries that left the verbatim context, as the other replays do', () => {
    const removed = new Set(full.compactions.flatMap((c) => c.removedIds));
    expect(full.probes.length).toBeGreaterThan(0);
    for (const outcome of full.probes) expect(removed.has(outcome.probe.entryId)).toBe(true);
    expect(full.scores).toEqual(scoreOf(full.probes));
    expect(full.compactionScores).toEqual(scoreOf(full.compactions.flatMap((c) => c.probes)));
    expect(full.scores.artifact.total).toBeGreaterThan(0);
    // Each compaction checks its probes against the context right after it.
    for (const compaction of full.compactions) for (const outcome of compaction.probes) expect(compaction.removedIds).toContain(outcome.probe.entryId);
  });

  it('same input, same series; the replay of the first k calls is the prefix of the full replay', async () => {
    const again = await replayFolding({ input, config: folding });
    expect(series(again)).toEqual(series(full));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: full.calls.length }), async (k) => {
        const part = await replayFolding({ input, config: folding, calls: k });
        expect(series(part)).toEqual(series(full).slice(0, k));
        expect(part.compactions.map((c) => [c.call, c.tokensBefore, c.tokensAfter, c.removedIds])).toEqual(full.compactions.filter((c) => c.call < k).map((c) => [c.call, c.tokensBefore, c.tokensAfter, c.removedIds]));
      }),
      { numRuns: 6 },
    );
  }, 120_000);
});

describe('replayFolding invariants on generated sessions', () => {
  const turns = fc.array(fc.record({ tools: fc.integer({ min: 0, max: 4 }), resultChars: fc.integer({ min: 50, max: 6000 }) }), { minLength: 1, maxLength: 12 });

  it('prefix of the replay, same series twice, no overflow without a reason, the system prompt always sent', async () => {
    await fc.assert(
      fc.asyncProperty(turns, fc.integer({ min: 1, max: 60 }), async (shape, cut) => {
        const entries = agentSession(shape);
        const generated = makeInput(entries, { contextWindow: 12_000 });
        const whole = await replayFolding({ input: generated, config: folding });
        expect(whole.calls).toHaveLength(findCalls(entries).length);
        expect(series(await replayFolding({ input: generated, config: folding }))).toEqual(series(whole));
        const k = Math.min(cut, whole.calls.length);
        expect(series(await replayFolding({ input: generated, config: folding, calls: k }))).toEqual(series(whole).slice(0, k));
        for (const call of whole.calls) if (call.overflow) expect(call.note).toBeTruthy();
        for (const compaction of whole.compactions) {
          const first = compaction.context![0];
          expect(first?.origin === 'journal' && first.entryId === entries[0]!.id).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe('FoldSession.current', () => {
  it('gives, after every iteration, the tokens of the fold’s snapshot (what each call is sent, before the iteration in progress)', () => {
    const session = new FoldSession(foldReplayOptions({}, WINDOW), new Map(), counter);
    const counts = Array.from({ length: input.entries.length }, (_, i) => input.tokens.countAt(i));
    for (const it of toIterations(input.entries)) {
      session.push(input.entries.slice(it.from, it.to + 1), counts.slice(it.from, it.to + 1));
      const now = session.current();
      const snapshot = session.snapshot();
      expect(now.tokens).toBe(snapshot.tokensAfter);
      expect(now.blocks().map((b) => [b.from, b.to, b.level])).toEqual(snapshot.blocks.map((b) => [b.from, b.to, b.level]));
    }
  });
});

describe('folding configurations', () => {
  it('the fold’s window follows the replay’s unless the configuration sets it; a bad option is named', () => {
    expect(foldReplayOptions({}, 50_000).contextWindow).toBe(50_000);
    expect(foldReplayOptions({ contextWindow: '100000', l0Distance: '' }, 50_000)).toMatchObject({ contextWindow: 100_000, l0Distance: 5 });
    expect(() => foldReplayOptions({ l0Distance: 'x' }, 50_000)).toThrow(OptionError);
    expect(() => foldReplayOptions({ l0Distance: '30', l1Distance: '10' }, 50_000)).toThrow(/must not decrease/);
  });

  it('its iterations are the fold tab’s: a call between two folds is sent the fold plus the iteration in progress', () => {
    const iterations = toIterations(input.entries);
    for (const compaction of full.compactions) {
      expect(iterations.some((it) => it.from === compaction.appendFrom)).toBe(true);
    }
  });

  it('a cancel stops the folding replay', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(replayFolding({ input, config: folding, signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('compares folding with pi on the same session: same calls, each with its own compactions and scores', async () => {
    const output = await compareConfigs({
      journal, totals, counter, contextWindow: WINDOW, summarizer: createOfflineSummarizer(), prompts: loadPrompts(), priceModel: 'claude-sonnet-4-5',
      configs: [{ strategy: 'pi', options: {} }, { strategy: 'folding', options: { everyLow: '30' } }, { strategy: 'folding', options: { l0Distance: 'x' } }],
    });
    const [pi, fold, bad] = output.results;
    expect(output.calls).toBe(105);
    expect(pi!.calls).toHaveLength(105);
    expect(fold!.calls).toHaveLength(105);
    expect(fold!.label).toBe('folding (everyLow=30)');
    expect(fold!.error).toBeUndefined();
    expect(fold!.compactions.length).toBeGreaterThan(0);
    expect(fold!.totals.cost).toBeGreaterThan(0);
    expect(fold!.totals.tokensPerTask).toBeLessThan(input.tokens.total * 105);
    expect(pi!.totals.summarizerTokens.input).toBeGreaterThan(0);
    expect(bad!.error).toMatch(/l0Distance/);
    expect(bad!.calls).toHaveLength(0);
  }, 60_000);
});
