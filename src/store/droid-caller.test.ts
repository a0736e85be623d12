import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { droidTaskCallFor } from './droid-caller.ts';

const sample = (name: string) => new File([readFileSync(`public/samples/droid/${name}`)], name);
const PARENT = sample('e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70.jsonl');
const SUBAGENT = sample('5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl');

describe('a Droid subagent picked with its caller', () => {
  it('reads the Task call from the caller\'s file picked beside it', async () => {
    expect(await droidTaskCallFor(SUBAGENT, new Map([[PARENT.name, PARENT], [SUBAGENT.name, SUBAGENT]]))).toEqual({ agentType: 'code-reviewer', description: 'Review the CSV export' });
  });

  it('reads nothing for a session that names no caller, a subagent picked without its caller, or a file of another kind', async () => {
    expect(await droidTaskCallFor(PARENT, new Map([[PARENT.name, PARENT], [SUBAGENT.name, SUBAGENT]]))).toBeUndefined();
    expect(await droidTaskCallFor(SUBAGENT, new Map([[SUBAGENT.name, SUBAGENT]]))).toBeUndefined();
    expect(await droidTaskCallFor(new File(['{"messages": []}'], 'chat.json'), new Map())).toBeUndefined();
  });

  it('passes on what the caller\'s call lacks', async () => {
    const parent = new File([`${JSON.stringify({ type: 'message', id: 'a', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Task', input: { description: 'Look' } }] } })}\n`], 'p.jsonl');
    const sub = new File([`${JSON.stringify({ type: 'session_start', id: 's', callingSessionId: 'p', callingToolUseId: 't' })}\n`], 's.jsonl');
    expect(await droidTaskCallFor(sub, new Map([['p.jsonl', parent]]))).toEqual({ description: 'Look', problem: 'p.jsonl line 1: the Task call "t" that started this subagent has no "subagent_type"; the subagent\'s type is unknown' });
  });
});
