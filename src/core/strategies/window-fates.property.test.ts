/**
 * Window fates continued from the last plan of a growing branch equal the fates made from scratch
 * (every entry kept, then `dropOld`), with their counts: windows of changing sizes, late tool
 * results that merge groups, system entries, pins and the kept task.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { Fate } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { dropOld } from './group-facts.ts';
import { iterationGroups, oldHistory, windowStart } from './sliding-window.ts';
import { windowFates } from './window-fates.ts';

type Step =
  | { kind: 'user' }
  | { kind: 'calls'; n: number }
  | { kind: 'result'; late: boolean }
  | { kind: 'text' }
  | { kind: 'system' }
  | { kind: 'pin' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'user' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('calls' as const), n: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('result' as const), late: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'text' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'system' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pin' as const }) },
);

function build(steps: readonly Step[]): { entries: Entry[]; pins: string[] } {
  const specs: Spec[] = [];
  const open: string[] = [];
  const pinnedAt: number[] = [];
  let call = 0;
  for (const step of steps) {
    if (step.kind === 'user') specs.push({ user: `ask ${specs.length}` });
    else if (step.kind === 'calls') {
      const ids = Array.from({ length: step.n }, () => `c${call++}`);
      open.push(...ids);
      specs.push({ assistant: '', calls: ids.map((id) => ({ id, name: 'read', input: { path: id } })) });
    } else if (step.kind === 'result') {
      const id = step.late ? open.shift() : open.pop();
      if (id !== undefined) specs.push({ tool: `result of ${id} `.repeat(1 + (specs.length % 4)), callId: id });
    } else if (step.kind === 'text') specs.push({ assistant: `text ${specs.length}` });
    else if (step.kind === 'system') specs.push({ system: 'note' });
    else pinnedAt.push(specs.length - 1);
  }
  const entries = linkEntries(makeEntries(specs));
  // Half the pins flag the entry, half are chosen (the input's pinned set).
  for (const i of pinnedAt) if (entries[i] && i % 2 === 0) entries[i]!.flags = { pinned: true };
  return { entries, pins: pinnedAt.filter((i) => i >= 0 && i % 2 === 1).map((i) => entries[i]!.id) };
}

describe('window fates', () => {
  it('continued along a growing branch, equal the fates made from scratch', () => {
    fc.assert(fc.property(
      fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }), fc.boolean(), fc.boolean(),
      (steps, sizes, keepTask, choosePins) => {
        const { entries: all, pins } = build(steps);
        const { tokens } = makeInput(all);
        const pinned = choosePins ? new Set(pins) : undefined;
        const live: Entry[] = [];
        all.forEach((entry, k) => {
          live.push(entry);
          const input = { ...makeInput(live), tokens: tokens.prefixOf(live.length), ...(pinned ? { pinned } : {}) };
          const groups = iterationGroups(live);
          if (groups.length === 0) return;
          const start = windowStart(groups, sizes[k % sizes.length]!);
          const { kept } = oldHistory(input, groups, start, keepTask);
          const got = windowFates(input, groups, start, kept);
          const expected = new Array<Fate>(live.length).fill('keep');
          const counts = dropOld(input, expected, groups, groups[start]!.indices[0]!, kept);
          expect(got.fates).toEqual(expected);
          expect({ dropped: got.dropped, droppedTokens: got.droppedTokens }).toEqual(counts);
        });
      },
    ), { numRuns: 300, seed: 20261126 });
  });
});
