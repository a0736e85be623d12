import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldRun } from './run.ts';
import { counted, stepEntries, stepper, testCounter, type Step } from './testing.ts';

/** Iteration 1 edits config.ts, the next ones each touch a file of their own, then config.ts is touched again. */
function touchedAgain(again = 83, length = again + 5): Step[] {
  return Array.from({ length }, (_, i) => ({ file: i === 1 || i === again ? 'src/config.ts' : `src/file${i}.ts`, edit: i === 1 }));
}

/** No budget binds, and levels are brought up to date at every iteration. */
const FAR = { contextWindow: 10_000_000, keyMoments: false, everyLow: 1 };

describe('distance from state (F2)', () => {
  it('touching a file again brings its folded history one level nearer, and it folds again with distance', () => {
    const at = 83;
    const { entries, counts } = counted(stepEntries(touchedAgain(at, at + 90)));
    const { session, next } = stepper(entries, counts, FAR);
    // Iteration 0 holds the user's request and step 0; iteration k runs step k.
    while (session.iterations < at) next();
    const before = session.levels[1]!;
    expect(before).toBe(4);
    next();
    expect(session.levels[1]).toBe(3);
    const near = session.events.find((e) => e.action === 'near' && e.iteration === at);
    expect(near).toMatchObject({ trigger: 'touch', iterations: [1] });
    // Its neighbours, which nothing touched again, stay where distance put them.
    expect(session.levels[2]).toBe(4);
    expect(session.snapshot().blocks.find((b) => b.from <= 1 && b.to >= 1)).toMatchObject({ level: 3, from: 1, to: 1 });
    // It ages from the touch: past l3Distance (80) after it, it is L4 again.
    while (session.iterations <= at + 80) next();
    expect(session.levels[1]).toBe(3);
    next();
    expect(session.levels[1]).toBe(4);
  });

  it('the option turns it off; a run with it differs from one without only around the touched file', () => {
    const { entries, counts } = counted(stepEntries(touchedAgain(86)));
    const on = foldRun(entries, counts, { ...FAR, touchNear: 3 }, new Map(), testCounter);
    const off = foldRun(entries, counts, { ...FAR, touchNear: 0 }, new Map(), testCounter);
    expect(off.events.some((e) => e.action === 'near')).toBe(false);
    expect(on.levels[1]).toBe(3);
    expect(off.levels[1]).toBe(4);
    expect([...on.levels].filter((_, i) => i !== 1)).toEqual([...off.levels].filter((_, i) => i !== 1));
  });

  it('a recalled block comes one level nearer, never nearer than L2', () => {
    const { entries, counts } = counted(stepEntries(Array.from({ length: 120 }, (_, i) => ({ file: `src/file${i}.ts` }))));
    const { session, next } = stepper(entries, counts, FAR);
    while (next());
    const run = session.snapshot();
    const block = run.blocks.find((b) => b.level === 4) ?? run.blocks.find((b) => b.level === 3);
    expect(block).toBeDefined();
    const levels = Array.from({ length: block!.to - block!.from + 1 }, (_, k) => session.levels[block!.from + k]!);
    const seen = session.events.length;
    expect(session.recallBlock(block!.id)).toBe(true);
    for (let i = block!.from; i <= block!.to; i++) expect(session.levels[i]).toBe(Math.max(2, levels[i - block!.from]! - 1));
    expect(session.events.slice(seen).map((e) => e.action)).toEqual(['near', 'recall']);
    expect(session.events[seen]).toMatchObject({ trigger: 'recall-explicit' });
    expect(session.snapshot().blocks.find((b) => b.from === block!.from)?.level).toBe(block!.level - 1);
    const l2 = run.blocks.find((b) => b.level === 2)!;
    const count = session.events.length;
    session.recallBlock(l2.id);
    expect(session.events.slice(count).some((e) => e.action === 'near')).toBe(false);
  });

  it('property: each touch brings exactly the latest folded iterations of the touched files one level nearer', () => {
    let brought = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ file: fc.integer({ min: 0, max: 6 }), edit: fc.boolean(), lines: fc.integer({ min: 1, max: 60 }) }), { minLength: 30, maxLength: 160 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (raw, l0Distance, touchNear) => {
          const steps = raw.map((s) => ({ file: `src/f${s.file}.ts`, edit: s.edit, lines: s.lines }));
          const { entries, counts } = counted(stepEntries(steps));
          const options = { ...FAR, l0Distance, l1Distance: l0Distance * 3, l2Distance: l0Distance * 6, l3Distance: l0Distance * 9, touchNear };
          const { session, next } = stepper(entries, counts, options);
          for (let t = 0; ; t++) {
            const before = [...session.levels];
            const seen = session.events.length;
            if (!next()) break;
            const files = session.infos[t]!.files;
            const expected = new Set<number>();
            for (const file of files) {
              const folded = before.map((_, i) => i).filter((i) => before[i]! >= 2 && session.infos[i]!.files.includes(file));
              for (const i of folded.slice(-touchNear)) expected.add(i);
            }
            const touched = session.events.slice(seen).filter((e) => e.action === 'near' && e.trigger === 'touch').flatMap((e) => e.iterations ?? []);
            expect(new Set(touched)).toEqual(expected);
            brought += touched.length;
            // Nearer than before, by one level, never nearer than L1 (no budget binds in this window).
            for (const i of touched) {
              expect(session.levels[i]).toBe(before[i]! - 1);
              expect(session.levels[i]).toBeGreaterThanOrEqual(1);
            }
          }
        },
      ),
      { numRuns: 25, seed: 7 },
    );
    expect(brought).toBeGreaterThan(50);
  });
});
