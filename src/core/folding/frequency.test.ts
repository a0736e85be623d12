import { describe, expect, it } from 'vitest';
import type { FoldEvent } from './types.ts';
import { foldRun } from './run.ts';
import { counted, stepEntries, testCounter } from './testing.ts';

/**
 * A run whose context only grows: nothing folds by distance and no zone budget binds, so the
 * pressure climbs through every band (< 50%, 50-80%, 80-90%, > 90%) and each fold shows the
 * interval its band asked for.
 */
function climbing(window: number) {
  const { entries, counts } = counted(stepEntries(Array.from({ length: 260 }, (_, i) => ({ file: `src/f${i}.ts`, lines: 20 }))));
  const far = 1_000_000;
  return foldRun(entries, counts, {
    contextWindow: window, l0Distance: far, l1Distance: far, l2Distance: far, l3Distance: far,
    workingShare: 1, shortTermShare: 1, longTermShare: 1, keyMoments: false, semantic: false, touchNear: 0,
  }, new Map(), testCounter);
}

const band = (pressure: number) => (pressure < 0.5 ? 'low' : pressure <= 0.8 ? 'medium' : pressure <= 0.9 ? 'high' : 'critical');

describe('adaptive folding frequency (F4), replayed', () => {
  const run = climbing(22_000);
  const folds = run.events.filter((e) => ['periodic', 'pressure', 'critical'].includes(e.trigger));

  it('every band is reached, each with its own interval', () => {
    const periodic = folds.filter((e) => e.trigger === 'periodic');
    const byBand = (name: string) => periodic.filter((e) => band(e.numbers.pressure!) === name);
    expect(byBand('low').length).toBeGreaterThan(0);
    expect(byBand('medium').length).toBeGreaterThan(0);
    expect(byBand('high').length).toBeGreaterThan(0);
    for (const e of byBand('low')) expect(e.numbers.every).toBe(50);
    for (const e of byBand('medium')) expect(e.numbers.every).toBe(20);
    for (const e of byBand('high')) expect(e.numbers.every).toBe(5);
    expect(folds.some((e) => e.trigger === 'critical' && e.action === 'fold-oldest-l1' && e.numbers.pressure! > 0.9)).toBe(true);
  });

  it('a periodic fold comes exactly its interval after the previous fold while the band holds', () => {
    let previous: FoldEvent | undefined;
    let exact = 0;
    for (const e of folds) {
      if (e.trigger === 'periodic' && previous) {
        expect(e.iteration - previous.iteration).toBeGreaterThanOrEqual(e.numbers.every!);
        if (band(previous.numbers.tokensAfter! / previous.numbers.window!) === band(e.numbers.pressure!)) {
          expect(e.iteration - previous.iteration).toBe(e.numbers.every);
          exact++;
        }
      }
      previous = e;
    }
    expect(exact).toBeGreaterThanOrEqual(3);
  });

  it('the pressure trigger fires when the context crosses 80%, not at every iteration above it', () => {
    const pressure = folds.filter((e) => e.trigger === 'pressure');
    expect(pressure.length).toBeGreaterThan(0);
    for (const e of pressure) {
      expect(e.numbers.pressure).toBeGreaterThan(0.8);
      expect(e.numbers.pressure).toBeLessThanOrEqual(0.9);
      // The fold before it left the context at or under 80%.
      const before = folds.filter((f) => f.iteration < e.iteration).at(-1);
      if (before) expect(before.numbers.tokensAfter! / before.numbers.window!).toBeLessThanOrEqual(0.8);
    }
    const high = folds.filter((e) => band(e.numbers.pressure!) === 'high');
    expect(high.filter((e) => e.trigger === 'periodic').length).toBeGreaterThan(pressure.length);
  });
});
