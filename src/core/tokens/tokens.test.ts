import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { getCounter, getEstimator, parseCounterId } from './counters.ts';
import { countEntries, countEntry } from './entry-tokens.ts';
import { TokenIndex } from './prefix-sums.ts';

const SAMPLES = [
  'Hello, world! The quick brown fox jumps over the lazy dog.',
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  '{"status": "ok", "items": [1, 2, 3], "nested": {"key": "value"}}',
  '$ npm test\n\n FAIL  src/api.test.ts\n  ● parses the port\n    expected 8080, got "8080"',
  '这是一个测试。日本語のテキストも含まれています。',
];

describe('exact counters', () => {
  it('match an independent tokenizer (js-tiktoken) on o200k_base and cl100k_base', async () => {
    const o200k = await getCounter('o200k');
    const cl100k = await getCounter('cl100k');
    const refO = new Tiktoken(o200kRanks);
    const refC = new Tiktoken(cl100kRanks);
    for (const text of SAMPLES) {
      expect(o200k.count(text)).toBe(refO.encode(text).length);
      expect(cl100k.count(text)).toBe(refC.encode(text).length);
    }
    expect(o200k.label).toBe('o200k_base');
    expect(o200k.exact).toBe(true);
  });

  it('count a literal <|endoftext|> as plain text instead of throwing', async () => {
    const o200k = await getCounter('o200k');
    const text = 'the model printed <|endoftext|> and <|im_start|> in its output';
    const ref = new Tiktoken(o200kRanks);
    expect(() => o200k.count(text)).not.toThrow();
    expect(o200k.count(text)).toBe(ref.encode(text, [], []).length);
  });
});

describe('estimators', () => {
  it('follow the seeds: ceil(chars/4), floor(len/3), chars', () => {
    expect(getEstimator('chars4').count('abcde')).toBe(2);
    expect(getEstimator('len3').count('abcde')).toBe(1);
    expect(getEstimator('chars').count('abcde')).toBe(5);
    expect(getEstimator('chars4').imageTokens).toBe(1200);
    expect(getEstimator('chars').imageTokens).toBe(4800);
  });

  it('parse counter names and refuse unknown ones', () => {
    expect(parseCounterId('o200k_base')).toBe('o200k');
    expect(parseCounterId('chars/4')).toBe('chars4');
    expect(() => parseCounterId('p50k')).toThrow(/use one of o200k, cl100k, chars4, len3, chars/);
  });
});

describe('entry tokens', () => {
  const entry: Entry = {
    id: 'a', index: 0, parentId: null, role: 'assistant', kind: 'message', sourceType: 't', line: 1,
    blocks: [
      { type: 'text', text: 'abcdefgh' },
      { type: 'tool_call', callId: 'c', name: 'Read', input: { p: 1 } },
      { type: 'image', mediaType: 'image/png', bytes: 10, source: 'base64' },
      { type: 'tool_result', callId: 'c', isError: false, content: [{ type: 'text', text: 'abcd' }, { type: 'image', mediaType: 'image/png', bytes: 1, source: 'base64' }] },
    ],
  };
  it('counts each block with its kind and images at the counter weight', () => {
    const counted = countEntry(entry, getEstimator('chars4'));
    expect(counted.byKind).toEqual({ text: 2, thinking: 0, tool_call: Math.ceil('Read({"p":1})'.length / 4), tool_result: 1, image: 2400 });
    expect(counted.total).toBe(2 + 4 + 1 + 2400);
  });
  it('sums a journal per role', () => {
    const counts = countEntries([entry, { ...entry, index: 1, id: 'b', role: 'user' }], getEstimator('chars'));
    expect(counts.totals.length).toBe(2);
    expect(counts.byRole.user).toBe(counts.byRole.assistant);
  });
});

describe('TokenIndex', () => {
  it('answers range sums like the naive sum, with appends', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100_000), { maxLength: 60 }), fc.array(fc.nat(100_000), { maxLength: 40 }), (initial, appended) => {
        const index = new TokenIndex(initial);
        for (const value of appended) index.append(value);
        const all = [...initial, ...appended];
        expect(index.length).toBe(all.length);
        expect(index.total).toBe(all.reduce((a, b) => a + b, 0));
        for (let i = 0; i < all.length; i += 3) {
          for (let j = i; j < all.length; j += 5) {
            expect(index.range(i, j)).toBe(all.slice(i, j + 1).reduce((a, b) => a + b, 0));
          }
          expect(index.countAt(i)).toBe(all[i]);
        }
      }),
    );
  });
  it('refuses out-of-range indices with a clear error', () => {
    const index = new TokenIndex([1, 2, 3]);
    expect(index.range(1, 0)).toBe(0);
    expect(() => index.range(0, 3)).toThrow(/0\.\.3 is outside the 3 counted entries/);
    expect(() => index.countAt(-1)).toThrow(RangeError);
  });
});
