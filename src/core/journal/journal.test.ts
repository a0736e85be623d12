import { describe, expect, it } from 'vitest';
import type { Entry } from './entry.ts';
import { linkToolCalls } from './link.ts';
import { branchLeaves, listBranches, pathTo } from './tree.ts';
import { viewRows } from './view-rows.ts';

let n = 0;
function entry(partial: Partial<Entry> & Pick<Entry, 'role'>): Entry {
  const index = n++;
  return { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, kind: 'message', blocks: [], sourceType: 't', line: index + 1, ...partial };
}
const text = (t: string) => ({ type: 'text' as const, text: t });
const call = (id: string) => ({ type: 'tool_call' as const, callId: id, name: 'Read', input: { path: 'a' } });
const result = (id: string) => ({ type: 'tool_result' as const, callId: id, content: [text('ok')], isError: false });

describe('linkToolCalls', () => {
  it('links calls and results, out of order too, and counts orphans', () => {
    n = 0;
    const entries = [
      entry({ role: 'assistant', blocks: [call('a'), call('b'), call('c')] }),
      entry({ role: 'tool', blocks: [result('b')] }),
      entry({ role: 'tool', blocks: [result('a')] }),
      entry({ role: 'tool', blocks: [result('z')] }),
    ];
    const report = linkToolCalls(entries);
    expect(report).toEqual({ toolCalls: 3, toolResults: 3, orphanToolCalls: 1, orphanToolResults: 1 });
    const [first] = entries;
    expect(first?.blocks.map((b) => (b.type === 'tool_call' ? b.resultEntryId : undefined))).toEqual(['e2', 'e1', undefined]);
  });
});

describe('tree', () => {
  it('does not count a parallel-call fan-out as a branch, but counts a rewind', () => {
    n = 0;
    const entries = [
      entry({ role: 'user', blocks: [text('go')] }),
      entry({ role: 'assistant', blocks: [call('a'), call('b')] }),
      entry({ role: 'tool', parentId: 'e1', blocks: [result('a')] }),
      entry({ role: 'tool', parentId: 'e1', blocks: [result('b')] }),
      entry({ role: 'assistant', parentId: 'e3', blocks: [text('done')] }),
    ];
    expect(branchLeaves(entries).map((e) => e.id)).toEqual(['e4']);
    entries.push(entry({ role: 'user', parentId: 'e0', blocks: [text('retry differently')] }));
    const branches = listBranches(entries);
    expect(branches).toHaveLength(2);
    expect(branches[0]).toMatchObject({ leafId: 'e5', active: true, length: 2 });
    expect(branches[1]).toMatchObject({ leafId: 'e4', forkId: 'e0', label: 'go' });
    expect(pathTo(entries, 'e4')).toEqual([0, 1, 3, 4]);
  });
});

describe('viewRows', () => {
  n = 0;
  const entries = [
    entry({ role: 'user', blocks: [text('fix it')] }),
    entry({ role: 'assistant', blocks: [text('looking'), call('a')] }),
    entry({ role: 'tool', blocks: [result('a')] }),
    entry({ role: 'assistant', blocks: [text('fixed')] }),
    entry({ role: 'user', blocks: [text('<system-reminder>x</system-reminder>')], flags: { injected: true } }),
    entry({ role: 'user', blocks: [text('thanks')] }),
  ];
  const path = entries.map((e) => e.index);

  it('default shows every entry in full', () => {
    expect(viewRows(entries, path, 'default').every((row) => row.display === 'full')).toBe(true);
  });
  it('compact puts calls, results and intermediate messages on one line', () => {
    expect(viewRows(entries, path, 'compact').map((row) => row.display)).toEqual(['full', 'line', 'line', 'full', 'line', 'full']);
  });
  it('quiet keeps prompts and final answers', () => {
    expect(viewRows(entries, path, 'quiet').map((row) => row.index)).toEqual([0, 3, 5]);
  });
});
