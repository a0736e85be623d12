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
  const last = { ...options, from: 'last-compaction' as const };
  const totals = [10, 10, 10, 10, 10, 10, 10];
  const ids = (built: ReturnType<typeof buildInput>) => built.input.entries.map((entry) => entry.id);

  it('starts at the first entry by default and leaves the compaction the source agent recorded out (its summary stands for history the input holds)', () => {
    const built = buildInput(journalWith('pi.compaction'), totals, getEstimator('chars4'), options);
    expect(ids(built)).toEqual(['e0', 'e1', 'x0', 'x1']);
    expect(built.journalIndex).toEqual([0, 1, 5, 6]);
    expect(built.input.tokens.total).toBe(40);
    expect(built.firstCall).toBe(0);
    expect(built.scope).toMatchObject({ from: 'start', entries: 4, calls: 2, branchCalls: 2, sourceCompactions: 1 });
    expect(built.note).toMatch(/^From the first entry of the branch \(4 entries, 2 calls\): the source agent's own compaction \(line 5\) is left out/);
  });

  it('continues from the last compaction as pi rebuilds it: the summary, then the entries from firstKeptEntryId up to it, then what followed; the kept replies are not calls', () => {
    const built = buildInput(journalWith('pi.compaction'), totals, getEstimator('chars4'), last);
    expect(ids(built)).toEqual(['m', 'e1', 'x0', 'x1']);
    expect(built.journalIndex).toEqual([4, 1, 5, 6]);
    expect(built.firstCall).toBe(2);
    expect(built.scope).toMatchObject({ from: 'last-compaction', entries: 4, calls: 1, branchCalls: 2, sourceCompactions: 1 });
    expect(built.note).toMatch(/^From the compaction the source agent recorded at line 5: its summary, the 1 entry it kept \(from line 2, as the agent rebuilt its context/);
  });

  it('continues from a compaction that keeps nothing (Claude Code, Codex) at its summary, as before', () => {
    const journal = journalWith('pi.compaction');
    const marker = journal[4]!;
    journal[4] = { ...marker, marker: { source: 'claude.compact_summary' } };
    const built = buildInput(journal, totals, getEstimator('chars4'), last);
    expect(ids(built)).toEqual(['m', 'x0', 'x1']);
    expect(built.firstCall).toBe(0);
    expect(built.scope).toMatchObject({ from: 'last-compaction', calls: 1, branchCalls: 2 });
    expect(built.scope.note).toMatch(/the 1 earlier call of the branch are not replayed|the 1 earlier call of the branch is not replayed/);
  });

  it('says so when asked to continue from a compaction on a branch that has none', () => {
    const journal = journalWith('pi.compaction');
    const { marker: _, ...plain } = journal[4]!;
    journal[4] = { ...plain, role: 'user', kind: 'message' };
    const built = buildInput(journal, totals, getEstimator('chars4'), last);
    expect(ids(built)).toEqual(['e0', 'e1', 'm', 'x0', 'x1']);
    expect(built.scope).toMatchObject({ from: 'start', sourceCompactions: 0 });
    expect(built.scope.note).toBe('From the first entry of the branch (5 entries, 2 calls): the source agent recorded no compaction on it.');
    expect(built.note).toBeUndefined();
  });

  it('keeps the history before a branch summary either way: it is a message on the branch, not a compaction boundary', () => {
    for (const from of ['start', 'last-compaction'] as const) {
      const built = buildInput(journalWith('pi.branch_summary'), totals, getEstimator('chars4'), { ...options, from });
      expect(ids(built)).toEqual(['e0', 'e1', 'm', 'x0', 'x1']);
      expect(built.scope).toMatchObject({ from: 'start', sourceCompactions: 0 });
      expect(built.note).toBeUndefined();
    }
  });
});
