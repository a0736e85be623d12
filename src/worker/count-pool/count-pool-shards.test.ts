import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block, Entry, Role } from '../../core/journal/entry.ts';
import { importText } from '../../core/import/run.ts';
import { getCounter, getEstimator } from '../../core/tokens/counters.ts';
import { countEntries, countEntry } from '../../core/tokens/entry-tokens.ts';
import { countWork, mergeShards, planShards } from './count-pool-shards.ts';
import { SAMPLES } from './count-pool-testing.ts';


const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const block: fc.Arbitrary<Block> = fc.oneof(
  text.map((t) => ({ type: 'text', text: t }) as const),
  fc.record({ text, signature: fc.string() }).map(({ text: t, signature }) => ({ type: 'thinking', text: t, signature }) as const),
  fc.record({ name: fc.string({ maxLength: 8 }), input: fc.oneof(fc.jsonValue(), fc.string(), fc.constant(undefined)) })
    .map(({ name, input }) => ({ type: 'tool_call', callId: 'c', name, input, resultEntryId: 'r' }) as const),
  fc.array(fc.oneof(text.map((t) => ({ type: 'text', text: t }) as const), fc.constant({ type: 'image', mediaType: 'image/png', bytes: 9, source: 'base64' } as const)), { maxLength: 3 })
    .map((content) => ({ type: 'tool_result', callId: 'c', content, isError: true, toolName: 't' }) as const),
  fc.constant({ type: 'image', mediaType: 'image/png', bytes: 12, source: 'base64' } as const),
);
const role = fc.constantFrom<Role>('system', 'user', 'assistant', 'tool', 'summary');
const entriesArbitrary: fc.Arbitrary<Entry[]> = fc.array(fc.record({ role, blocks: fc.array(block, { maxLength: 4 }) }), { maxLength: 40 })
  .map((list) => list.map(({ role: r, blocks }, index) => ({ id: `e${index}`, index, parentId: null, role: r, kind: 'message', blocks, sourceType: 'test', line: index + 1 })));

function sample(path: string): Entry[] {
  return importText(readFileSync(`public/samples/${path}`), { fileName: path }).entries;
}

describe('countWork', () => {
  it('keeps, entry for entry, the o200k count of every sample while dropping what counting does not read', async () => {
    const o200k = await getCounter('o200k');
    for (const path of SAMPLES) {
      const entries = sample(path);
      const work = countWork(entries);
      expect(work.entries.map((entry) => countEntry(entry, o200k)), path).toEqual(entries.map((entry) => countEntry(entry, o200k)));
      expect(work.chars).toBe(work.weights.reduce((a, b) => a + b, 0));
      expect(JSON.stringify(work.entries).length, path).toBeLessThanOrEqual(JSON.stringify(entries).length);
    }
  });

  it('gives every counter the same per-block counts as the original entries (property)', () => {
    const counters = [getEstimator('chars4'), getEstimator('len3'), getEstimator('chars')];
    fc.assert(fc.property(entriesArbitrary, (entries) => {
      const work = countWork(entries);
      for (const counter of counters) expect(countEntries(work.entries, counter)).toEqual(countEntries(entries, counter));
      expect(work.entries.every((entry) => entry.blocks.every((b) => b.type !== 'thinking' || b.signature === undefined))).toBe(true);
    }));
  });
});

describe('planShards', () => {
  it('cuts into contiguous, non-empty shards covering every entry, at most as many as asked (property)', () => {
    fc.assert(fc.property(fc.array(fc.nat({ max: 5000 }), { maxLength: 200 }), fc.integer({ min: 1, max: 20 }), (weights, parts) => {
      const ranges = planShards(weights, parts);
      if (weights.length === 0) {
        expect(ranges).toEqual([]);
        return;
      }
      expect(ranges.length).toBeLessThanOrEqual(Math.min(parts, weights.length));
      expect(ranges[0]!.start).toBe(0);
      expect(ranges.at(-1)!.end).toBe(weights.length);
      ranges.forEach((range, i) => {
        expect(range.end).toBeGreaterThan(range.start);
        if (i > 0) expect(range.start).toBe(ranges[i - 1]!.end);
      });
    }));
  });

  it('balances the text, and gives a very large entry a shard of its own', () => {
    expect(planShards(Array.from({ length: 100 }, () => 10), 4).map((r) => r.end - r.start)).toEqual([25, 25, 25, 25]);
    expect(planShards([1, 1, 1_000_000, 1, 1], 3)).toEqual([{ start: 0, end: 3 }, { start: 3, end: 4 }, { start: 4, end: 5 }]);
  });
});

describe('mergeShards', () => {
  it('equals one count of the whole journal however it is cut (property)', () => {
    const counter = getEstimator('chars4');
    fc.assert(fc.property(entriesArbitrary, fc.integer({ min: 1, max: 12 }), (entries, parts) => {
      const ranges = planShards(entries.map((e) => e.blocks.length * 7), parts);
      const results = ranges.map((r) => countEntries(entries.slice(r.start, r.end), counter));
      expect(mergeShards(ranges, results, entries.length)).toEqual(countEntries(entries, counter));
    }));
  });

  it('names the shard that came back with the wrong number of entries', () => {
    const counter = getEstimator('chars4');
    const entries = sample('pi/v3-small.jsonl');
    const ranges = planShards(entries.map(() => 1), 2);
    const results = [countEntries(entries.slice(0, 1), counter), countEntries(entries.slice(ranges[1]!.start), counter)];
    expect(() => mergeShards(ranges, results, entries.length)).toThrow(`Shard 0 (entries 0-${ranges[0]!.end - 1}) came back with 1 totals; expected ${ranges[0]!.end}.`);
  });
});
