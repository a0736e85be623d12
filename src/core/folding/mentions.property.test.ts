// Implicit recall with sleeping blocks (mentions.ts) against the full recompute: a session whose
// mention index never puts a block to sleep looks every mentioned block up at every iteration, as
// the engine did before; both must give the same run, event for event, on random runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MentionIndex } from './mentions.ts';
import type { FoldSession } from './session.ts';
import { counted, stepEntries, stepper, type Step } from './testing.ts';

const FILES = ['src/billing/invoice.ts', 'src/billing/tax.ts', 'src/api/routes.ts', 'README.md', 'src/db/schema.ts', 'tests/invoice.test.ts'];

/** A mention index that never sleeps: every lookup sees every folded block (the full recompute). */
class FullIndex extends MentionIndex {
  override sleep(): void {}
}

function fullScan(session: FoldSession): FoldSession {
  (session as unknown as { index: MentionIndex }).index = new FullIndex();
  return session;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  file: fc.constantFrom(...FILES),
  edit: fc.boolean(),
  lines: fc.integer({ min: 1, max: 120 }),
  error: fc.boolean(),
  // Some steps mention another file in what the model says: implicit recall's input.
  said: fc.option(fc.constantFrom(...FILES).map((file) => `Looking back at ${file} now.`), { nil: undefined }),
  // Some fail on a file that is gone: error recall, which wakes the blocks it touches.
  missing: fc.option(fc.constantFrom(...FILES), { nil: undefined, freq: 4 }),
}).map(({ said, missing, ...step }) => ({
  ...step,
  ...(said === undefined ? {} : { said }),
  ...(missing === undefined ? {} : { error: true, output: `Error: ENOENT: no such file or directory, open '${missing}'` }),
}));

const optionsArb = fc.record({
  contextWindow: fc.integer({ min: 2_000, max: 12_000 }),
  recallImportance: fc.double({ min: 0.05, max: 0.7, noNaN: true }),
  weightRecency: fc.double({ min: 0, max: 1, noNaN: true }),
  weightAccess: fc.double({ min: 0, max: 1, noNaN: true }),
  fadeAfter: fc.integer({ min: 1, max: 12 }),
  // Short distances: blocks fold to L2-L4 (where recall looks) within a short run.
  l0Distance: fc.integer({ min: 1, max: 3 }),
  l1Distance: fc.integer({ min: 4, max: 8 }),
  l2Distance: fc.integer({ min: 9, max: 14 }),
  l3Distance: fc.integer({ min: 15, max: 30 }),
});

describe('implicit recall: sleeping blocks give the run the full recompute gives', () => {
  it('same levels, blocks, events and retrieved zone after every iteration', () => {
    let recalls = 0;
    let woken = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 30, maxLength: 120 }), optionsArb, (steps, options) => {
        const { entries, counts } = counted(stepEntries(steps));
        const fast = stepper(entries, counts, options);
        const full = stepper(entries, counts, options);
        fullScan(full.session);
        while (fast.next()) {
          full.next();
          expect(fast.session.events).toEqual(full.session.events);
        }
        const [a, b] = [fast.session.snapshot(), full.session.snapshot()];
        expect(a.levels).toEqual(b.levels);
        expect(a.blocks).toEqual(b.blocks);
        expect(a.retrieved).toEqual(b.retrieved);
        expect(a.tokensAfter).toBe(b.tokensAfter);
        recalls += a.events.filter((e) => e.trigger === 'recall-implicit').length;
        woken += a.events.filter((e) => e.trigger === 'recall-error').length;
      }),
      { numRuns: 60, seed: 25 },
    );
    // The runs recall by mention (the path under test is taken).
    expect(recalls).toBeGreaterThan(0);
    expect(woken).toBeGreaterThan(0);
  });
});
