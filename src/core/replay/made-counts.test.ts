/**
 * The replay's count of made entries equals `countEntry`'s for every counter, however often a text
 * comes back and whatever the blocks around it; two entries whose joined text is the same but
 * whose blocks differ (an image, an empty block, another split) keep their own counts, in the memo
 * and in the context the replay sends.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeEntries, makeInput } from '../compaction/testing.ts';
import type { ContextEntry } from '../compaction/types.ts';
import type { Block, Entry } from '../journal/entry.ts';
import { getCounter, getEstimator, type TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { ReplayContext } from './context.ts';
import { MadeCounts } from './made-counts.ts';

const TEXTS = ['', 'x', 'x\ny', 'y', 'Summary of the work so far: src/app.ts edited', '字字 😀 ok', 'a'.repeat(300)];

const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.constantFrom(...TEXTS).map((text): Block => ({ type: 'text', text })),
  fc.constantFrom(...TEXTS).map((text): Block => ({ type: 'thinking', text })),
  fc.record({ name: fc.constantFrom('Read', 'Bash'), path: fc.constantFrom(...TEXTS) }).map(({ name, path }): Block => ({ type: 'tool_call', callId: 'c1', name, input: { path } })),
  fc.record({ text: fc.constantFrom(...TEXTS), images: fc.nat(2) }).map(({ text, images }): Block => ({
    type: 'tool_result', callId: 'c1', isError: false,
    content: [{ type: 'text', text }, ...Array.from({ length: images }, () => ({ type: 'image' as const, mediaType: 'image/png', bytes: 10, source: 'base64' as const }))],
  })),
  fc.constant<Block>({ type: 'image', mediaType: 'image/png', bytes: 10, source: 'base64' }),
);

function made(id: string, blocks: Block[], role: Entry['role'] = 'summary'): Entry {
  return { id, index: -1, parentId: null, role, kind: 'compaction', blocks, sourceType: 'test.made', line: 0 };
}

async function counters(): Promise<TokenCounter[]> {
  return [await getCounter('o200k'), getEstimator('chars4'), getEstimator('len3'), getEstimator('chars')];
}

describe('MadeCounts', () => {
  it('counts every entry as countEntry does, for exact counters and estimators, through repeats and a memo that starts over', async () => {
    for (const counter of await counters()) {
      fc.assert(
        fc.property(fc.array(fc.array(blockArb, { maxLength: 4 }), { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), (lists, limit) => {
          const memo = new MadeCounts(counter, limit);
          lists.forEach((blocks, k) => {
            const entry = made(`m${k}`, blocks);
            expect(memo.count(entry)).toBe(countEntry(entry, counter).total);
          });
        }),
        { numRuns: 60 },
      );
    }
  });

  it('keeps apart entries whose joined text and block count agree but whose blocks do not', async () => {
    const o200k = await getCounter('o200k');
    const withImage = made('a', [{ type: 'text', text: 'x' }, { type: 'image', mediaType: 'image/png', bytes: 10, source: 'base64' }]);
    const withEmpty = made('b', [{ type: 'text', text: 'x' }, { type: 'text', text: '' }]);
    const memo = new MadeCounts(o200k);
    expect(memo.count(withImage)).toBe(1 + o200k.imageTokens);
    expect(memo.count(withEmpty)).toBe(1);
  });
});

describe('ReplayContext tokens of made entries', () => {
  it('are each entry\'s own count when a later compaction makes a different entry with the same text', async () => {
    const o200k = await getCounter('o200k');
    const entries = makeEntries([{ user: 'first question' }, { assistant: 'first answer' }, { user: 'second question' }, { assistant: 'second answer' }]);
    const input = makeInput(entries, { counter: o200k });
    const context = new ReplayContext(input);
    const item = (entry: Entry): ContextEntry => ({ role: 'summary', entry, origin: 'summary' });
    const withImage = made('s1', [{ type: 'text', text: 'x' }, { type: 'image', mediaType: 'image/png', bytes: 10, source: 'base64' }]);
    const withEmpty = made('s2', [{ type: 'text', text: 'x' }, { type: 'text', text: '' }]);
    const tail = (from: number): ContextEntry[] => entries.slice(from).map((entry) => ({ role: entry.role, entry, origin: 'journal' }));
    context.apply({ entries: [item(withImage), ...tail(2)], tokensAfter: 0, previous: undefined, summaryApplied: true, truncationApplied: false, notes: [] } as never, 4);
    expect(context.refTokens).toBe(countEntry(withImage, o200k).total + input.tokens.range(2, 3));
    context.apply({ entries: [item(withEmpty), ...tail(2)], tokensAfter: 0, previous: undefined, summaryApplied: true, truncationApplied: false, notes: [] } as never, 4);
    expect(context.refTokens).toBe(countEntry(withEmpty, o200k).total + input.tokens.range(2, 3));
  });
});
