// Subagents as conversations, on real Claude Code files (__fixtures__/claude-code/NOTICE.md): 2.1
// subagent transcripts under <session>/subagents/, 2.0 top-level agent-*.jsonl files, and a 1.0
// session with five subagents written inline. Call counts were made by hand: one call per distinct
// assistant `message.id` on the thread (FORMATS.md §1.6 pitfall 1).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { branchLeaves } from '../journal/tree.ts';
import { findCalls } from '../replay/calls.ts';
import { importText } from './run.ts';
import type { ImportResult } from './types.ts';

const DIR = 'src/core/import/__fixtures__/claude-code';
const SESSION = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';
const INLINE = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';

function load(path: string): ImportResult {
  return importText(readFileSync(`${DIR}/${path}`), { fileName: path });
}

/** The calls a replay of the conversation's active branch makes. */
function branchCalls(result: ImportResult): number {
  const leaves = branchLeaves(result.entries);
  expect(leaves).toHaveLength(1);
  return findCalls(result.entries).length;
}

describe('Claude Code subagent transcripts (2.1: <session>/subagents/agent-<id>.jsonl)', () => {
  // agent id -> distinct assistant message ids in the file, counted by hand.
  const FILES: Array<[string, number, number]> = [
    ['a36efb2a1231c41e2', 18, 6],
    ['a4ca7529859c158c2', 56, 20],
    ['a52886dc180afb356', 44, 15],
    ['a6aa8ad077d9ea083', 18, 5],
    ['ab1e6e141221a29ab', 41, 15],
    ['aef063ba534d73153', 16, 5],
  ];

  it.each(FILES)('agent-%s imports as a conversation of its own, linked to its session', (agentId, lines, calls) => {
    const result = load(`${SESSION}/subagents/agent-${agentId}.jsonl`);
    expect(result.lines).toBe(lines);
    expect(result.issues).toEqual([]);
    // Every line is `isSidechain: true`; here it is the conversation's own thread.
    expect(result.entries.every((entry) => !entry.flags?.sidechain)).toBe(true);
    expect(branchCalls(result)).toBe(calls);
    expect(result.meta.subagent).toEqual({ parentSessionId: SESSION, agentId });
    expect(result.threads).toBeUndefined();
    expect(result.entries.map((entry) => entry.index)).toEqual(result.entries.map((_, i) => i));
  });

  it('leaves the parent session as it was: 17 calls on one branch, no threads', () => {
    const result = load(`${SESSION}.jsonl`);
    expect(branchCalls(result)).toBe(17);
    // Which call started which subagent, from the results' `toolUseResult.agentId` (lines 57-144).
    expect(result.meta.subagentCalls).toEqual({
      ab1e6e141221a29ab: 'toolu_01EaAN7bPNQrMTGoKhbEjVrx',
      a52886dc180afb356: 'toolu_016neBD9WjCCZqzRTP3afGDT',
      a4ca7529859c158c2: 'toolu_01GmrK6tgdD9D5xD6W5X9UUy',
      aef063ba534d73153: 'toolu_01N26s4U6vDxE1NRAH5CyCNf',
      a6aa8ad077d9ea083: 'toolu_0151DrVyXBXfb63SXGNF1qDb',
      a36efb2a1231c41e2: 'toolu_017y4gSjMWeQ3L2DAKiygU2y',
    });
    expect(result.threads).toBeUndefined();
    expect(result.meta.subagent).toBeUndefined();
    expect(result.meta.sessionId).toBe(SESSION);
  });
});

describe('Claude Code subagent transcripts (2.0: agent-<8hex>.jsonl beside the session)', () => {
  it('a real subagent of 35 lines is one branch of 6 calls under session a7da6a22', () => {
    const result = load('agent-c8d9b115.jsonl');
    expect(branchCalls(result)).toBe(6);
    expect(result.meta.subagent).toEqual({ parentSessionId: 'a7da6a22-facc-4fcd-8bab-f83c87862004', agentId: 'c8d9b115' });
    expect(result.meta.model).toBe('claude-haiku-4-5-20251001');
  });

  it('a one-line subagent (an answer without its prompt) is still a branch of one call', () => {
    const result = load('agent-3430b97e.jsonl');
    expect(result.entries).toHaveLength(1);
    expect(branchCalls(result)).toBe(1);
    expect(result.meta.subagent).toEqual({ parentSessionId: '7acd37a8-2745-4b58-a8a9-46164b22ad9e', agentId: '3430b97e' });
  });
});

