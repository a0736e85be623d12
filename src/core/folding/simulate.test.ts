import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import type { Summarizer, SummaryRequest } from '../compaction/summarizer.ts';
import { foldRun } from './run.ts';
import { FoldSimulateError, parseRange, simulateFold } from './simulate.ts';
import { counted, stepEntries, testCounter } from './testing.ts';

const prompts = loadPrompts();
const { entries, counts } = counted(stepEntries(Array.from({ length: 90 }, (_, i) => ({ file: `src/f${i}.ts`, edit: i % 5 === 0, lines: 30 }))));
const run = foldRun(entries, counts, { everyLow: 1 }, new Map(), testCounter);

function model(reply: (request: SummaryRequest, n: number) => string): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'fake-model',
    label: 'Fake model',
    requests,
    summarize: (request) => {
      requests.push(request);
      return Promise.resolve({ text: reply(request, requests.length), model: 'fake' });
    },
  };
}

const GOOD = JSON.stringify({ summary: 'Read and edited the billing files one by one.', key_actions: ['edited src/f0.ts'], outcomes: ['billing files edited'], keywords: ['billing'], entities: ['src/f0.ts'] });

describe('simulate (F13)', () => {
  it('offline: before, after and savings of folding the recent L0/L1 iterations, the run untouched', async () => {
    const before = JSON.stringify({ ...run, levels: [...run.levels], cache: [...run.cache.keys()] });
    const last = run.iterations.length - 1;
    const sim = await simulateFold(run, entries, counts, { from: last - 15, to: last, counter: testCounter });
    expect(JSON.stringify({ ...run, levels: [...run.levels], cache: [...run.cache.keys()] })).toBe(before);
    expect(sim).toMatchObject({ from: last - 15, to: last, level: 2, summarizer: 'offline', source: 'offline' });
    expect(sim.text).toMatch(new RegExp(`^Summary \\(iterations ${last - 15}-${last}\\): `));
    expect(sim.levelsBefore.reduce((a, b) => a + b, 0)).toBe(16);
    expect(sim.levelsBefore[0]).toBeGreaterThan(0);
    // Iterations at L0 are shown in full; the summary is far smaller.
    expect(sim.range.before).toBeGreaterThan(sim.range.after * 5);
    expect(sim.range.before).toBeLessThanOrEqual(sim.range.original);
    expect(sim.range.after).toBe(testCounter.count(sim.text));
    expect(sim.context).toEqual({ before: run.tokensAfter, after: run.tokensAfter - sim.savings.tokens });
    expect(sim.savings.tokens).toBe(sim.range.before - sim.range.after);
    expect(sim.savings.ofRange).toBeCloseTo(sim.savings.tokens / sim.range.before, 9);
    expect(sim.savings.ofContext).toBeCloseTo(sim.savings.tokens / run.tokensAfter, 9);
  });

  it('a range already folded saves little or costs tokens; a range cutting a block counts its share', async () => {
    const block = run.blocks.find((b) => b.level >= 2 && b.to > b.from)!;
    const whole = await simulateFold(run, entries, counts, { from: block.from, to: block.to, counter: testCounter });
    expect(whole.range.before).toBe(block.tokens.folded);
    expect(whole.savings.tokens).toBeLessThan(whole.range.before);
    const half = await simulateFold(run, entries, counts, { from: block.from, to: block.from + Math.floor((block.to - block.from) / 2), counter: testCounter });
    expect(half.range.before).toBeLessThan(whole.range.before);
    expect(half.range.before).toBeGreaterThan(0);
  });

  it('levels 3 and 4 give a chapter and a phase line', async () => {
    const chapter = await simulateFold(run, entries, counts, { from: 10, to: 40, level: 3, counter: testCounter });
    expect(chapter.text).toMatch(/^Chapter \(iterations 10-40\): .*\n.*\[recall: journal:seq_/s);
    const phase = await simulateFold(run, entries, counts, { from: 10, to: 40, level: 4, counter: testCounter });
    expect(phase.text).toMatch(/^\[iterations 10-40\] /);
    expect(phase.range.after).toBeLessThan(chapter.range.after);
  });

  it('with a model: one request for the range at its level, its summary shown; an unusable reply twice falls back with a note', async () => {
    const summarizer = model(() => GOOD);
    const sim = await simulateFold(run, entries, counts, { from: 5, to: 20, summarizer, prompts, counter: testCounter });
    expect(summarizer.requests).toHaveLength(1);
    expect(summarizer.requests[0]!.promptId).toBe('fold-level-summary');
    expect(summarizer.requests[0]!.entries).toEqual(entries.slice(run.iterations[5]!.from, run.iterations[20]!.to + 1));
    expect(sim).toMatchObject({ source: 'model', summarizer: 'fake-model' });
    expect(sim.text).toContain('Read and edited the billing files one by one.');
    const bad = model(() => 'not json');
    const fallback = await simulateFold(run, entries, counts, { from: 5, to: 20, summarizer: bad, prompts, counter: testCounter });
    expect(bad.requests).toHaveLength(2);
    expect(fallback.source).toBe('offline');
    expect(fallback.note).toMatch(/after a retry/);
    const down: Summarizer = { id: 'down', label: 'Down', summarize: () => Promise.reject(new Error('HTTP 503 from the provider')) };
    await expect(simulateFold(run, entries, counts, { from: 5, to: 20, summarizer: down, prompts })).rejects.toThrow('HTTP 503');
  });

  it('refuses a range outside the run, and parses "a-b"', async () => {
    await expect(simulateFold(run, entries, counts, { from: 80, to: 500 })).rejects.toThrow(/Iterations 80-500 are not in this run: pick a range within 0-89/);
    await expect(simulateFold(run, entries, counts, { from: 5, to: 2 })).rejects.toThrow(FoldSimulateError);
    expect(parseRange('20-50')).toEqual({ from: 20, to: 50 });
    expect(parseRange(' 7 ')).toEqual({ from: 7, to: 7 });
    expect(() => parseRange('50-20')).toThrow(/ends before it starts/);
    expect(() => parseRange('x')).toThrow(/such as "20-50"/);
  });
});
