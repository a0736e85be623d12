import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findEvalInputs } from './eval-files.ts';
import { importFile } from './load.ts';

const STORE = resolve(import.meta.dirname, '../../public/samples/cursor/state.vscdb');
const MAIN = 'a1b2c3d4-0000-4000-8000-000000000001';

describe('a Cursor chat store on the command line', () => {
  it('reads the conversation named after "#", its sub-composer as a subagent thread', async () => {
    const result = await importFile(`${STORE}#${MAIN}`);
    expect(result.format).toBe('cursor');
    expect(result.meta.title).toBe('Fix the date parser');
    expect(result.entries).toHaveLength(12);
    expect(result.threads?.map((thread) => [thread.meta.title, thread.meta.subagent?.parentSessionId, thread.entries.length])).toEqual([['Find callers of parse()', MAIN, 4]]);
  });

  it('refuses a store of several conversations by listing how to read each, and an unknown id', async () => {
    await expect(importFile(STORE)).rejects.toThrow(`"state.vscdb" holds 2 Cursor conversations; the command line reads one: pass "${STORE}#${MAIN}" (Fix the date parser), "${STORE}#a1b2c3d4-0000-4000-8000-000000000003" (Explain the build script).`);
    await expect(importFile(`${STORE}#nope`)).rejects.toThrow(/^"state\.vscdb" has no conversation with composer id "nope"; it has 3: /);
  });

  it('links a Cursor subagent transcript to its session by its folder', async () => {
    const dir = resolve(import.meta.dirname, '../../public/samples/cursor/agent-transcripts');
    const parent = await importFile(`${dir}/parent.jsonl`);
    const child = await importFile(`${dir}/parent/subagents/child.jsonl`);
    expect(parent.meta.sessionId).toBe('parent');
    expect(parent.meta.subagent).toBeUndefined();
    expect(child.meta).toMatchObject({ sessionId: 'child', subagent: { parentSessionId: 'parent', agentId: 'child' } });
  });

  it('is an input of eval as a file or one of its conversations', () => {
    expect(findEvalInputs([STORE, `${STORE}#${MAIN}`]).files).toEqual([STORE, `${STORE}#${MAIN}`]);
    expect(() => findEvalInputs([`${STORE}.missing#${MAIN}`])).toThrow(/ENOENT/);
  });
});
