import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRepair, repairLayout, tileSpans, type TileRules } from './layout.ts';

function rules(levels: number[], phaseEnds: number[]): TileRules {
  const chunks = [Infinity, 5, 10, 50, 100];
  return { levels, chunk: (level) => chunks[level] ?? Infinity, phaseEnds: new Set(phaseEnds) };
}

describe('repairLayout', () => {
  it('gives the same tiling as tiling from scratch, keeping old blocks where nothing changed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 4 })), { maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (before, edits, extra, phase) => {
          const phaseEnds = phase.map((p) => p % (before.length + extra.length));
          const old = tileSpans(0, before.length - 1, rules(before, phaseEnds));
          const after = [...before, ...extra];
          const changed = new Set<number>();
          for (const [at, level] of edits) {
            const i = at % before.length;
            if (after[i] !== level) changed.add(i);
            after[i] = level;
          }
          const now = after.length - 1;
          const fresh = tileSpans(0, now, rules(after, phaseEnds));
          let made = 0;
          const repair = repairLayout(old, [...changed].sort((a, b) => a - b), now, rules(after, phaseEnds), (from, to) => {
            made++;
            return { from, to };
          });
          const blocks = applyRepair([...old], repair.edits);
          expect(blocks.map((b) => [b.from, b.to])).toEqual(fresh.map((b) => [b.from, b.to]));
          // Kept blocks are the old objects; everything else was made.
          const kept = blocks.filter((b) => old.includes(b));
          expect(kept.length + made).toBe(blocks.length);
          expect(repair.added.length).toBe(made);
          expect(new Set([...kept, ...repair.removed]).size).toBe(old.length);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('remakes only around a change', () => {
    const levels: number[] = Array.from({ length: 1000 }, (_, i) => (i < 900 ? 4 : 0));
    const old = tileSpans(0, 999, rules(levels, []));
    levels[953] = 1;
    levels[954] = 1;
    const made: number[][] = [];
    const repair = repairLayout(old, [953, 954], 999, rules(levels, []), (from, to) => {
      made.push([from, to]);
      return { from, to };
    });
    expect(made).toEqual([[900, 952], [953, 954], [955, 999]]);
    expect(repair.edits).toHaveLength(1);
    expect(applyRepair([...old], repair.edits).slice(0, 9)).toEqual(old.slice(0, 9));
  });
});
