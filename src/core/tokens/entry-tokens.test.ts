import { describe, expect, it } from 'vitest';
import { blockText, type Block, type Entry, type Role } from '../journal/entry.ts';
import { TokenCache } from './cache.ts';
import { getCounter, getEstimator, type TokenCounter } from './counters.ts';
import { PROGRESS_EVERY, countEntries, countEntry } from './entry-tokens.ts';

const png = { type: 'image', mediaType: 'image/png', bytes: 10, source: 'base64' } as const;

function entry(index: number, role: Role, blocks: Block[], kind: Entry['kind'] = 'message'): Entry {
  return { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind, blocks, sourceType: 't', line: index + 1 };
}

const mixed = entry(10, 'assistant', [
  { type: 'text', text: 'abcdefgh' }, // 8 chars
  { type: 'thinking', text: 'hmm', signature: 'opaque-signature-not-counted' }, // 3
  { type: 'tool_call', callId: 'c1', name: 'Read', input: { p: 1 } }, // Read({"p":1}) = 13
  { type: 'tool_call', callId: 'c2', name: 'apply_patch', input: '*** Begin' }, // apply_patch(*** Begin) = 22
  png,
]);
const result = entry(11, 'tool', [
  { type: 'tool_result', callId: 'c1', isError: false, content: [{ type: 'text', text: 'abcd' }, png, { type: 'text', text: 'ef' }] },
]);
const resultText = blockText(result.blocks[0]!); // 'abcd' and 'ef' joined by newlines (entry.ts decides how)

/** A counter that records what it was asked to count. */
function spy(inner: TokenCounter) {
  const seen: string[] = [];
  const counter: TokenCounter = { ...inner, count: (text) => (seen.push(text), inner.count(text)) };
  return { counter, seen };
}

describe('countEntry', () => {
  it('counts each block as blockText renders it, images at the counter weight', () => {
    const counted = countEntry(mixed, getEstimator('chars'));
    expect(counted.byKind).toEqual({ text: 8, thinking: 3, tool_call: 13 + 22, tool_result: 0, image: 4800 });
    expect(counted.total).toBe(8 + 3 + 35 + 4800);
  });

  it('counts tool-result text joined by newlines and puts its images under image', () => {
    const { counter, seen } = spy(getEstimator('chars'));
    const counted = countEntry(result, counter);
    expect(seen).toEqual([resultText]);
    expect(resultText).toMatch(/^abcd\n+ef$/);
    expect(counted.byKind).toEqual({ text: 0, thinking: 0, tool_call: 0, tool_result: resultText.length, image: 4800 });
  });

  it('rounds estimators per block', () => {
    // chars/4: ceil(8/4) + ceil(3/4) + ceil(13/4) + ceil(22/4) = 2 + 1 + 4 + 6
    expect(countEntry(mixed, getEstimator('chars4'))).toEqual({
      total: 13 + 1200,
      byKind: { text: 2, thinking: 1, tool_call: 10, tool_result: 0, image: 1200 },
    });
    // len/3: floor(8/3) + floor(3/3) + floor(13/3) + floor(22/3) = 2 + 1 + 4 + 7
    expect(countEntry(mixed, getEstimator('len3')).total).toBe(14 + 1600);
  });

  it('uses the exact tokenizer on the rendered text, images at 1200', async () => {
    const o200k = await getCounter('o200k');
    const counted = countEntry(mixed, o200k);
    expect(counted.byKind.tool_call).toBe(o200k.count('Read({"p":1})') + o200k.count('apply_patch(*** Begin)'));
    expect(counted.byKind.image).toBe(1200);
    expect(counted.total).toBe(Object.values(counted.byKind).reduce((a, b) => a + b, 0));
  });

  it('skips empty text without calling the counter', () => {
    const { counter, seen } = spy(getEstimator('chars'));
    const counted = countEntry(entry(0, 'assistant', [{ type: 'thinking', text: '', redacted: true }, png]), counter);
    expect(seen).toEqual([]);
    expect(counted.total).toBe(4800);
  });
});

describe('countEntries', () => {
  const journal = [
    entry(0, 'system', [{ type: 'text', text: 'you are' }]),
    entry(1, 'user', [{ type: 'text', text: 'hi there' }]),
    mixed,
    result,
    entry(4, 'summary', [{ type: 'text', text: 'so far' }], 'compaction'),
    entry(5, 'user', [{ type: 'text', text: 'hook output' }], 'event'),
  ];

  it('returns per-entry totals and sums by kind and by role over all entries', () => {
    const chars = getEstimator('chars');
    const counts = countEntries(journal, chars);
    expect(counts.totals).toBeInstanceOf(Uint32Array);
    expect([...counts.totals]).toEqual(journal.map((e) => countEntry(e, chars).total));
    const tr = resultText.length;
    expect(counts.byRole).toEqual({ system: 7, user: 8 + 11, assistant: 4846, tool: tr + 4800, summary: 6 });
    expect(counts.byKind).toEqual({ text: 7 + 8 + 8 + 6 + 11, thinking: 3, tool_call: 35, tool_result: tr, image: 9600 });
    const total = [...counts.totals].reduce((a, b) => a + b, 0);
    expect(Object.values(counts.byRole).reduce((a, b) => a + b, 0)).toBe(total);
    expect(Object.values(counts.byKind).reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('reports progress every PROGRESS_EVERY entries and once at the end', () => {
    const many = Array.from({ length: PROGRESS_EVERY * 2 + 3 }, (_, i) => entry(i, 'user', [{ type: 'text', text: 'x' }]));
    const calls: Array<[number, number]> = [];
    countEntries(many, getEstimator('chars'), (done, total) => calls.push([done, total]));
    expect(calls).toEqual([
      [PROGRESS_EVERY, many.length],
      [PROGRESS_EVERY * 2, many.length],
      [many.length, many.length],
    ]);
    const empty: Array<[number, number]> = [];
    expect(countEntries([], getEstimator('chars'), (d, t) => empty.push([d, t])).totals.length).toBe(0);
    expect(empty).toEqual([[0, 0]]);
  });
});

describe('TokenCache', () => {
  const journal = [entry(0, 'user', [{ type: 'text', text: 'hello' }]), mixed, result];
  const keyOf = (e: Entry) => `conv1/${e.id}`;

  it('counts each entry once per counter and returns what countEntries returns', () => {
    const cache = new TokenCache();
    const chars = spy(getEstimator('chars'));
    const first = cache.countWithCache(journal, chars.counter, keyOf);
    const calls = chars.seen.length;
    expect(calls).toBeGreaterThan(0);
    expect(first).toEqual(countEntries(journal, getEstimator('chars')));
    expect(cache.countWithCache(journal, chars.counter, keyOf)).toEqual(first);
    expect(chars.seen.length).toBe(calls);

    const len3 = spy(getEstimator('len3'));
    cache.countWithCache(journal, len3.counter, keyOf);
    expect(len3.seen.length).toBe(calls);
    expect(cache.size).toBe(journal.length * 2);
  });

  it('get/set by key and counter id, and clear', () => {
    const cache = new TokenCache();
    const tokens = countEntry(mixed, getEstimator('chars'));
    cache.set('k', 'chars', tokens);
    expect(cache.get('k', 'chars')).toBe(tokens);
    expect(cache.get('k', 'o200k')).toBeUndefined();
    expect(cache.get('other', 'chars')).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('k', 'chars')).toBeUndefined();
  });
});
