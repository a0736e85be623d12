import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as cl100kModule from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200kModule from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { BpeCounter, coreInternals, LONG_PIECE } from './bpe-count.ts';
import { PieceMerge } from './bpe-merge.ts';

// The reference is gpt-tokenizer itself, special tokens as plain text (what the app counts).
const PLAIN = { disallowedSpecial: new Set<string>() };
const MODULES = { o200k: o200kModule, cl100k: cl100kModule } as const;
const internals = { o200k: coreInternals(o200kModule)!, cl100k: coreInternals(cl100kModule)! };
const counters = { o200k: new BpeCounter(internals.o200k), cl100k: new BpeCounter(internals.cl100k) };
const IDS = ['o200k', 'cl100k'] as const;

/** Text made of long runs without whitespace: the shapes that made the library's merge quadratic. */
const runs = fc
  .array(
    fc.record({
      unit: fc.oneof(
        fc.constantFrom('a', '=', '-', 'é', '你', '🎉', 'ab', 'xyz', '0', '/+', 'A1', '\\n'),
        fc.string({ minLength: 1, maxLength: 4, unit: 'grapheme' }),
        fc.base64String({ minLength: 4, maxLength: 12 }),
      ),
      times: fc.integer({ min: 1, max: 900 }),
      gap: fc.constantFrom('', ' ', '\n', '. '),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.map(({ unit, times, gap }) => unit.repeat(times) + gap).join(''));

/** The library's own merge of one piece, as token ranks. */
function libraryTokens(id: (typeof IDS)[number], piece: string): number[] {
  return (internals[id] as unknown as { bytePairEncode(p: string): number[] }).bytePairEncode(piece);
}

/** Ours: the ranks of the parts PieceMerge leaves. */
function mergeTokens(id: (typeof IDS)[number], piece: string): number[] {
  const bytes = new TextEncoder().encode(piece);
  const merge = new PieceMerge(bytes, counters[id].rankOf);
  merge.step(Number.POSITIVE_INFINITY);
  const starts = merge.starts();
  return starts.map((start, i) => counters[id].rankOf(bytes, start, starts[i + 1] ?? bytes.length));
}

describe('PieceMerge', () => {
  it('leaves exactly the tokens of gpt-tokenizer\'s merge, piece by piece', () => {
    fc.assert(
      fc.property(runs, fc.constantFrom(...IDS), (text, id) => {
        for (const piece of text.split(/\s+/).filter((p) => p.length > 0).slice(0, 3)) {
          if (piece.length > 1500) continue; // the library's merge is quadratic: keep the reference fast
          expect(mergeTokens(id, piece)).toEqual(libraryTokens(id, piece));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('does O(n log n) work on a 100,000-character run (the library\'s merge does ~n²/2 steps)', () => {
    const base64 = Buffer.from(Array.from({ length: 75_000 }, (_, i) => (i * 7919 + (i >> 5)) % 256)).toString('base64');
    for (const text of ['a'.repeat(100_000), '='.repeat(100_000), base64.slice(0, 100_000), 'é'.repeat(50_000)]) {
      const bytes = new TextEncoder().encode(text);
      const merge = new PieceMerge(bytes, counters.o200k.rankOf);
      expect(merge.step(Number.POSITIVE_INFINITY)).toBe(true);
      const n = bytes.length;
      // Each merge costs two lookups and at most two pushes and one pop; the heap is log2(n) deep.
      expect(merge.work.merges).toBeLessThan(n);
      expect(merge.work.lookups).toBeLessThanOrEqual(3 * n);
      expect(merge.work.heapOps).toBeLessThanOrEqual(6 * n);
      expect(merge.tokens).toBe(n - merge.work.merges);
    }
  });

  it('gives the same result when run in slices of any size', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 600, unit: 'grapheme' }), fc.integer({ min: 1, max: 300 }), (text, budget) => {
        const bytes = new TextEncoder().encode(text);
        const whole = new PieceMerge(bytes, counters.cl100k.rankOf);
        whole.step(Number.POSITIVE_INFINITY);
        const sliced = new PieceMerge(bytes, counters.cl100k.rankOf);
        while (!sliced.step(budget));
        expect(sliced.starts()).toEqual(whole.starts());
      }),
      { numRuns: 100 },
    );
  });
});

describe('BpeCounter', () => {
  it('counts exactly as gpt-tokenizer on text with long runs, in one go and in slices', () => {
    fc.assert(
      fc.property(runs, fc.constantFrom(...IDS), fc.integer({ min: 1, max: 5000 }), (text, id, budget) => {
        const expected = MODULES[id].countTokens(text, PLAIN);
        expect(counters[id].count(text)).toBe(expected);
        const cursor = counters[id].start(text);
        while (!cursor.advance(budget));
        expect(cursor.tokens).toBe(expected);
      }),
      { numRuns: 120 },
    );
  });

  it('counts exactly as gpt-tokenizer on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'binary' }), fc.constantFrom(...IDS), (text, id) => {
        expect(counters[id].count(text)).toBe(MODULES[id].countTokens(text, PLAIN));
      }),
      { numRuns: 150 },
    );
  });

  it('counts the real samples exactly as gpt-tokenizer, and their long pieces go through PieceMerge', () => {
    const samples = [
      'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl',
      'public/samples/codex/schema-coverage.jsonl',
      'public/samples/pi/v3-small.jsonl',
      'public/samples/openai-chat/gpt-4o-airline.json',
    ];
    for (const path of samples) {
      const text = readFileSync(path, 'utf8').slice(0, 400_000);
      for (const id of IDS) expect(counters[id].count(text), `${path} ${id}`).toBe(MODULES[id].countTokens(text, PLAIN));
    }
    // A transcript line with an inlined image: one piece far above the threshold.
    const image = `{"type":"image","data":"${Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 31) % 251)).toString('base64')}"}`;
    expect(image.length).toBeGreaterThan(4 * LONG_PIECE);
    for (const id of IDS) expect(counters[id].count(image)).toBe(MODULES[id].countTokens(image, PLAIN));
  });
});
