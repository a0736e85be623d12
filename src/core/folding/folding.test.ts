import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeEntries, type Spec } from '../compaction/testing.ts';
import { OptionError } from '../compaction/options.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { fnv1a64 } from '../hash.ts';
import { foldEvery, importance, importanceFactors, levelFor } from './importance.ts';
import { toIterations } from './iterations.ts';
import { DEFAULT_FOLD_OPTIONS, parseFoldOptions } from './options.ts';
import { queryHistory, unfold, UnfoldError } from './recall.ts';
import { foldRun } from './run.ts';
import { toTimelineData } from './timeline.ts';

const counter = getEstimator('chars4');

/** A run of `n` iterations: each reads or edits one of a few files; iteration 0 is a user request. */
function session(n: number, options: { big?: number; error?: number; phaseAt?: number; mention?: number } = {}): Spec[] {
  const specs: Spec[] = [{ user: 'Please refactor the billing module and keep tests passing.' }];
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 25 === 0) specs.push({ user: `Next request number ${i}: continue with the parser.` });
    const file = i === options.mention ? 'src/alpha.ts' : `src/file${i % 7}.ts`;
    const said = i === options.phaseAt ? 'Phase 1 completed, moving to the next step.' : `Step ${i}: working on ${file}.`;
    specs.push({ assistant: said, calls: [{ id: `c${i}`, name: i % 3 === 0 ? 'Edit' : 'Read', input: { file_path: i < 3 ? 'src/alpha.ts' : file } }] });
    specs.push({ tool: `${'line of output\n'.repeat(i === options.big ? 2000 : 40)}done`, callId: `c${i}`, error: i === options.error });
  }
  return specs;
}

function counted(specs: Spec[]) {
  const entries = makeEntries(specs);
  return { entries, counts: countEntries(entries, counter).totals };
}

describe('iterations', () => {
  it('one per model call with its results; a user message opens one and its answer joins it', () => {
    const entries = makeEntries([
      { system: 'sys' },
      { user: 'hi' },
      { assistant: 'a', calls: [{ id: 'x', name: 'Read', input: { file_path: 'a' } }] },
      { tool: 'r', callId: 'x' },
      { assistant: 'b', calls: [{ id: 'y', name: 'Read', input: { file_path: 'b' } }] },
      { tool: 'r', callId: 'y' },
      { assistant: 'done' },
      { user: 'again' },
      { assistant: 'ok' },
    ]);
    expect(toIterations(entries).map((it) => [it.from, it.to, it.userTurn])).toEqual([
      [0, 0, false], [1, 3, true], [4, 5, false], [6, 6, false], [7, 8, true],
    ]);
  });
});

describe('hash', () => {
  it('is FNV-1a 64', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
});

describe('options', () => {
  it('has the seed defaults and refuses bad values', () => {
    expect(DEFAULT_FOLD_OPTIONS).toMatchObject({ l0Distance: 5, l1Distance: 20, l2Distance: 50, l3Distance: 80, pressureRatio: 0.8, criticalRatio: 0.9, everyLow: 50, everyMedium: 20, everyHigh: 5, weightRecency: 0.3, weightAccess: 0.3, weightError: 0.2, weightState: 0.2, recallImportance: 0.7, workingShare: 0.3 });
    expect(parseFoldOptions({ bookmarks: '3, 7' }).bookmarks).toEqual([3, 7]);
    expect(() => parseFoldOptions({ l1Distance: '2' })).toThrow(OptionError);
    expect(() => parseFoldOptions({ nope: '1' })).toThrow(/Unknown option/);
    expect(() => parseFoldOptions({ bookmarks: 'x' })).toThrow(/bookmarks/);
  });
});

describe('importance, distance, frequency', () => {
  it('applies the weights', () => {
    fc.assert(fc.property(
      fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 10 }),
      (wr, wa, we, ws, to, access, errors, changed) => {
        const f = importanceFactors(to, 100, access, errors, changed, 5);
        const value = importance(f, { weightRecency: wr, weightAccess: wa, weightError: we, weightState: ws });
        expect(value).toBeCloseTo(wr * (to / 100) + wa * (1 - 1 / (1 + access)) + we * (errors > 0 ? 1 : 0) + ws * Math.min(1, changed / 5), 9);
      },
    ));
    expect(importance(importanceFactors(100, 100, 0, 1, 5, 5), DEFAULT_FOLD_OPTIONS)).toBeCloseTo(0.7);
  });

  it('maps distances to levels with the seed thresholds', () => {
    expect([0, 5, 6, 20, 21, 50, 51, 80, 81].map((d) => levelFor(d, DEFAULT_FOLD_OPTIONS))).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4]);
  });

  it('adapts the folding frequency to the pressure', () => {
    expect([0, 0.49, 0.5, 0.8, 0.81, 0.95].map((p) => foldEvery(p, DEFAULT_FOLD_OPTIONS))).toEqual([50, 50, 20, 20, 5, 5]);
    expect(foldEvery(0.95, { ...DEFAULT_FOLD_OPTIONS, adaptive: false })).toBe(20);
  });

  it('block importance in a run follows the weights', () => {
    const { entries, counts } = counted(session(60));
    const run = foldRun(entries, counts, { weightRecency: 1, weightAccess: 0, weightError: 0, weightState: 0 }, new Map(), counter);
    const last = run.iterations.length - 1;
    for (const block of run.blocks) expect(block.retrievability.importance).toBeCloseTo(1 - (last - block.to) / last, 3);
  });
});

