import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dominates, paretoFront } from './pareto.ts';
import { recommend } from './recommend.ts';
import type { SweepPoint } from './types.ts';

const categories = { artifact: { kept: 0, total: 0 }, constraint: { kept: 0, total: 0 }, task: { kept: 0, total: 0 }, error: { kept: 0, total: 0 }, identifier: { kept: 0, total: 0 }, decision: { kept: 0, total: 0 } };

/** Points on a coarse grid, so equal figures (ties) are frequent; some overflow, some failed. */
const point = fc.record({
  ratio: fc.integer({ min: 1, max: 8 }),
  retention: fc.integer({ min: 0, max: 8 }),
  overflowCalls: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 3 })),
  failed: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  value: fc.integer({ min: 0, max: 100_000 }),
}).map(({ ratio, retention, overflowCalls, failed, value }): SweepPoint => ({
  options: { keepRecentTokens: value },
  tokensPerTask: ratio * 1000,
  ratioToUncompacted: ratio / 8,
  retention: retention / 8,
  probes: categories,
  overflowCalls,
  compactions: 1,
  ...(failed ? { errors: ['a.jsonl: the summarizer failed'] } : {}),
}));
const points = fc.array(point, { minLength: 1, maxLength: 25 });

describe('paretoFront', () => {
  it('holds no dominated point and misses no undominated one', () => {
    fc.assert(fc.property(points, (list) => {
      const front = new Set(paretoFront(list));
      list.forEach((p, i) => {
        const complete = !p.errors;
        const dominated = list.some((q, j) => j !== i && !q.errors && dominates(q, p));
        expect(front.has(i)).toBe(complete && !dominated);
      });
    }));
  });

  it('keeps overflowing points off the front while some point does not overflow, and draws it among them when all do', () => {
    fc.assert(fc.property(points, (list) => {
      const complete = list.filter((p) => !p.errors);
      const anyClean = complete.some((p) => p.overflowCalls === 0);
      for (const i of paretoFront(list)) expect(list[i]!.overflowCalls === 0).toBe(anyClean);
      if (complete.length > 0) expect(paretoFront(list).length).toBeGreaterThan(0);
    }));
  });

  it('is sorted by increasing ratio and the same for the same input', () => {
    fc.assert(fc.property(points, (list) => {
      const front = paretoFront(list);
      for (let k = 1; k < front.length; k++) expect(list[front[k]!]!.ratioToUncompacted).toBeGreaterThanOrEqual(list[front[k - 1]!]!.ratioToUncompacted);
      expect(paretoFront(structuredClone(list))).toEqual(front);
    }));
  });
});

describe('recommend', () => {
  it('picks a front point within the tolerance of the best retention, the cheapest such, overflowing only when all do', () => {
    fc.assert(fc.property(points, fc.constantFrom(0, 0.02, 0.2), (list, tolerance) => {
      const { index, pareto, reason } = recommend(list, { sessions: 3, tolerance });
      const complete = list.filter((p) => !p.errors);
      if (complete.length === 0) {
        expect(index).toBe(-1);
        expect(reason).toMatch(/none is recommended/);
        return;
      }
      expect(pareto).toContain(index);
      const chosen = list[index]!;
      const candidates = pareto.map((i) => list[i]!);
      const best = Math.max(...candidates.map((p) => p.retention));
      expect(chosen.retention).toBeGreaterThanOrEqual(best - tolerance - 1e-9);
      for (const p of candidates) if (p.retention >= best - tolerance - 1e-9) expect(chosen.ratioToUncompacted).toBeLessThanOrEqual(p.ratioToUncompacted);
      expect(chosen.overflowCalls === 0).toBe(complete.some((p) => p.overflowCalls === 0));
      expect(recommend(structuredClone(list), { sessions: 3, tolerance }).index).toBe(index);
    }));
  });

  it('says why in one sentence with its numbers', () => {
    const make = (keepRecentTokens: number, ratio: number, retention: number, overflowCalls = 0): SweepPoint => ({
      options: { enabled: true, reserveTokens: 16384, keepRecentTokens }, tokensPerTask: ratio * 1e5, ratioToUncompacted: ratio, retention, probes: categories, overflowCalls, compactions: 2,
    });
    const list = [make(2000, 0.2, 0.7, 4), make(8000, 0.42, 0.9), make(20000, 0.8, 0.93), make(30000, 0.9, 0.93)];
    const { index, pareto, reason } = recommend(list, { sessions: 12 });
    expect(pareto).toEqual([1, 2]);
    expect(index).toBe(2);
    expect(reason).toBe('keepRecentTokens=20000 keeps the best retention 0.93 at 0.80x the uncompacted tokens per task, with no overflowing call, over 12 sessions.');
    const wide = recommend(list, { sessions: 12, tolerance: 0.05 });
    expect(wide.index).toBe(1);
    expect(wide.reason).toBe('keepRecentTokens=8000 keeps retention 0.90 against the best 0.93 at 0.42x the uncompacted tokens per task, with no overflowing call, over 12 sessions.');
    const close = recommend([make(8000, 0.42, 0.9912), make(20000, 0.8, 0.9931)], { sessions: 2 });
    expect(close.reason).toBe('keepRecentTokens=8000 keeps retention 0.991 against the best 0.993 at 0.42x the uncompacted tokens per task, with no overflowing call, over 2 sessions.');
    const allOver = recommend([make(2000, 0.2, 0.7, 4), make(8000, 0.3, 0.75, 1)], { sessions: 1 });
    expect(allOver.reason).toBe('keepRecentTokens=8000 keeps the best retention 0.75 at 0.30x the uncompacted tokens per task, with 1 overflowing call (every point overflows), over 1 session.');
  });

  it('refuses a tolerance outside 0..1', () => {
    expect(() => recommend([], { sessions: 1, tolerance: 2 })).toThrow('The retention tolerance must be from 0 to 1; got 2.');
  });
});
