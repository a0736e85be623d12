// The live chat's branch as the page draws it: the session's leaf once stored, else the newest entry; every branch; the todos on the one shown.
import { describe, expect, it } from 'vitest';
import type { Block, Entry, Role } from '../../core/journal/entry.ts';
import { liveBranchView } from './live-session.ts';

const entry = (index: number, id: string, parentId: string | null, role: Role, blocks: Block[] = [{ type: 'text', text: id }]): Entry => ({
  id, index, parentId, role, kind: 'message', blocks, sourceType: 'test', line: index + 1,
});
const todoWrite = (content: string): Block => ({ type: 'tool_call', callId: `t-${content}`, name: 'todo_write', input: { todos: [{ content, status: 'in_progress' }] } });

// u1 → a1 (wrote a todo) → u2 → a2, and an edit of u2 made a second branch: u2b → a2b.
const journal = [
  entry(0, 'u1', null, 'user'),
  entry(1, 'a1', 'u1', 'assistant', [todoWrite('read the code')]),
  entry(2, 'u2', 'a1', 'user'),
  entry(3, 'a2', 'u2', 'assistant', [todoWrite('fix the bug')]),
  entry(4, 'u2b', 'a1', 'user'),
  entry(5, 'a2b', 'u2b', 'assistant'),
];

describe('liveBranchView', () => {
  it('shows the session leaf\'s branch with its todos, and lists both branches', () => {
    const view = liveBranchView(journal, 'a2');
    expect(view.shownLeaf).toBe('a2');
    expect(view.path).toEqual([0, 1, 2, 3]);
    expect(view.branch.map((e) => e.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(view.todos).toEqual([{ content: 'fix the bug', status: 'in_progress' }]);
    expect(view.branches.map((b) => b.leafId).sort()).toEqual(['a2', 'a2b']);
  });

  it('shows the newest stored entry\'s branch while the leaf is not stored yet, and the last todo written on that branch', () => {
    const view = liveBranchView(journal, 'not-stored-yet');
    expect(view.shownLeaf).toBe('a2b');
    expect(view.branch.map((e) => e.id)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    expect(view.todos).toEqual([{ content: 'read the code', status: 'in_progress' }]);
    expect(liveBranchView(journal, null).shownLeaf).toBe('a2b');
  });

  it('is empty for an empty journal, with no todos', () => {
    expect(liveBranchView([], undefined)).toEqual({ shownLeaf: undefined, path: [], branches: [], branch: [], todos: undefined });
  });
});
