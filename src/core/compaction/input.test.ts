import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { buildInput } from './input.ts';
import { makeEntries } from './testing.ts';

/** A user/assistant exchange, then a pi marker of `source`, then one more exchange on top of it. */
function journalWith(source: string): Entry[] {
  const entries = makeEntries([{ user: 'first request' }, { assistant: 'first answer' }, { user: 'second request' }, { assistant: 'second answer' }]);
  const marker: Entry = {
    id: 'm', index: 4, parentId: 'e1', role: 'summary', kind: 'compaction', sourceType: 'test', line: 5,
    blocks: [{ type: 'text', text: 'What happened before.' }], marker: { source, ...(source === 'pi.compaction' ? { firstKeptEntryId: 'e1' } : { fromId: 'e3' }) },
  };
  const after = makeEntries([{ user: 'third request' }, { assistant: 'third answer' }]).map((entry, i): Entry => ({ ...entry, id: `x${i}`, index: 5 + i, line: 6 + i, parentId: i === 0 ? 'm' : 'x0' }));
  return [...entries, marker, ...after];
}

describe('buildInput: where the input starts', () => {
  const options = { leafId: 'x1', contextWindow: 10_000 };
  const totals = [10, 10, 10, 10, 10, 10, 10];

  it('starts at a compaction the source agent recorded (its model saw only the summary and what followed)', () => {
    const built = buildInput(journalWith('pi.compaction'), totals, getEstimator('chars4'), options);
    expect(built.input.entries.map((entry) => entry.id)).toEqual(['m', 'x0', 'x1']);
    expect(built.note).toMatch(/^Starts at the compaction the source agent recorded at line 5/);
  });

  it('keeps the history before a branch summary: it is a message on the branch, not a compaction boundary', () => {
    const built = buildInput(journalWith('pi.branch_summary'), totals, getEstimator('chars4'), options);
    expect(built.input.entries.map((entry) => entry.id)).toEqual(['e0', 'e1', 'm', 'x0', 'x1']);
    expect(built.note).toBeUndefined();
  });
});
