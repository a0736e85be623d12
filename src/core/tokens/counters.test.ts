import fc from 'fast-check';
import * as cl100kModule from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200kModule from 'gpt-tokenizer/encoding/o200k_base';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COUNTER_IDS,
  COUNTER_LABELS,
  codePointLength,
  exactCounter,
  getCounter,
  getEstimator,
  guardMergeCache,
  parseCounterId,
  type EncodingModule,
  type EstimatorId,
  type TokenCounter,
} from './counters.ts';

// Reference: js-tiktoken, with special tokens neither allowed nor disallowed, i.e. plain text.
const reference = { o200k: new Tiktoken(o200kRanks), cl100k: new Tiktoken(cl100kRanks) };
const refCount = (id: 'o200k' | 'cl100k', text: string) => reference[id].encode(text, [], []).length;

const SPECIALS = [
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|endofprompt|>',
  '<|im_start|>',
  '<|im_end|>',
  '<|im_sep|>',
  '<|start|>',
  '<|message|>',
];

const SAMPLES = [
  '',
  'hello world',
  'Hello, world! The quick brown fox jumps over the lazy dog.',
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  '{"file_path":"/src/a.ts","old_string":"x","new_string":"y"}',
  '$ npm test\n\n FAIL  src/api.test.ts\n  ● parses the port\n    expected 8080, got "8080"',
  'héllo wörld 你好世界 日本語のテキスト 🎉👍🏽 👨‍👩‍👧',
  '\ud800 lone high, lone low \udc00',
  '   \n\n\t  x  \r\n',
  'the model printed <|endoftext|> then <|im_start|>user<|im_end|> and <|fim_prefix|><|endofprompt|>',
  `${'=='.repeat(300)}\n${'-'.repeat(500)}`,
];

describe('counter ids and labels', () => {
  it('lists five counters with their labels', () => {
    expect(COUNTER_IDS).toEqual(['o200k', 'cl100k', 'chars4', 'len3', 'chars']);
    expect(COUNTER_LABELS).toEqual({ o200k: 'o200k_base', cl100k: 'cl100k_base', chars4: 'chars/4', len3: 'len/3', chars: 'chars' });
  });

  it('parses ids, encoding names and estimator spellings', () => {
    const cases: Array<[string, string]> = [
      ['o200k', 'o200k'],
      ['o200k_base', 'o200k'],
      ['cl100k', 'cl100k'],
      ['cl100k_base', 'cl100k'],
      ['chars4', 'chars4'],
      ['chars/4', 'chars4'],
      ['len3', 'len3'],
      ['len/3', 'len3'],
      ['chars', 'chars'],
      [' O200K_BASE ', 'o200k'],
    ];
    for (const [input, id] of cases) expect(parseCounterId(input)).toBe(id);
  });

  it('refuses unknown names with the valid values in the message', () => {
    expect(() => parseCounterId('p50k')).toThrow(Error);
    expect(() => parseCounterId('p50k')).toThrow(/"p50k".*o200k, cl100k, chars4, len3, chars.*o200k_base, cl100k_base, chars\/4, len\/3/);
    expect(() => parseCounterId('')).toThrow(/use one of/);
  });
});

