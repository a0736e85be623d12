import { beforeAll, describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { getCounter, getEstimator, type TokenCounter } from './counters.ts';
import { countEntries } from './entry-tokens.ts';
import { countEntriesSliced } from './sliced-count.ts';

const entry = (i: number, text: string, role: Entry['role'] = 'user'): Entry =>
  ({ id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, index: i, role, kind: 'message', blocks: [{ type: 'text', text }] }) as Entry;

function drive(entries: Entry[], counter: TokenCounter, work: number) {
  const slices = countEntriesSliced(entries, counter, work);
  const seen: Array<{ done: number; total: number }> = [];
  for (;;) {
    const step = slices.next();
    if (step.done) return { result: step.value, seen };
    seen.push(step.value);
  }
}

describe('countEntriesSliced', () => {
  let o200k: TokenCounter;
  beforeAll(async () => {
    o200k = await getCounter('o200k');
  }, 60_000);

  it('gives the totals of countEntries, and hands control back inside one long entry', () => {
    const entries = [entry(0, 'hello world'), entry(1, `${'a'.repeat(300_000)} ${'='.repeat(50_000)}`, 'tool'), entry(2, 'bye now', 'assistant')];
    const { result, seen } = drive(entries, o200k, 20_000);
    expect(result).toEqual(countEntries(entries, o200k));
    // The 350k-character entry alone spans many slices, each reporting it as not yet done.
    expect(seen.filter((s) => s.done === 1).length).toBeGreaterThan(10);
    expect(seen.every((s) => s.total === 3)).toBe(true);
  });

  it('works with counters that count whole texts (the estimators)', () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(i, 'x'.repeat(i * 10)));
    const chars4 = getEstimator('chars4');
    const { result, seen } = drive(entries, chars4, 100);
    expect(result).toEqual(countEntries(entries, chars4));
    expect(seen.length).toBeGreaterThan(5);
  });
});
