/**
 * Budget's tier lists, grown with the branch, equal the lists made from the units split from
 * scratch at every length (tier rises included); and the cut read off their running sums drops
 * exactly what walking the drop order one unit at a time drops.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, makeInput, type Spec } from '../../compaction/testing.ts';
import type { Fate } from '../../compaction/types.ts';
import type { Entry } from '../../journal/entry.ts';
import { budgetStrategy } from '../budget.ts';
import { trimUnits } from './units.ts';
import { unitView } from './unit-view.ts';

type Step =
  | { kind: 'user' }
  | { kind: 'text' }
  | { kind: 'calls'; n: number }
  | { kind: 'result'; late: boolean }
  | { kind: 'system' }
  | { kind: 'pin' }
  /** A call whose result id names the next entry, a plain message: the call's unit rises to that message's tier. */
  | { kind: 'rise'; user: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'user' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'text' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('calls' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('result' as const), late: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'system' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pin' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rise' as const), user: fc.boolean() }) },
);

function build(steps: readonly Step[]): Entry[] {
  const specs: Spec[] = [];
  const open: string[] = [];
  const rises: number[] = [];
  const pins: number[] = [];
  let call = 0;
  for (const step of steps) {
    if (step.kind === 'user') specs.push({ user: `ask ${specs.length} `.repeat(1 + (specs.length % 4)) });
    else if (step.kind === 'text') specs.push({ assistant: `text ${specs.length} `.repeat(1 + (specs.length % 3)) });
    else if (step.kind === 'calls') {
      const ids = Array.from({ length: step.n }, () => `c${call++}`);
      open.push(...ids);
      specs.push({ assistant: '', calls: ids.map((id) => ({ id, name: 'read', input: { path: id } })) });
    } else if (step.kind === 'result') {
      const id = step.late ? open.shift() : open.pop();
      if (id !== undefined) specs.push({ tool: `result of ${id} `.repeat(2 + (specs.length % 5)), callId: id });
    } else if (step.kind === 'system') specs.push({ system: 'note' });
    else if (step.kind === 'pin') pins.push(specs.length - 1);
    else {
      rises.push(specs.length);
      specs.push({ assistant: '', calls: [{ id: `r${call++}`, name: 'read', input: {} }] });
      specs.push(step.user ? { user: `words ${specs.length}` } : { assistant: `answer ${specs.length}` });
    }
  }
  const entries = linkEntries(makeEntries(specs));
  for (const i of rises) {
    const block = entries[i]!.blocks[0]!;
    if (block.type === 'tool_call') block.resultEntryId = entries[i + 1]!.id;
  }
  for (const i of pins) if (entries[i]) entries[i]!.flags = { ...entries[i]!.flags, pinned: true };
  return entries;
}

/** Per tier: the roots ascending and the running sums, from the units split from scratch. */
function listsFromScratch(units: ReturnType<typeof trimUnits>) {
  const lists = [0, 1, 2].map(() => ({ roots: [] as number[], tokensBefore: [0], sizeBefore: [0] }));
  for (const unit of units) {
    const list = lists[unit.tier]!;
    list.roots.push(unit.indices[0]!);
    list.tokensBefore.push(list.tokensBefore[list.tokensBefore.length - 1]! + unit.tokens);
    list.sizeBefore.push(list.sizeBefore[list.sizeBefore.length - 1]! + unit.indices.length);
  }
  return lists;
}

/** Budget's fates without a memory block, walking the drop order one unit at a time; undefined when it cannot fit. */
function walkedFates(units: ReturnType<typeof trimUnits>, n: number, total: number, target: number): Fate[] | undefined {
  const order = [0, 1, 2].flatMap((tier) => units.filter((u) => u.tier === tier && !u.protectedBy));
  let kept = total;
  const fates = new Array<Fate>(n).fill('keep');
  for (const unit of order) {
    if (kept <= target) break;
    for (const i of unit.indices) fates[i] = 'drop';
    kept -= unit.tokens;
  }
  return kept <= target ? fates : undefined;
}

describe('budget tier lists and cut', () => {
  it('grows the tier lists with the branch and equals the lists made from scratch at every length', () => {
    fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.nat(8), (steps, keepRecent) => {
      const all = build(steps);
      const { tokens } = makeInput(all);
      const live: Entry[] = [];
      for (const entry of all) {
        live.push(entry);
        const input = { ...makeInput(live), tokens: tokens.prefixOf(live.length) };
        const view = unitView(input, keepRecent);
        const order = view.order!;
        const lists = listsFromScratch(trimUnits(input, keepRecent));
        lists.forEach((list, tier) => {
          expect([...order.roots[tier as 0 | 1 | 2]]).toEqual(list.roots);
          expect([...order.tokensBefore[tier as 0 | 1 | 2]]).toEqual(list.tokensBefore);
          expect([...order.sizeBefore[tier as 0 | 1 | 2]]).toEqual(list.sizeBefore);
          list.roots.forEach((root, place) => expect(order.pos[root]).toBe(place));
        });
      }
    }), { numRuns: 200, seed: 20261126 });
  });

  it('drops what walking the drop order drops, at every length and budget', () => {
    fc.assert(fc.property(
      fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.nat(8), fc.array(fc.integer({ min: 0, max: 1100 }), { minLength: 1, maxLength: 60 }),
      (steps, keepRecent, ratios) => {
        const all = build(steps);
        const { tokens } = makeInput(all);
        const live: Entry[] = [];
        all.forEach((entry, k) => {
          live.push(entry);
          // A prefix of one index, as a replay reads the branch at each call.
          const base = { ...makeInput(live), tokens: tokens.prefixOf(live.length) };
          const total = base.tokens.total;
          const budget = Math.max(1, Math.round((total * ratios[k % ratios.length]!) / 1000));
          const input = { ...base, contextWindow: budget };
          const options = budgetStrategy.parse({ reservedOutputTokens: 0, keepRecentEntries: keepRecent });
          const plan = budgetStrategy.plan(input, options);
          if (total <= budget) {
            expect(plan.nothingToDo).toBeDefined();
            return;
          }
          const expected = walkedFates(trimUnits(input, keepRecent), live.length, total, budget);
          if (!expected) {
            expect(plan.nothingToDo).toMatch(/^context_length_exceeded/);
            return;
          }
          expect(plan.nothingToDo).toBeUndefined();
          expect(plan.fates).toEqual(expected);
          let kept = 0;
          expected.forEach((fate, i) => {
            if (fate === 'keep') kept += tokens.countAt(i);
          });
          expect(plan.tokensAfterEstimate).toBe(kept);
        });
      },
    ), { numRuns: 200, seed: 20261126 });
  });
});