describe('Claude Code 1.0 session with inline sidechains (fe5e1c67: 405 of 438 lines)', () => {
  const result = load(`${INLINE}.jsonl`);

  it('keeps the main thread alone: 9 calls (9 message ids on main-chain lines), no sidechain entry', () => {
    expect(result.lines).toBe(438);
    expect(branchCalls(result)).toBe(9);
    expect(result.entries.some((entry) => entry.flags?.sidechain)).toBe(false);
    expect(result.entries.map((entry) => entry.index)).toEqual(result.entries.map((_, i) => i));
  });

  it('gives each of the five Task calls its own evaluable thread, matched by prompt', () => {
    const threads = result.threads ?? [];
    expect(threads.map((thread) => [thread.meta.subagent?.description, thread.meta.subagent?.parentToolUseId, branchCalls(thread)])).toEqual([
      ['Build TODO components', 'toolu_01LS6tcVd796SbQKmZqeVnWY', 9],
      ['Setup Next.js project', 'toolu_014i9ThHMNShCHocf9xMKasf', 34],
      ['Create data models', 'toolu_01EbxY94wRUAGyMLj5wh699C', 40],
      ['Implement state management', 'toolu_017rjDpjVPeNFmAEXNTkoP55', 25],
      ['Create main page integration', 'toolu_01EPom7jESzNbU8coiKjzVGS', 53],
    ]);
    // 161 distinct message ids on the sidechain lines, all accounted for.
    expect(threads.reduce((sum, thread) => sum + findCalls(thread.entries).length, 0)).toBe(161);
    for (const thread of threads) {
      expect(thread.meta).toMatchObject({ sessionId: INLINE, title: thread.meta.subagent?.description, subagent: { parentSessionId: INLINE, agentType: 'general-purpose' } });
      expect(thread.entries.every((entry) => !entry.flags?.sidechain)).toBe(true);
      expect(thread.entries[0]?.parentId).toBeNull();
      // Tool calls inside a thread are paired with their results there.
      const calls = thread.entries.flatMap((entry) => entry.blocks.filter((block) => block.type === 'tool_call'));
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((call) => call.type === 'tool_call' && call.resultEntryId !== undefined)).toBe(true);
    }
  });
});

describe('inline sidechains without a matching call', () => {
  const line = (uuid: string, parentUuid: string | null, type: string, content: unknown, isSidechain: boolean, id = uuid) => JSON.stringify({
    type, uuid, parentUuid, isSidechain, sessionId: 's1', timestamp: '2025-01-01T00:00:00Z',
    message: type === 'user' ? { role: 'user', content } : { id, role: 'assistant', model: 'm', content: [{ type: 'text', text: content }] },
  });

  it('numbers the threads and leaves their description unset', () => {
    const text = [
      line('u1', null, 'user', 'hello', false),
      line('s1', null, 'user', 'Warmup', true),
      line('a1', 'u1', 'assistant', 'hi', false),
      line('s2', 's1', 'assistant', 'ready', true),
      line('t1', null, 'user', 'other prompt', true),
    ].join('\n');
    const result = importText(text, { format: 'claude-code' });
    expect(result.entries.map((entry) => entry.id)).toEqual(['u1', 'a1']);
    expect(result.threads?.map((thread) => [thread.meta.subagent, thread.entries.map((entry) => entry.id)])).toEqual([
      [{ parentSessionId: 's1', agentId: 'sidechain-1' }, ['s1', 's2']],
      [{ parentSessionId: 's1', agentId: 'sidechain-2' }, ['t1']],
    ]);
  });
});

describe('Claude Code git branch (the lines\' gitBranch)', () => {
  it('is the branch the session started on: ef958aa1 names master, then a worktree it entered, then master again', () => {
    expect(load(`${SESSION}.jsonl`).meta.gitBranch).toBe('master');
    expect(load('agent-3430b97e.jsonl').meta.gitBranch).toBe('gh-pages');
  });

  it('is left unset where every line names the empty branch (no git repository), and an inline thread has its session\'s', () => {
    const inline = load(`${INLINE}.jsonl`);
    expect(inline.meta.gitBranch).toBeUndefined();
    const line = (uuid: string, gitBranch: string, isSidechain: boolean) => JSON.stringify({ type: 'user', uuid, parentUuid: null, isSidechain, sessionId: 's1', gitBranch, timestamp: '2025-01-01T00:00:00Z', message: { role: 'user', content: uuid } });
    const result = importText([line('u1', '', false), line('u2', 'main', false), line('s1', 'main', true)].join('\n'), { format: 'claude-code' });
    expect(result.meta.gitBranch).toBe('main');
    expect(result.threads?.[0]?.meta.gitBranch).toBe('main');
  });
});
