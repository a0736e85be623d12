import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { droidCallerFileName, droidCallerOf, readDroidTaskCall, withDroidTaskCall } from './droid-task-call.ts';
import { importText } from './run.ts';

const read = (name: string) => readFileSync(new URL(`../../../public/samples/droid/${name}`, import.meta.url), 'utf8');
/** The sample session that starts a code-reviewer subagent with its Task call on line 5, and that subagent's own session. */
/** A subagent session with one message. */
const subagentSession = (call: string) => importText(jsonl({ type: 'session_start', id: 's', title: 'T', callingSessionId: 'p', callingToolUseId: call }, { type: 'message', id: 'u', message: { role: 'user', content: [{ type: 'text', text: 'go' }] } }));

const PARENT_NAME = 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70.jsonl';
const PARENT = read(PARENT_NAME);
const SUBAGENT = read('5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl');
const CALL = 'toolu_01TaskReview3nV8cW2yL5q';

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

describe('a Factory Droid subagent from its Task call', () => {
  it('names the caller the sample subagent\'s session_start names, and no caller for the parent or another line', () => {
    const caller = droidCallerOf(SUBAGENT.slice(0, SUBAGENT.indexOf('\n')))!;
    expect(caller).toEqual({ sessionId: 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70', toolUseId: CALL });
    expect(droidCallerFileName(caller)).toBe(PARENT_NAME);
    expect(droidCallerOf(PARENT.slice(0, PARENT.indexOf('\n')))).toBeUndefined();
    expect(droidCallerOf('{"type":"session_start","id":"s","callingSessionId":"s","callingToolUseId":"t"}')).toBeUndefined();
    expect(droidCallerOf('{"type":"session_start","id":"s","callingSessionId":"p"}')).toBeUndefined();
    expect(droidCallerOf('{"type":"message"')).toBeUndefined();
  });

  it('reads the sample\'s Task call (line 5): code-reviewer, "Review the CSV export"; the subagent keeps its title and links', () => {
    const call = readDroidTaskCall(PARENT, PARENT_NAME, CALL);
    expect(call).toEqual({ agentType: 'code-reviewer', description: 'Review the CSV export' });
    const result = withDroidTaskCall(importText(SUBAGENT, { fileName: '5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl' }), call);
    expect(result.meta.title).toBe('Review the CSV export');
    expect(result.meta.subagent).toEqual({ parentSessionId: 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70', parentToolUseId: CALL, agentType: 'code-reviewer', description: 'Review the CSV export' });
    expect(result.issues).toEqual([]);
  });

  it('reads a stream-json tool_call\'s parameters, and titles an untitled subagent with the description', () => {
    const parent = jsonl(
      { type: 'tool_call', id: 'c0', toolName: 'Read', parameters: { file_path: '/a' } },
      { type: 'tool_result', id: 'c0', value: 'mentions "c1" in passing' },
      { type: 'tool_call', id: 'c1', toolName: 'Task', parameters: { subagent_type: 'explorer', description: 'Map the repo', prompt: 'List the modules' } },
    );
    const call = readDroidTaskCall(parent, 'p.jsonl', 'c1');
    expect(call).toEqual({ agentType: 'explorer', description: 'Map the repo' });
    const sub = importText(jsonl({ type: 'session_start', id: 's', callingSessionId: 'p', callingToolUseId: 'c1' }, { type: 'message', id: 'u', message: { role: 'user', content: [{ type: 'text', text: 'List the modules' }] } }));
    expect(withDroidTaskCall(sub, call).meta).toMatchObject({ title: 'Map the repo', subagent: { parentSessionId: 'p', parentToolUseId: 'c1', agentType: 'explorer', description: 'Map the repo' } });
  });

  it('says which fields the Task call lacks, naming the file and line, and keeps what it has', () => {
    const parent = jsonl(
      { type: 'session_start', id: 'p' },
      { type: 'message', id: 'a', message: { role: 'assistant', content: [{ type: 'text', text: 'delegating' }, { type: 'tool_use', id: 'c1', name: 'Task', input: { prompt: 'Review it' } }] } },
      { type: 'message', id: 'b', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c2', name: 'Task', input: { subagent_type: 'worker', description: '' } }] } },
      { type: 'message', id: 'c', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c3', name: 'Task', input: 'not an object' }] } },
    );
    expect(readDroidTaskCall(parent, 'p.jsonl', 'c1')).toEqual({ problem: 'p.jsonl line 2: the Task call "c1" that started this subagent has no "subagent_type" or "description"; the subagent\'s type and description are unknown' });
    expect(readDroidTaskCall(parent, 'p.jsonl', 'c2')).toEqual({ agentType: 'worker', problem: 'p.jsonl line 3: the Task call "c2" that started this subagent has no "description"; the subagent\'s description is unknown' });
    expect(readDroidTaskCall(parent, 'p.jsonl', 'c3').problem).toMatch(/^p\.jsonl line 4: the Task call "c3" .* has no "subagent_type" or "description"/);
    const sub = subagentSession('c2');
    const result = withDroidTaskCall(sub, readDroidTaskCall(parent, 'p.jsonl', 'c2'));
    expect(result.meta.subagent).toEqual({ parentSessionId: 'p', parentToolUseId: 'c2', agentType: 'worker' });
    expect(result.issues).toEqual([{ line: 0, kind: 'malformed', message: 'p.jsonl line 3: the Task call "c2" that started this subagent has no "description"; the subagent\'s description is unknown' }]);
    expect(result.issueCount).toBe(1);
  });

  it('says so when the caller\'s file holds no such call (a broken line holding the id is passed over); the link stays as the subagent names it', () => {
    const parent = `{"type":"message","id":"a","message":{"content":[{"type":"tool_use","id":"c9"\n${jsonl({ type: 'message', id: 'u', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c9', content: 'done' }] } })}`;
    const call = readDroidTaskCall(parent, 'p.jsonl', 'c9');
    expect(call).toEqual({ problem: 'p.jsonl holds no tool call "c9" (the call the subagent\'s callingToolUseId names); its type and description are unknown' });
    const sub = subagentSession('c9');
    const result = withDroidTaskCall(sub, call);
    expect(result.meta.subagent).toEqual({ parentSessionId: 'p', parentToolUseId: 'c9' });
    expect(result.issues.map((issue) => issue.line)).toEqual([0]);
  });
});
