/**
 * A replay keeps each compaction's context as a change to the previous one: rebuilt from those
 * changes, every compaction's context must equal the one its strategy assembled, whatever the
 * strategy did (dropped, rewrote, inserted, reordered, reused the same items or made new ones).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeEntries, makeInput } from '../compaction/testing.ts';
import type { CompactedContext, ContextEntry } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { applyDelta, compactionContext } from './compaction-context.ts';
import { ReplayContext } from './context.ts';
import type { ContextRef, ReplayCompaction } from './types.ts';

const ENTRIES = makeEntries(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? { user: `question ${i}` } : { assistant: `answer ${i}` })));

/** One edit a strategy might make to the context it is given. */
type Edit =
  | { kind: 'drop'; at: number; n: number }
  | { kind: 'rewrite'; at: number; fresh: boolean }
  | { kind: 'insert'; at: number; made: number }
  | { kind: 'swap'; at: number }
  | { kind: 'stray'; at: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat(80), n: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('rewrite' as const), at: fc.nat(80), fresh: fc.boolean() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(80), made: fc.nat(3) }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(80) }),
  fc.record({ kind: fc.constant('stray' as const), at: fc.nat(80) }),
);

const stepArb = fc.record({ grow: fc.integer({ min: 0, max: 8 }), edits: fc.array(editArb, { maxLength: 5 }) });

function summary(k: number): Entry {
  return { id: `s${k}`, index: -1, parentId: null, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: `summary ${k}` }], sourceType: 'compaction', line: 0 };
}

const made = [0, 1, 2, 3].map((k): ContextEntry => ({ role: 'summary', entry: summary(k), origin: 'summary', replaces: { fromId: 'e0', toId: `e${k}`, count: k + 1 } }));
const rewritten = new Map<string, ContextEntry>();

/** The same rewritten item for an entry each time (as the masking strategies hand back), or a new one. */
function rewrite(item: ContextEntry, fresh: boolean): ContextEntry {
  const known = rewritten.get(item.entry.id);
  if (known && !fresh) return known;
  const next: ContextEntry = { role: item.role, entry: { ...item.entry, blocks: [{ type: 'text', text: `[rewritten ${item.entry.id}]` }] }, origin: 'compressed' };
  rewritten.set(item.entry.id, next);
  return next;
}

function edited(items: ContextEntry[], edits: readonly Edit[]): ContextEntry[] {
  const out = items.slice();
  for (const edit of edits) {
    const at = out.length === 0 ? 0 : edit.at % (out.length + 1);
    if (edit.kind === 'drop') out.splice(at, edit.n);
    else if (edit.kind === 'rewrite' && at < out.length && out[at]!.origin === 'journal') out[at] = rewrite(out[at]!, edit.fresh);
    else if (edit.kind === 'insert') out.splice(at, 0, made[edit.made]!);
    else if (edit.kind === 'swap' && at + 1 < out.length) [out[at], out[at + 1]] = [out[at + 1]!, out[at]!];
    else if (edit.kind === 'stray') out.splice(at, 0, { role: 'user', entry: { ...ENTRIES[0]!, id: `gone${at}` }, origin: 'journal' });
  }
  return out;
}

const refOf = (item: ContextEntry): ContextRef => (item.origin === 'journal'
  ? { origin: 'journal', entryId: item.entry.id }
  : { origin: item.origin, entry: item.entry, ...(item.replaces ? { replaces: item.replaces } : {}) });

describe('compaction contexts stored as deltas', () => {
  it('rebuild to the context each compaction assembled, and name what left the verbatim context', () => {
    fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 12 }), (steps) => {
      rewritten.clear();
      const input = makeInput(ENTRIES);
      const context = new ReplayContext(input);
      const ids = ENTRIES.map((e) => e.id);
      const compactions: ReplayCompaction[] = [];
      const expected: ContextRef[][] = [];
      let items: ContextEntry[] = [];
      let end = 0;
      for (const step of steps) {
        const from = end;
        end = Math.min(ENTRIES.length, end + step.grow);
        const appended = ENTRIES.slice(from, end).map((entry): ContextEntry => ({ role: entry.role, entry, origin: 'journal' }));
        const before = [...items, ...appended];
        items = edited(before, step.edits);
        const assembled: CompactedContext = { entries: items, tokensAfter: 0, previous: { strategy: 'pi', summaries: [] }, truncationApplied: false, summaryApplied: false, notes: [] };
        const { removed, delta } = context.apply(assembled, end);
        const want = items.map(refOf);
        expect(context.refs).toEqual(want);
        // What left: journal entries on the branch that were there before and are not now.
        const now = new Set(items.filter((i) => i.origin === 'journal').map((i) => i.entry.id));
        const left = before.filter((i) => i.origin === 'journal' && !i.entry.id.startsWith('gone') && !now.has(i.entry.id)).map((i) => i.entry.id);
        expect(removed).toEqual([...new Set(left)]);
        compactions.push({ appendFrom: end, contextDelta: delta } as ReplayCompaction);
        expected.push(want);
        // Tokens: the journal entries' counts plus each made entry's.
        const tokens = items.reduce((n, i) => n + (i.origin !== 'journal' ? countEntry(i.entry, input.counter).total : i.entry.id.startsWith('gone') ? 0 : input.tokens.countAt(ids.indexOf(i.entry.id))), 0);
        expect(context.refTokens).toBe(tokens);
      }
      expected.forEach((want, k) => expect(compactionContext(compactions, k, ids)).toEqual(want));
    }), { numRuns: 300 });
  });

  it('start from a compaction stored in full (results saved before deltas, or a context the replay did not record)', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const j = (entryId: string): ContextRef => ({ origin: 'journal', entryId });
    const compactions = [
      { appendFrom: 2, context: [j('b')] },
      { appendFrom: 4, contextDelta: [1, -1, 1] },
      { appendFrom: 5, contextDelta: [-1, 2] },
    ] as ReplayCompaction[];
    expect(compactionContext(compactions, 0, ids)).toEqual([j('b')]);
    expect(compactionContext(compactions, 1, ids)).toEqual([j('b'), j('d')]);
    expect(compactionContext(compactions, 2, ids)).toEqual([j('d'), j('e')]);
  });

  it('applies long inserts and trailing removals', () => {
    const j = (entryId: string): ContextRef => ({ origin: 'journal', entryId });
    const many = Array.from({ length: 20_000 }, (_, i) => j(`n${i}`));
    const long = applyDelta([j('a'), j('b'), j('c')], [1, many, -1]);
    expect(long.length).toBe(20_001);
    expect([long[0], long[1], long.at(-1)]).toEqual([j('a'), j('n0'), j('n19999')]);
    expect(applyDelta([j('a'), j('b'), j('c')], [-1, [j('x')], 1])).toEqual([j('x'), j('b')]);
  });
});
