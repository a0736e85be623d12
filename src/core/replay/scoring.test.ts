/**
 * The probe checker looks for each probe entry by entry, and skips normalizing an ASCII entry that
 * cannot hold any of them. Checked against the plain rule (the first entry, in order, whose
 * normalized text matches the probe) on the real Claude Code sample's probes, with the entries'
 * texts reshaped: case changed, punctuation changed, CJK and accents added, entries dropped.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importText } from '../import/run.ts';
import { entryText } from '../journal/entry.ts';
import { extractProbes, matchProbe, prepareContext } from '../probes/index.ts';
import { occurrences } from '../probes/match.ts';
import { CONSTRAINT_SHARE } from './evidence.ts';
import { ProbeChecker, type ContextPart } from './scoring.ts';

const SAMPLE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8');
const entries = importText(SAMPLE).entries;
const probes = extractProbes(entries);
const texts = entries.map((entry) => entryText(entry));

const reshape = [
  (text: string) => text,
  (text: string) => text.toUpperCase(),
  (text: string) => text.replace(/[/.]/g, ' '),
  (text: string) => text.replace(/ /g, '\t, '),
  (text: string) => `注意 ${text}`,
  (text: string) => text.replace(/e/g, 'é'),
  (text: string) => text.slice(0, Math.floor(text.length / 2)),
] as const;

describe('ProbeChecker', () => {
  it('keeps a probe exactly when some entry matches it, with that first entry\'s span', () => {
    expect(probes.length).toBeGreaterThan(10);
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.nat(texts.length - 1), fc.nat(reshape.length - 1)), { minLength: 1, maxLength: 60 }),
      fc.subarray(probes, { minLength: 1, maxLength: Math.min(40, probes.length) }),
      (picks, chosen) => {
        const parts: ContextPart[] = picks.map(([i, how], k) => {
          const text = reshape[how]!(texts[i]!);
          return { key: `p${k}:${i}:${how}`, text: () => text };
        });
        const expected = chosen.map((probe) => {
          for (const part of parts) {
            const context = prepareContext(part.text());
            const match = matchProbe(probe, context);
            // A constraint counts when most of its words are there (evidence.ts), not only all of them within one span.
            const share = probe.category === 'constraint' ? probe.needles[0]!.filter((needle) => occurrences(context, needle).length > 0).length / probe.needles[0]!.length : 0;
            if (match.kept || share >= CONSTRAINT_SHARE) return { probe, kept: true, ...(match.span !== undefined ? { span: match.span } : {}) };
          }
          return { probe, kept: false };
        });
        const checker = new ProbeChecker();
        expect(checker.check(chosen, () => parts)).toEqual(expected);
        // Again with the same checker: what it remembers of each entry changes nothing.
        expect(checker.check(chosen, () => parts)).toEqual(expected);
      },
    ), { numRuns: 60 });
  });
});
