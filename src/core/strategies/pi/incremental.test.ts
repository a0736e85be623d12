import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, makeInput, type Spec } from '../../compaction/testing.ts';
import { importText } from '../../import/run.ts';
import type { Entry } from '../../journal/entry.ts';
import { activeLeaf, pathTo } from '../../journal/tree.ts';
import { TokenIndex } from '../../tokens/prefix-sums.ts';
import { findCutPoint, groupedDigits } from './cut-point.ts';
import { PiCutTracker } from './incremental.ts';
import { groupDigits } from './options.ts';

// Few call ids, so duplicates, results far from their calls and orphans all occur.
const CALL_IDS = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];

const specArb: fc.Arbitrary<Spec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ user: fc.string({ maxLength: 400 }) }) },
  { weight: 4, arbitrary: fc.record({
    assistant: fc.string({ maxLength: 400 }),
    calls: fc.array(fc.record({ id: fc.constantFrom(...CALL_IDS), name: fc.constantFrom('read', 'bash'), input: fc.constant({ path: 'a.ts' }) }), { maxLength: 3 }),
  }) },
  { weight: 4, arbitrary: fc.record({ tool: fc.string({ maxLength: 2000 }), callId: fc.constantFrom(...CALL_IDS, 'gone') }) },
  { weight: 1, arbitrary: fc.record({ system: fc.string({ maxLength: 100 }) }) },
);

/** A transcript as the importer leaves it: linked, or (older formats, tests) unlinked, some entries events. */
const transcriptArb = fc.record({
  specs: fc.array(specArb, { minLength: 1, maxLength: 80 }),
  linked: fc.boolean(),
  events: fc.array(fc.nat(79), { maxLength: 4 }),
});

function build({ specs, linked, events }: { specs: Spec[]; linked: boolean; events: number[] }): { entries: Entry[]; counts: number[] } {
  const entries = makeEntries(specs);
  if (linked) linkEntries(entries);
  for (const i of events) if (entries[i]) entries[i] = { ...entries[i], kind: 'event' };
  const tokens = makeInput(entries).tokens;
  return { entries, counts: entries.map((_, i) => tokens.countAt(i)) };
}

describe('PiCutTracker', () => {
  it('answers the same cut as findCutPoint after every append, for any keepRecentTokens', () => {
    fc.assert(fc.property(
      transcriptArb,
      fc.nat(80),
      fc.nat(80),
      fc.array(fc.tuple(fc.nat(3), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 100 }),
      (transcript, initialRaw, startRaw, steps) => {
        const { entries, counts } = build(transcript);
        const initial = initialRaw % (entries.length + 1);
        const start = startRaw % (initial + 1);
        const tokens = new TokenIndex(counts.slice(0, initial));
        const tracker = new PiCutTracker(entries.slice(0, initial), tokens, start);
        let next = initial;
        for (const [appends, keep] of steps) {
          for (let k = 0; k < appends && next < entries.length; k++, next++) tracker.append(entries[next]!, counts[next]!);
          expect(tracker.length).toBe(next);
          expect(tracker.cut(keep)).toEqual(findCutPoint(tracker.entries, tokens, start, next, keep));
        }
      },
    ), { numRuns: 400 });
  });

  it('moves the cut back to a call made before the tail, as findCutPoint does', () => {
    const entries = linkEntries(makeEntries([
      { user: 'start' },
      { assistant: '', calls: [{ id: 'c1', name: 'read', input: { path: 'a.ts' } }] },
      { tool: 'big output', callId: 'c1' },
      { assistant: 'done' },
    ]));
    const tracker = new PiCutTracker([], new TokenIndex(), 0);
    [100, 100, 30_000, 100].forEach((count, i) => tracker.append(entries[i]!, count));
    const cut = tracker.cut(20_000)!;
    expect(cut.reachedAt).toBe(2);
    expect(cut.firstKeptIndex).toBe(1);
    expect(cut.keptTokens).toBe(30_200);
  });

  it('has no cut until a user or assistant message follows the boundary', () => {
    const entries = makeEntries([{ user: 'old' }, { tool: 'r', callId: 'c' }, { user: 'new' }]);
    const tracker = new PiCutTracker(entries.slice(0, 2), new TokenIndex([10, 10]), 1);
    expect(tracker.cut(5)).toBeUndefined();
    tracker.append(entries[2]!, 10);
    expect(tracker.cut(5)!.firstKeptIndex).toBe(2);
  });

  it('needs a count for every entry it starts from', () => {
    expect(() => new PiCutTracker(makeEntries([{ user: 'a' }]), new TokenIndex(), 0)).toThrow(/1 entries, 0 counts/);
  });

  it.each([
    'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl',
    'public/samples/pi/large-session.jsonl',
  ])('follows the importer\'s links on a real transcript: %s', (path) => {
    const { entries: all } = importText(readFileSync(path, 'utf8'));
    const leaf = activeLeaf(all);
    const entries = (leaf ? pathTo(all, leaf.id).map((i) => all[i]!) : all).filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain);
    const input = makeInput(entries);
    const tokens = new TokenIndex();
    const tracker = new PiCutTracker([], tokens, 0);
    entries.forEach((entry, i) => {
      tracker.append(entry, input.tokens.countAt(i));
      if (i % 7 === 0 || i === entries.length - 1) {
        for (const keep of [500, 5_000, 20_000]) expect(tracker.cut(keep)).toEqual(findCutPoint(entries, input.tokens, 0, i + 1, keep));
      }
    });
  });
});

describe('groupedDigits', () => {
  // Counts stay far below 1e21, where toString switches to exponent notation.
  it('formats every count below 1e21 as groupDigits does', () => {
    const counts = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ min: -1e20, max: 1e20, noNaN: true }), fc.constantFrom(0, -0, 999.5, -999.5, 1000, 999_999.5));
    fc.assert(fc.property(counts, (n) => {
      expect(groupedDigits(n)).toBe(groupDigits(n));
    }), { numRuns: 2000 });
  });
});
