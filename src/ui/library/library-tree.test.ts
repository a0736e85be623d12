// The library tree: subagents under their session, in import order; a subagent without its session alone.
import { describe, expect, it } from 'vitest';
import type { ConversationRow } from '../../db/schema.ts';
import type { SessionMeta } from '../../core/import/types.ts';
import { libraryTree, subagentNote } from './library-tree.ts';

function row(id: string, meta: SessionMeta, title = id): ConversationRow {
  return {
    id, title, format: 'claude-code', fileName: `${id}.jsonl`, size: 1, importId: id, importedAt: 0, entryCount: 1, meta,
    issues: [], issueCount: 0, blankLines: 0, lines: 1, ignoredLines: 0, origin: 'file',
  };
}

describe('libraryTree', () => {
  it('nests subagents under their session and keeps a lone subagent at the top, marked', () => {
    // Newest first, as the library lists them: agent b was imported after agent a.
    const rows = [
      row('other', { sessionId: 's2' }),
      row('agent-b', { sessionId: 's1', subagent: { parentSessionId: 's1', agentId: 'b' } }),
      row('lone', { sessionId: 's9', subagent: { parentSessionId: 's9', agentId: 'z' } }),
      row('agent-a', { sessionId: 's1', subagent: { parentSessionId: 's1', agentId: 'a', agentType: 'Explore', description: 'Map endpoints' } }),
      row('session', { sessionId: 's1' }),
    ];
    const tree = libraryTree(rows);
    expect(tree.map((node) => [node.row.id, node.subagents.map((child) => child.id), node.parentMissing ?? null])).toEqual([
      ['other', [], null],
      ['lone', [], 's9'],
      ['session', ['agent-a', 'agent-b'], null],
    ]);
    expect(subagentNote(rows[3]!)).toBe('subagent (Explore): Map endpoints');
    expect(subagentNote(rows[1]!)).toBe('subagent');
    expect(subagentNote(rows[0]!)).toBeUndefined();
  });
});
