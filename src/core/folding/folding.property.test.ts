import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../demo/generate-session.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { foldRun } from './run.ts';
import { unfold } from './recall.ts';
import type { FoldedBlock, FoldRun } from './types.ts';

const counter = getEstimator('chars4');
const SAMPLE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

function load(text: string): { entries: Entry[]; counts: Uint32Array } {
  const entries = importText(text).entries;
  return { entries, counts: countEntries(entries, counter).totals };
}

const sample = load(readFileSync(SAMPLE, 'utf8'));
const big = load(generateSession({ iterations: 400, seed: 7 }));

function checkRun(entries: readonly Entry[], run: FoldRun, bookmarks: readonly number[] = []): void {
  const its = run.iterations;
  // Iterations tile the entries.
  expect(its[0]?.from).toBe(0);
  expect(its[its.length - 1]?.to).toBe(entries.length - 1);
  its.forEach((it, i) => {
    expect(it.index).toBe(i);
    if (i > 0) expect(it.from).toBe(its[i - 1]!.to + 1);
  });
  // Blocks have exact ranges; top-level blocks tile the iterations; children tile inside their parent.
  const exact = (block: FoldedBlock): void => {
    expect(block.entryFrom).toBe(its[block.from]!.from);
    expect(block.entryTo).toBe(its[block.to]!.to);
    expect(block.id).toBe(`fold_iter${block.from}_to_${block.to}`);
    if (block.children.length) {
      expect(block.children[0]!.from).toBe(block.from);
      expect(block.children[block.children.length - 1]!.to).toBe(block.to);
      block.children.forEach((child, k) => {
        if (k > 0) expect(child.from).toBe(block.children[k - 1]!.to + 1);
        expect(child.level).toBeLessThan(block.level);
        exact(child);
      });
    }
  };
  run.blocks.forEach((block, k) => {
    if (k > 0) expect(block.from).toBe(run.blocks[k - 1]!.to + 1);
    for (let i = block.from; i <= block.to; i++) expect(run.levels[i]).toBe(block.level);
    exact(block);
  });
  expect(run.blocks[0]?.from).toBe(0);
  expect(run.blocks[run.blocks.length - 1]?.to).toBe(its.length - 1);
  // Unfolding every top-level block in order gives back the entries byte for byte.
  expect(JSON.stringify(run.blocks.flatMap((block) => unfold(block, entries)))).toBe(JSON.stringify(entries));
  // Older is at least as folded, except key moments (kept at L0) and what a touch or a recall
  // brought nearer (F2: the `near` events name them).
  const key = new Set(run.moments.map((m) => m.iteration));
  const near = new Set(run.events.flatMap((e) => (e.action === 'near' ? e.iterations ?? [] : [])));
  let newer = 0;
  for (let i = run.levels.length - 1; i >= 0; i--) {
    if (key.has(i)) {
      expect(run.levels[i]).toBe(0);
      continue;
    }
    if (near.has(i)) continue;
    expect(run.levels[i]!).toBeGreaterThanOrEqual(newer);
    newer = run.levels[i]!;
  }
  for (const b of bookmarks) if (b < its.length) expect(run.levels[b]).toBe(0);
}

function comparable(run: FoldRun): string {
  const { cache: _cache, summariesMade: _made, ...rest } = run;
  return JSON.stringify({ ...rest, levels: Array.from(run.levels) });
}

describe('folding properties', () => {
  it('the Claude Code sample: journal untouched, exact ranges, unfold round trip, monotone levels', () => {
    const before = structuredClone(sample.entries);
    const run = foldRun(sample.entries, sample.counts, { contextWindow: 60_000 }, new Map(), counter);
    expect(sample.entries).toEqual(before);
    checkRun(sample.entries, run);
    expect(run.events.some((e) => e.action === 'fold')).toBe(true);
    expect(run.tokensAfter).toBeLessThan(run.tokensBefore);
  });

  it('400 generated iterations: same properties, deterministic, cache reused', () => {
    const before = structuredClone(big.entries);
    const run = foldRun(big.entries, big.counts, { contextWindow: 100_000, bookmarks: [3, 150] }, new Map(), counter);
    expect(big.entries).toEqual(before);
    expect(run.iterations.length).toBeGreaterThanOrEqual(400);
    checkRun(big.entries, run, [3, 150]);
    const again = foldRun(big.entries, big.counts, { contextWindow: 100_000, bookmarks: [3, 150] }, new Map(), counter);
    expect(comparable(again)).toBe(comparable(run));
    expect(run.summariesMade).toBeGreaterThan(0);
    const cached = foldRun(big.entries, big.counts, { contextWindow: 100_000, bookmarks: [3, 150] }, run.cache, counter);
    expect(cached.summariesMade).toBe(0);
    expect(comparable(cached)).toBe(comparable(run));
  });

  it('random sessions, windows, thresholds and bookmarks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 8_000, max: 200_000 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 4 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        (seed, iterations, contextWindow, bookmarks, l0Distance, keyMoments) => {
          const { entries, counts } = load(generateSession({ iterations, seed }));
          const before = structuredClone(entries);
          const options = { contextWindow, bookmarks, l0Distance, l1Distance: l0Distance * 3, l2Distance: l0Distance * 6, l3Distance: l0Distance * 9, keyMoments };
          const run = foldRun(entries, counts, options, new Map(), counter);
          expect(entries).toEqual(before);
          checkRun(entries, run, bookmarks);
          for (const e of run.events) if ('every' in e.numbers) expect([5, 20, 50]).toContain(e.numbers.every);
        },
      ),
      { numRuns: 12, seed: 42 },
    );
  });
});