describe('triggers', () => {
  it('folds periodically (every 50 under low pressure), semantically, and keeps the journal', () => {
    const { entries, counts } = counted(session(120, { phaseAt: 30 }));
    const before = structuredClone(entries);
    const run = foldRun(entries, counts, { contextWindow: 1_000_000 }, new Map(), counter);
    expect(entries).toEqual(before);
    const folds = run.events.filter((e) => e.trigger === 'periodic' || e.trigger === 'semantic');
    expect(folds.find((e) => e.trigger === 'semantic')?.iteration).toBe(30);
    const periodic = folds.filter((e) => e.trigger === 'periodic').map((e) => e.iteration);
    expect(periodic[0]).toBe(80);
    for (const e of folds) expect(e.numbers.every).toBe(50);
  });

  it('folds under pressure and folds the oldest L1 at once above 90%', () => {
    const { entries, counts } = counted(session(80, { big: 60 }));
    const run = foldRun(entries, counts, { contextWindow: 9000, keyMoments: false }, new Map(), counter);
    const critical = run.events.filter((e) => e.trigger === 'critical');
    expect(critical.length).toBeGreaterThan(0);
    expect(critical[0]!.action).toBe('fold-oldest-l1');
    expect(critical[0]!.numbers.pressure).toBeGreaterThan(0.9);
    for (const e of run.events.filter((x) => x.trigger === 'pressure')) expect(e.numbers.pressure).toBeGreaterThan(0.8);
    expect(run.tokensAfter).toBeLessThan(run.tokensBefore);
  });

  it('keeps key moments and bookmarks at L0', () => {
    const { entries, counts } = counted(session(100, { error: 10 }));
    const run = foldRun(entries, counts, { bookmarks: [40] }, new Map(), counter);
    expect(run.moments.find((m) => m.kind === 'error')?.iteration).toBe(10);
    expect(run.levels[10]).toBe(0);
    expect(run.levels[40]).toBe(0);
    expect(run.levels[20]).toBeGreaterThan(0);
  });
});

describe('recall, cache, unfold, timeline', () => {
  it('recalls implicitly a folded block above the importance bar when its file is mentioned again, then fades', () => {
    const { entries, counts } = counted(session(90, { mention: 70 }));
    const run = foldRun(entries, counts, { recallImportance: 0, fadeAfter: 5 }, new Map(), counter);
    const recall = run.events.find((e) => e.trigger === 'recall-implicit' && e.iteration === 70);
    expect(recall?.action).toBe('recall');
    expect(run.events.some((e) => e.action === 'fade' && e.blockId === recall?.blockId && e.iteration === 75)).toBe(true);
    const none = foldRun(entries, counts, { recallImportance: 1 }, new Map(), counter);
    expect(none.events.some((e) => e.trigger === 'recall-implicit')).toBe(false);
  });

  it('puts the blocks still in the retrieved zone at the end of the run on the timeline', () => {
    const { entries, counts } = counted(session(72, { mention: 70 }));
    const run = foldRun(entries, counts, { recallImportance: 0, fadeAfter: 5 }, new Map(), counter);
    const recall = run.events.find((e) => e.trigger === 'recall-implicit' && e.action === 'recall' && e.iteration === 70);
    expect(recall).toBeDefined();
    const data = toTimelineData(run);
    expect(data.retrieved.length).toBe(run.retrieved.length);
    const shown = data.retrieved.find((r) => r.blockId === recall?.blockId);
    expect(shown).toMatchObject({ since: 70, until: 75, trigger: 'recall-implicit' });
    expect(shown!.from).toBeLessThanOrEqual(shown!.to);
    expect(toTimelineData(foldRun(entries, counts, { recallImportance: 1 }, new Map(), counter)).retrieved).toEqual([]);
  });

  it('query_history finds blocks by entity and keyword; unfold returns the exact entries', () => {
    const { entries, counts } = counted(session(90));
    const run = foldRun(entries, counts, {}, new Map(), counter);
    const hits = queryHistory(run, 'alpha.ts');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.block.entities).toContain('src/alpha.ts');
    const block = hits[0]!.block;
    expect(unfold(block, entries)).toEqual(entries.slice(block.entryFrom, block.entryTo + 1));
    expect(() => unfold({ id: 'x', entryFrom: 0, entryTo: entries.length }, entries)).toThrow(UnfoldError);
  });

  it('reuses cached summaries for the same source ranges', () => {
    const { entries, counts } = counted(session(90));
    const first = foldRun(entries, counts, {}, new Map(), counter);
    expect(first.summariesMade).toBe(first.cache.size);
    const second = foldRun(entries, counts, {}, first.cache, counter);
    expect(second.summariesMade).toBe(0);
    expect(second.blocks.map((b) => b.text)).toEqual(first.blocks.map((b) => b.text));
  });

  it('produces timeline data with one level per iteration and six zones', () => {
    const { entries, counts } = counted(session(120));
    const run = foldRun(entries, counts, {}, new Map(), counter);
    const data = toTimelineData(run);
    expect(data.iterations).toBe(run.iterations.length);
    expect(data.levels).toHaveLength(run.iterations.length);
    expect(data.partitions.map((p) => p.zone)).toEqual(['static', 'working', 'short-term', 'long-term', 'retrieved', 'dynamic']);
    expect(data.blocks.filter((b) => b.depth === 0)).toHaveLength(run.blocks.length);
    expect(Math.max(...data.levels)).toBe(4);
  });
});
