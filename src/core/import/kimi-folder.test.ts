import { describe, expect, it } from 'vitest';
import { isKimiSessionFolder, kimiWirePath, readKimiFolder, withKimiFolder } from './kimi-folder.ts';
import type { ImportResult } from './types.ts';

// Paths as the page gets them from a folder pick: the picked folder's name first.
const PATHS = ['s-9/wire.jsonl', 's-9/context.jsonl', 's-9/state.json', 's-9/subagents/a1/wire.jsonl', 's-9/subagents/a1/context.jsonl', 's-9/subagents/a1/meta.json'];

describe('Kimi CLI session folders', () => {
  it("finds the session's own wire, never a subagent's, and only beside the session's other files", () => {
    expect(kimiWirePath(PATHS)).toBe('s-9/wire.jsonl');
    expect(kimiWirePath(['wire.jsonl', 'state.json'])).toBe('wire.jsonl');
    expect(isKimiSessionFolder(['s-9/wire.jsonl'])).toBe(false);
    expect(isKimiSessionFolder(['a/wire.jsonl', 'a/state.json', 'b/wire.jsonl', 'b/state.json'])).toBe(false);
    expect(isKimiSessionFolder(['x/subagents/a1/wire.jsonl', 'x/subagents/a1/context.jsonl'])).toBe(false);
    // A folder holding a session deeper down (the samples folder) is not that session.
    expect(isKimiSessionFolder(['samples/kimi/s-9/wire.jsonl', 'samples/kimi/s-9/state.json'])).toBe(false);
  });

  it('reads the title and the subagent descriptions, names a broken file, and applies them to the import', () => {
    const { info, problems } = readKimiFolder('s-9/wire.jsonl', [
      { path: 's-9/state.json', text: '{"custom_title": "My title"}' },
      { path: 's-9/subagents/a1/meta.json', text: '{"agent_id": "a1", "subagent_type": "coder", "description": "Write the patch"}' },
      { path: 's-9/subagents/a2/meta.json', text: '{"agent_id": ' },
    ], 'picked');
    expect(info).toEqual({ sessionId: 's-9', title: 'My title', subagents: { a1: { agentType: 'coder', description: 'Write the patch' } } });
    expect(problems).toEqual([{ path: 's-9/subagents/a2/meta.json', message: expect.stringMatching(/^not valid JSON/) }]);
    const thread = { format: 'kimi', entries: [], issues: [], lines: 0, ignoredLines: 0, meta: { subagent: { agentId: 'a1', parentToolUseId: 'Agent:0' } } } as ImportResult;
    const result = withKimiFolder({ format: 'kimi', entries: [], issues: [], lines: 0, ignoredLines: 0, meta: { title: 'first request' }, threads: [thread] }, info);
    expect(result.meta).toEqual({ sessionId: 's-9', title: 'My title' });
    expect(result.threads![0]!.meta).toEqual({ sessionId: 's-9', title: 'Write the patch', subagent: { agentId: 'a1', parentToolUseId: 'Agent:0', parentSessionId: 's-9', agentType: 'coder', description: 'Write the patch' } });
  });
});
