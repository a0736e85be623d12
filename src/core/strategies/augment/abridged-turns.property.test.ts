/**
 * The abridged history read with the turns remembered per branch index (a replay plans at every
 * summary of one growing branch) equals the one read from a fresh copy of the branch, at every
 * length and cut.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../../compaction/testing.ts';
import type { Entry } from '../../journal/entry.ts';
import { abridgedHistory } from './abridged.ts';
import { parseAugmentOptions } from './params.ts';

type Step =
  | { kind: 'user'; words: number }
  | { kind: 'interrupt' }
  | { kind: 'call'; tool: 'Read' | 'Edit' | 'Bash'; arg: number }
  | { kind: 'result' }
  | { kind: 'answer'; words: number }
  | { kind: 'system' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), words: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'interrupt' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('call' as const), tool: fc.constantFrom('Read' as const, 'Edit' as const, 'Bash' as const), arg: fc.nat(5) }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'result' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('answer' as const), words: fc.nat(60) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'system' as const }) },
);

function build(steps: readonly Step[]): Entry[] {
  const specs: Spec[] = [];
  const injected: number[] = [];
  const open: string[] = [];
  let call = 0;
  for (const step of steps) {
    if (step.kind === 'user') specs.push({ user: `please do ${step.words} `.repeat(1 + step.words) });
    else if (step.kind === 'interrupt') {
      injected.push(specs.length);
      specs.push({ user: '[Request interrupted by user]' });
    } else if (step.kind === 'call') {
      const id = `c${call++}`;
      open.push(id);
      const input = step.tool === 'Bash' ? { command: `make t${step.arg}` } : { file_path: `/src/f${step.arg}.ts` };
      specs.push({ assistant: '', calls: [{ id, name: step.tool, input }] });
    } else if (step.kind === 'result') {
      const id = open.shift();
      if (id !== undefined) specs.push({ tool: `output of ${id}`, callId: id });
    } else if (step.kind === 'answer') specs.push({ assistant: `done ${step.words} `.repeat(1 + step.words) });
    else specs.push({ system: 'note' });
  }
  const entries = linkEntries(makeEntries(specs));
  for (const i of injected) entries[i]!.flags = { injected: true };
  return entries;
}

describe('abridged history with remembered turns', () => {
  it('equals the history read from a fresh copy at every length and cut', () => {
    fc.assert(fc.property(
      fc.array(stepArb, { minLength: 1, maxLength: 50 }), fc.array(fc.nat(1000), { minLength: 1, maxLength: 20 }), fc.constantFrom(300, 2_000, 10_000),
      (steps, cuts, totalCharsLimit) => {
        const all = build(steps);
        const limits = parseAugmentOptions({ totalCharsLimit });
        const live: Entry[] = [];
        all.forEach((entry, k) => {
          live.push(entry);
          // Two cuts on the same length: the second reads turns the first remembered.
          for (const c of [cuts[k % cuts.length]!, cuts[(k + 1) % cuts.length]!]) {
            const cut = c % (live.length + 1);
            expect(abridgedHistory(live, cut, limits)).toEqual(abridgedHistory(structuredClone(live), cut, limits));
          }
        });
      },
    ), { numRuns: 150, seed: 20261126 });
  });
});
