import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolCallBlock, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from './run.ts';
import { ImportFormatError } from './types.ts';

/** A real OpenHands GUI session (tests/runtime/trajs/basic_gui_mode.json, see public/samples/NOTICE.md). */
const GUI = readFileSync(new URL('../../../public/samples/openhands/basic_gui_mode.json', import.meta.url), 'utf8');

function response(id: string, content: string | null, calls: Array<[string, string, string]>, usage: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id,
    model: 'claude-sonnet-4',
    choices: [{ index: 0, message: { role: 'assistant', content, ...extra, tool_calls: calls.map(([callId, name, args]) => ({ id: callId, type: 'function', function: { name, arguments: args } })) } }],
    usage,
  };
}

describe('OpenHands trajectories', () => {
  it('reads the real GUI session as written by hand: 1 prompt, 4 calls in 4 responses, 4 results, the closing text', () => {
    const result = importText(GUI, { fileName: 'basic_gui_mode.json' });
    expect(result.format).toBe('openhands');
    // 18 events: 8 harness events (agent state, null observations, change_agent_state) are not entries.
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual([
      'e4:user', 'e7:assistant', 'e8:tool', 'e9:assistant', 'e10:tool', 'e11:assistant', 'e12:tool', 'e13:assistant', 'e14:tool', 'e15:assistant',
    ]);
    expect(result.ignoredLines).toBe(8);
    expect(result.issues).toEqual([]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
    const first = result.entries[1]!;
    expect(first.line).toBe(78);
    expect(first.model).toBe('claude-3-5-sonnet-20241022');
    // litellm's prompt_tokens already holds the cache write (3,439 = 4 + 3,435 written).
    expect(first.usage).toEqual({ input: 3439, output: 104, cacheRead: 0, cacheWrite: 3435 });
    expect(first.blocks[0]).toEqual({ type: 'text', text: expect.stringMatching(/^I'll help you create a Vue\.js application/) });
    expect(first.blocks[1]).toMatchObject({ type: 'tool_call', callId: 'toolu_01W9Z8jBctr8X2frZV9p1RYs', name: 'execute_bash', input: { command: 'mkdir -p /workspace/todo-app' } });
    expect(result.entries[3]!.usage).toEqual({ input: 3601, output: 1142, cacheRead: 3435, cacheWrite: 160 });
    const result14 = result.entries[8]!.blocks[0] as ToolResultBlock;
    expect(result14).toMatchObject({ callId: 'toolu_01DwihWr4ooPZS1CGTLAWrFP', toolName: 'execute_bash', isError: false });
    expect(entryText(result.entries[8]!)).toMatch(/^Serving HTTP on 0\.0\.0\.0 port 8000/);
    expect(entryText(result.entries[9]!)).toMatch(/^I've created a complete Vue\.js todo application/);
    expect(result.entries.filter((entry) => entry.usage).length).toBe(4);
    expect(result.entries[0]!.timestamp).toBe(Date.parse('2025-01-20T20:29:32.262843'));
  });

  it('writes one response with two calls once, with its usage and reasoning, and pairs each result by tool_call_id', () => {
    const both = response('resp-1', 'Looking at both files.', [['call-a', 'str_replace_editor', '{"command":"view","path":"/a"}'], ['call-b', 'str_replace_editor', '{"command":"view","path":"/b"}']], { prompt_tokens: 900, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 800 } }, { reasoning_content: 'Read a and b.' });
    const events = [
      { id: 0, source: 'agent', action: 'system', args: { content: 'You are OpenHands.' } },
      { id: 1, source: 'user', action: 'message', args: { content: 'Compare /a and /b' } },
      { id: 2, source: 'agent', action: 'read', args: { path: '/a', thought: 'Looking at both files.' }, tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'call-a', model_response: both, total_calls_in_response: 2 } },
      { id: 3, source: 'agent', action: 'read', args: { path: '/b', thought: '' }, tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'call-b', model_response: both, total_calls_in_response: 2 } },
      { id: 4, source: 'agent', cause: 3, observation: 'read', content: 'B', extras: {}, tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'call-b' } },
      { id: 5, source: 'agent', cause: 2, observation: 'error', content: 'No such file /a', extras: {}, tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'call-a' } },
      { id: 6, source: 'agent', action: 'message', args: { content: 'Only /b exists.' }, llm_metrics: { token_usages: [{ model: 'm', prompt_tokens: 1000, completion_tokens: 9, cache_read_tokens: 950, cache_write_tokens: 0, context_window: 200000, response_id: 'resp-2' }] } },
    ];
    const result = importText(JSON.stringify(events, null, 1));
    expect(result.format).toBe('openhands');
    expect(result.entries.map((entry) => entry.id)).toEqual(['e0', 'e1', 'e2', 'e4', 'e5', 'e6']);
    const call = result.entries[2]!;
    expect(call.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call', 'tool_call']);
    expect(call.usage).toEqual({ input: 900, output: 40, cacheRead: 800 });
    expect(result.ignoredLines).toBe(1);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
    expect((result.entries[4]!.blocks[0] as ToolResultBlock).isError).toBe(true);
    expect(result.entries[5]!.usage).toEqual({ input: 1000, output: 9, cacheRead: 950 });
    expect(result.meta.contextWindow).toBe(200000);
    expect(result.entries[0]!.role).toBe('system');
  });

  it('makes a condensation a compaction marker whose first kept entry follows the forgotten range', () => {
    const events = [
      { id: 1, source: 'user', action: 'message', args: { content: 'Fix the bug' } },
      { id: 2, source: 'agent', action: 'run', args: { command: 'ls', thought: 'Listing.' } },
      { id: 3, source: 'agent', cause: 2, observation: 'run', content: 'a.py', extras: { command: 'ls' } },
      { id: 4, source: 'agent', action: 'run', args: { command: 'cat a.py', thought: '' } },
      { id: 5, source: 'agent', cause: 4, observation: 'run', content: 'print(1)', extras: {} },
      { id: 6, source: 'agent', action: 'condensation', args: { forgotten_events_start_id: 2, forgotten_events_end_id: 3, summary: 'Listed the files: a.py.', summary_offset: 1 } },
      { id: 7, source: 'agent', action: 'condensation', args: { forgotten_event_ids: [4, 5], summary: null } },
    ];
    const result = importText(JSON.stringify(events));
    // Without recorded calls, the action's own name and arguments make the call, paired by `cause`.
    expect((result.entries[1]!.blocks[1] as ToolCallBlock)).toMatchObject({ callId: 'e2', name: 'run', input: { command: 'ls' } });
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
    const [first, second] = result.entries.filter((entry) => entry.kind === 'compaction');
    expect(first).toMatchObject({ role: 'summary', marker: { source: 'openhands.condensation', firstKeptEntryId: 'e4' } });
    expect(entryText(first!)).toBe('Listed the files: a.py.');
    expect(second!.marker).toEqual({ source: 'openhands.condensation' });
  });

  it('reports an event it does not understand by its line and name, and keeps the rest', () => {
    const events = [
      { id: 1, source: 'user', action: 'message', args: { content: 'hi' } },
      { id: 2, source: 'agent', action: 'teleport', args: {} },
      { id: 3, source: 'agent', observation: 'hologram', content: 'x' },
      'not an event',
      { id: 5, source: 'agent' },
      { id: 6, source: 'agent', action: 'message', args: { content: 'hello' } },
    ];
    const result = importText(JSON.stringify(events, null, 2));
    expect(result.entries.map((entry) => entry.id)).toEqual(['e1', 'e6']);
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      '10 unsupported event 1 (id 2): action "teleport" is not an OpenHands action Foldlab knows; skipped',
      '16 unsupported event 2 (id 3): observation "hologram" is not an OpenHands observation Foldlab knows; skipped',
      '22 malformed event 3 is a string "not an event", not an event object; skipped',
      '23 malformed event 4 (id 5) has neither an "action" nor an "observation" name (keys "id", "source"); skipped',
    ]);
  });

  it('reports a second event for a call already read as a duplicate instead of dropping it (fuzz seed 778580659)', () => {
    // The copy of event 13 (a `run` call with its recorded response) comes first and lost its "id":
    // the copy writes the response, the untouched event after it names the call again.
    const events = JSON.parse(GUI) as Array<Record<string, unknown>>;
    const copy = structuredClone(events[13]!);
    delete copy.id;
    events.splice(13, 0, copy);
    const written = JSON.stringify(events, null, 2);
    const starts = written.split('\n').flatMap((line, i) => (line === '  {' ? [i + 1] : []));
    const lineOf = (n: number) => starts[n]!;
    const result = importText(written);
    expect(result.entries.map((entry) => entry.id)).toEqual(['e4', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12', `l${lineOf(13)}`, 'e14', 'e15']);
    expect(result.issues).toEqual([
      { line: lineOf(14), kind: 'duplicate', message: `event 14 (id 13): repeats the call "toolu_01DwihWr4ooPZS1CGTLAWrFP" of response "chatcmpl-51a85fbb-dafc-4519-a7d2-df369e38d76f" already read from event 13 on line ${lineOf(13)}; the first is kept and this one skipped` },
    ]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('writes a response once when a call\'s event is copied, and reports the copy as a duplicate', () => {
    const events = JSON.parse(GUI) as Array<Record<string, unknown>>;
    events.splice(14, 0, structuredClone(events[13]!));
    const result = importText(JSON.stringify(events));
    expect(result.entries.map((entry) => entry.id)).toEqual(['e4', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12', 'e13', 'e14', 'e15']);
    expect(result.issues.map(({ kind, message }) => `${kind} ${message.slice(0, 40)}`)).toEqual(['duplicate event 14 (id 13): repeats the call "tool']);
  });

  it('reads an evaluation record (instance_id, history) and refuses a history that holds no events', () => {
    const record = { instance_id: 'django__django-11099', history: [{ id: 0, source: 'user', action: 'message', args: { content: 'Solve it' } }], metrics: {} };
    const result = importText(JSON.stringify(record));
    expect(result).toMatchObject({ format: 'openhands', meta: { sessionId: 'django__django-11099' } });
    expect(() => importText(JSON.stringify({ history: [] }), { format: 'openhands', fileName: 'x.json' })).toThrow(ImportFormatError);
    expect(() => importText(JSON.stringify({ history: [] }), { format: 'openhands', fileName: 'x.json' })).toThrow(/not OpenHands events; expected an array of \{id, source, action\|observation/);
  });
});
