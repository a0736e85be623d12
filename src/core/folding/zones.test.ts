import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_OPTIONS } from './options.ts';
import { foldRun } from './run.ts';
import { counted, stepEntries, stepper, testCounter } from './testing.ts';
import type { ZoneId, ZoneUsage } from './types.ts';

const far = 1_000_000;
/** Distance never folds and a fold runs at every iteration: only the zone budgets move content. */
const BUDGETS_ONLY = { l0Distance: far, l1Distance: far, l2Distance: far, l3Distance: far, everyLow: 1, everyMedium: 1, everyHigh: 1, keyMoments: false, semantic: false, touchNear: 0 };

function zone(partitions: readonly ZoneUsage[], id: ZoneId): ZoneUsage {
  return partitions.find((p) => p.zone === id)!;
}

describe('window zones and flows (F6)', () => {
  it('each zone has its share of the window as budget (the seed: 10/30/20/20/10/10)', () => {
    const { entries, counts } = counted(stepEntries(Array.from({ length: 30 }, (_, i) => ({ file: `src/f${i}.ts` }))));
    for (const window of [20_000, 100_000, 1_000_000]) {
      const run = foldRun(entries, counts, { contextWindow: window }, new Map(), testCounter);
      expect(run.partitions.map((p) => [p.zone, p.budget])).toEqual([
        ['static', window * 0.1], ['working', window * 0.3], ['short-term', window * 0.2], ['long-term', window * 0.2], ['retrieved', window * 0.1], ['dynamic', window * 0.1],
      ]);
    }
    const o = DEFAULT_FOLD_OPTIONS;
    expect(o.staticShare + o.workingShare + o.shortTermShare + o.longTermShare + o.retrievedShare + o.dynamicShare).toBeCloseTo(1, 9);
    const custom = foldRun(entries, counts, { contextWindow: 50_000, workingShare: 0.5, shortTermShare: 0.1 }, new Map(), testCounter);
    expect(zone(custom.partitions, 'working').budget).toBe(25_000);
    expect(zone(custom.partitions, 'short-term').budget).toBe(5_000);
  });

  it('after every fold, working and short-term memory are within budget, long-term too while anything can still fold', () => {
    const { entries, counts } = counted(stepEntries(Array.from({ length: 220 }, (_, i) => ({ file: `src/f${i}.ts`, lines: 20 }))));
    const { session, next } = stepper(entries, counts, { ...BUDGETS_ONLY, contextWindow: 6_000 });
    let checked = 0;
    while (next()) {
      const now = session.iterations - 1;
      if (!session.events.some((e) => e.iteration === now && e.action !== 'near' && !e.trigger.startsWith('recall') && e.trigger !== 'fade')) continue;
      const run = session.snapshot();
      const current = run.iterations[now]!;
      let own = 0;
      for (let p = current.from; p <= current.to; p++) own += counts[p]!;
      // The iteration being folded at is never folded itself.
      expect(zone(run.partitions, 'working').tokens).toBeLessThanOrEqual(zone(run.partitions, 'working').budget + own);
      expect(zone(run.partitions, 'short-term').tokens).toBeLessThanOrEqual(zone(run.partitions, 'short-term').budget);
      const foldable = [...run.levels.slice(0, now)].some((level) => level === 2 || level === 3);
      if (foldable) expect(zone(run.partitions, 'long-term').tokens).toBeLessThanOrEqual(zone(run.partitions, 'long-term').budget);
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });

  it('content flows working -> short-term -> long-term -> phase synthesis, oldest first', () => {
    const { entries, counts } = counted(stepEntries(Array.from({ length: 400 }, (_, i) => ({ file: `src/f${i}.ts`, edit: i % 4 === 0, lines: 20 }))));
    const { session, next } = stepper(entries, counts, { ...BUDGETS_ONLY, contextWindow: 4_000 });
    /** Levels iteration 5 went through, in order. */
    const path: number[] = [];
    const seen = new Set<number>();
    while (next()) {
      for (const level of session.levels) seen.add(level);
      const level = session.levels[5];
      if (level !== undefined && path.at(-1) !== level) path.push(level);
    }
    // Never back, and all the way (a fold may move it more than one zone when several are full).
    expect(path[0]).toBe(0);
    expect(path.at(-1)).toBe(4);
    for (let k = 1; k < path.length; k++) expect(path[k]!).toBeGreaterThan(path[k - 1]!);
    const run = session.snapshot();
    // Oldest first: levels never rise from older to newer.
    for (let i = 1; i < run.levels.length; i++) expect(run.levels[i]!).toBeLessThanOrEqual(run.levels[i - 1]!);
    expect(seen).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(run.levels[0]).toBe(4);
    // The phase line says what the phase did, from its chapters' facts.
    const phase = run.blocks.find((b) => b.level === 4)!;
    expect(phase.type).toBe('phase');
    expect(phase.text).toMatch(/^\[iterations \d+-\d+\] Refactor the billing module and keep tests passing: read \d+ files \(f\d+\.ts, f\d+\.ts, f\d+\.ts, …\), edited \d+ files/);
    expect(phase.children.length).toBeGreaterThan(1);
    for (const chapter of phase.children) expect(chapter.level).toBe(3);
  });
});
