/**
 * The context builder continues the last context it built for a growing branch array (from the
 * first entry whose fate or rewrite changed, with the strategies' hints that say what is unchanged)
 * and places made entries into it afterwards. On random growing branches, with fates, rewrites
 * and inserts changing between builds, every context must equal one built from scratch, with the
 * same token count, and a context it says continues the last one must share those items with it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextTokens } from '../compaction/context-tokens.ts';
import type { CompactionInput, ContextEntry, Fate } from '../compaction/types.ts';
import type { Entry, Role } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import { buildEntries, countContext, fatesDerived, rewritesDerived, sharedPrefix, type Insert } from './context-builder.ts';

const counter = getEstimator('chars4');
const ROLES: Role[] = ['user', 'assistant', 'tool', 'system'];

interface Step {
  size: number;
  changes: Array<{ at: number; fate: Fate }>;
  /** Rewrite the entry at this position anew (a new object, as a strategy re-masks it). */
  redo: number;
  inserts: Array<{ at: number; half: boolean; compressed: boolean }>;
  hintFates: boolean;
  hintRewrites: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  size: fc.integer({ min: 1, max: 300 }),
  changes: fc.array(fc.record({ at: fc.nat(), fate: fc.constantFrom<Fate>('keep', 'keep', 'compress', 'drop', 'summarize') }), { maxLength: 4 }),
  redo: fc.nat(),
  inserts: fc.array(fc.record({ at: fc.integer({ min: -2, max: 70 }), half: fc.boolean(), compressed: fc.boolean() }), { maxLength: 3 }),
  hintFates: fc.boolean(),
  hintRewrites: fc.nat(),
});

/** The context as `buildEntries` defines it, walked from the first entry with no memo. */
function fromScratch(entries: readonly Entry[], fates: readonly Fate[], inserts: readonly Insert[], rewrites: ReadonlyMap<number, Entry>): ContextEntry[] {
  const sorted = [...inserts].sort((a, b) => a.at - b.at);
  const out: ContextEntry[] = [];
  let k = 0;
  entries.forEach((entry, i) => {
    while (k < sorted.length && sorted[k]!.at <= i) out.push(sorted[k++]!.item);
    const rewritten = rewrites.get(i);
    if (fates[i] === 'keep' || (fates[i] === 'compress' && !rewritten)) out.push({ role: entry.role, entry, origin: 'journal' });
    else if (fates[i] === 'compress') out.push({ role: entry.role, entry: rewritten!, origin: 'compressed' });
  });
  while (k < sorted.length) out.push(sorted[k++]!.item);
  return out;
}

describe('context builder, continued from the last build', () => {
  it('builds what a walk from scratch builds, with its token count, on a growing branch', () => {
    fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), (steps) => {
      const live: Entry[] = [];
      const counts: number[] = [];
      let fates: Fate[] = [];
      const rewritten = new Map<number, Entry>();
      /** One list element per (index, rewrite), so lists made at different builds share them. */
      const element = new Map<Entry, { index: number; entry: Entry }>();
      let list: Array<{ index: number; entry: Entry }> = [];
      let last: { items: ContextEntry[]; copy: ContextEntry[] } | undefined;
      steps.forEach((step, t) => {
        const role = ROLES[t % ROLES.length]!;
        const entry: Entry = { id: `e${t}`, index: t, parentId: t === 0 ? null : `e${t - 1}`, role, kind: 'message', blocks: [{ type: 'text', text: 'w '.repeat(step.size) }], sourceType: 'test', line: t + 1 };
        live.push(entry);
        counts.push(countEntry(entry, counter).total);
        const n = live.length;
        const input: CompactionInput = { entries: live, tokens: new TokenIndex(counts.slice()), counter, contextWindow: 100_000, now: 0 };

        const base = fates;
        fates = [...base, 'keep'];
        let from = base.length;
        for (const change of step.changes) {
          const at = change.at % n;
          fates[at] = change.fate;
          from = Math.min(from, at);
        }
        if (step.hintFates && t > 0) fatesDerived(fates, base, from);

        // Rewrites for compress fates (some left without one), one redone as a new object.
        const redo = step.redo % n;
        if (rewritten.has(redo)) rewritten.set(redo, { ...live[redo]!, blocks: [{ type: 'text', text: `[redone ${t}]` }] });
        for (let i = 0; i < n; i++) {
          if (fates[i] === 'compress' && i % 5 !== 3 && !rewritten.has(i)) rewritten.set(i, { ...live[i]!, blocks: [{ type: 'text', text: '[masked]' }] });
        }
        const previousList = list;
        list = [...rewritten].sort((a, b) => a[0] - b[0]).map(([index, e]) => {
          let el = element.get(e);
          if (!el) element.set(e, (el = { index, entry: e }));
          return el;
        });
        let same = 0;
        while (same < Math.min(list.length, previousList.length) && list[same] === previousList[same]) same++;
        if (step.hintRewrites % 3 !== 0) rewritesDerived(list, previousList, step.hintRewrites % (same + 1));

        const inserts: Insert[] = step.inserts.map((x, k) => ({
          at: x.half ? x.at + 0.5 : x.at,
          item: { role: 'user', entry: { ...entry, id: `made${t}-${k}`, role: 'summary', blocks: [{ type: 'text', text: 's '.repeat(k + 2) }] }, origin: x.compressed ? 'compressed' : 'summary' },
        }));

        const built = buildEntries(input, fates, inserts, list);
        const expected = fromScratch(live, fates, inserts, rewritten);
        expect(built).toEqual(expected);
        built.forEach((item, k) => expect(item.entry).toBe(expected[k]!.entry));
        expect(countContext(input, built)).toBe(contextTokens(input, expected));
        if (last) {
          // The previous context is left as it was, and what this one says it shares with it, it does.
          expect(last.items).toEqual(last.copy);
          const shared = sharedPrefix(built, last.items);
          for (let k = 0; k < shared; k++) expect(built[k]).toBe(last.items[k]);
        }
        last = { items: built, copy: built.slice() };
      });
    }), { numRuns: 300, seed: 20_261_126 });
  });
});