describe('estimators', () => {
  const chars4 = getEstimator('chars4');
  const len3 = getEstimator('len3');
  const chars = getEstimator('chars');

  it('chars/4 is ceil(UTF-16 length / 4), like pi', () => {
    expect([0, 1, 4, 5, 8, 9].map((n) => chars4.count('a'.repeat(n)))).toEqual([0, 1, 1, 2, 2, 3]);
    expect(chars4.count('😀')).toBe(1); // 2 UTF-16 units
    expect(chars4.count('😀😀😀')).toBe(2); // 6 units
  });

  it('len/3 is floor(code points / 3), like Python len(input) // 3', () => {
    expect([0, 2, 3, 5, 6, 7].map((n) => len3.count('a'.repeat(n)))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(len3.count('😀😀😀')).toBe(1); // 3 code points, 6 UTF-16 units
  });

  it('chars counts code points', () => {
    expect(chars.count('abcde')).toBe(5);
    expect(chars.count('😀a')).toBe(2);
    expect(chars.count('\ud800x')).toBe(2); // a lone surrogate is one code point, as in Python
    expect(codePointLength('\udc00\ud800')).toBe(2);
  });

  it('weigh images at 1200 tokens, 1600 for len/3, 4800 characters for chars', () => {
    expect([chars4.imageTokens, len3.imageTokens, chars.imageTokens]).toEqual([1200, 1600, 4800]);
    expect([chars4.exact, len3.exact, chars.exact]).toEqual([false, false, false]);
    expect([chars4.label, len3.label, chars.label]).toEqual(['chars/4', 'len/3', 'chars']);
  });

  it('are also returned by getCounter, and getEstimator refuses exact ids', async () => {
    expect(await getCounter('len3')).toBe(len3);
    expect(() => getEstimator('o200k' as EstimatorId)).toThrow(/not an estimator/);
  });
});

describe('exact counters', () => {
  let o200k: TokenCounter;
  let cl100k: TokenCounter;
  // Loading both rank tables takes seconds on a busy machine: longer than the default hook timeout.
  beforeAll(async () => {
    [o200k, cl100k] = await Promise.all([getCounter('o200k'), getCounter('cl100k')]);
  }, 60_000);

  it('are loaded once and shared', async () => {
    expect(await getCounter('o200k')).toBe(o200k);
    expect(o200k).toMatchObject({ id: 'o200k', label: 'o200k_base', exact: true, imageTokens: 1200 });
    expect(cl100k).toMatchObject({ id: 'cl100k', label: 'cl100k_base', exact: true, imageTokens: 1200 });
  });

  it('give known counts (checked against js-tiktoken)', () => {
    expect(o200k.count('hello world')).toBe(2);
    expect(cl100k.count('hello world')).toBe(2);
    expect(o200k.count('Hello, world!')).toBe(4);
    expect(o200k.count('héllo wörld 你好世界 🎉👍🏽')).toBe(13);
    expect(cl100k.count('héllo wörld 你好世界 🎉👍🏽')).toBe(21);
    expect(o200k.count('')).toBe(0);
  });

  it('match js-tiktoken on samples', () => {
    for (const text of SAMPLES) {
      expect(o200k.count(text), text).toBe(refCount('o200k', text));
      expect(cl100k.count(text), text).toBe(refCount('cl100k', text));
    }
  });

  it('count special-token text as plain text instead of throwing', () => {
    // The trap: gpt-tokenizer's default throws "Disallowed special token found".
    expect(() => o200kModule.countTokens('<|endoftext|>')).toThrow(/Disallowed special token/);
    expect(o200k.count('<|endoftext|>')).toBe(7);
    expect(cl100k.count('<|endoftext|>')).toBe(7);
    for (const special of SPECIALS) {
      const text = `before ${special} after${special}`;
      expect(o200k.count(text), text).toBe(refCount('o200k', text));
      expect(cl100k.count(text), text).toBe(refCount('cl100k', text));
      // Plain text never yields a special token id.
      expect(o200kModule.encode(special, { disallowedSpecial: new Set() }).length).toBeGreaterThan(1);
    }
  });

  it('match js-tiktoken on random text', () => {
    const fragment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(...SPECIALS, ' ', '\n', '  ', '\t', '{"a": 1}', 'don\'t', '123456'),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(o200k.count(text)).toBe(refCount('o200k', text));
        expect(cl100k.count(text)).toBe(refCount('cl100k', text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('merge cache guard', () => {
  type Core = { mergeCache?: Map<string, number[]>; mergeCacheSize: number };
  const coreOf = (mod: unknown) => (mod as { default: { bytePairEncodingCoreProcessor: Core } }).default.bytePairEncodingCoreProcessor;

  it('finds gpt-tokenizer\'s cache in the installed version and lifts its eviction limit', async () => {
    await getCounter('cl100k');
    await getCounter('o200k');
    for (const mod of [cl100kModule, o200kModule]) {
      const core = coreOf(mod);
      expect(core.mergeCache).toBeInstanceOf(Map);
      expect(core.mergeCacheSize).toBe(Number.MAX_SAFE_INTEGER);
    }
  });

  it('clears the real cache once it reaches the limit, without changing counts', () => {
    const counter = exactCounter('cl100k', cl100kModule as EncodingModule, 40);
    const core = coreOf(cl100kModule);
    for (let round = 0; round < 30; round++) {
      const words = Array.from({ length: 8 }, (_, k) => `zqx${round}vbn${k}plorf`).join(' ');
      expect(counter.count(words)).toBe(refCount('cl100k', words));
      // At most one call's insertions past the limit, then cleared.
      expect(core.mergeCache!.size).toBeLessThan(40);
    }
  });

  function fakeModule(withInternals: boolean) {
    const cache = new Map<string, number>();
    const calls = { clear: 0, sizes: [] as number[] };
    const mod: EncodingModule = {
      countTokens: (text) => {
        for (const word of text.split(' ')) cache.set(word, 1);
        return text.split(' ').length * 2;
      },
      setMergeCacheSize: (size) => calls.sizes.push(size),
      clearMergeCache: () => {
        calls.clear++;
        cache.clear();
      },
      default: withInternals ? { bytePairEncodingCoreProcessor: { mergeCache: cache } } : {},
    };
    return { mod, cache, calls };
  }

  it('with the cache visible: never lets the library evict, clears at the limit', () => {
    const { mod, cache, calls } = fakeModule(true);
    const after = guardMergeCache(mod, 10);
    expect(calls.sizes).toEqual([Number.MAX_SAFE_INTEGER]);
    mod.countTokens('a b c d e f g h i');
    after(18);
    expect(calls.clear).toBe(0);
    mod.countTokens('j');
    after(2);
    expect(calls.clear).toBe(1);
    expect(cache.size).toBe(0);
  });

  it('without it: keeps the limit as capacity and clears every 2 x limit tokens', () => {
    const { mod, calls } = fakeModule(false);
    const after = guardMergeCache(mod, 10);
    expect(calls.sizes).toEqual([10]);
    after(19);
    expect(calls.clear).toBe(0);
    after(1);
    expect(calls.clear).toBe(1);
    after(19);
    expect(calls.clear).toBe(1);
  });
});
