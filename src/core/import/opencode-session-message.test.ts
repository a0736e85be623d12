import { describe, expect, it } from 'vitest';
import { readOpencodeStore, type DataRow, type SessionRow } from './opencode-store.ts';
import type { SessionMessageRow } from './opencode-session-message.ts';
import { importText } from './run.ts';

const session = (id: string): SessionRow => ({ id, project_id: 'p1', parent_id: null, slug: id, directory: '/work', title: `Title ${id}`, version: '1.4.0', time_created: 1, time_updated: 2 });
const row = (id: string, type: string, timeCreated: number, data: unknown, sessionId = 'ses_v2', seq?: number): SessionMessageRow => ({
  id, sessionId, type, timeCreated, ...(seq !== undefined ? { seq } : {}), data: typeof data === 'string' ? data : JSON.stringify(data),
});
const message = (id: string, sessionId: string, timeCreated: number, data: unknown): DataRow => ({ id, sessionId, timeCreated, data: JSON.stringify(data) });
const tokens = (input: number, output: number, read = 0) => ({ input, output, reasoning: 0, cache: { read, write: 0 } });

/** A session opencode kept only in session_message: a prompt, a step with a tool call, a shell command, a compaction. */
const V2_ROWS: SessionMessageRow[] = [
  row('msg_01', 'user', 100, { text: 'List the files', time: { created: 100 } }, 'ses_v2', 0),
  row('msg_02', 'model-switched', 100, { model: { id: 'claude-sonnet-4', providerID: 'anthropic' }, time: { created: 100 } }, 'ses_v2', 1),
  row('msg_03', 'assistant', 101, {
    agent: 'build', model: { id: 'claude-sonnet-4', providerID: 'anthropic' }, time: { created: 101, completed: 105 }, finish: 'tool-calls',
    tokens: tokens(50, 12, 400),
    content: [
      { type: 'reasoning', id: 'r1', text: 'Use ls.' },
      { type: 'text', id: 't1', text: 'Listing.' },
      { type: 'tool', id: 'call_1', name: 'bash', state: { status: 'completed', input: { command: 'ls' }, content: [{ type: 'text', text: 'a.ts\nb.ts' }], structured: {}, result: {} }, time: { created: 102 } },
      { type: 'tool', id: 'call_2', name: 'read', state: { status: 'error', input: { path: 'c.ts' }, content: [], structured: {}, error: { type: 'unknown', message: 'no such file' } }, time: { created: 103 } },
    ],
  }, 'ses_v2', 2),
  row('msg_04', 'shell', 110, { callID: 'sh_1', command: 'git status', output: 'clean', time: { created: 110, completed: 111 } }, 'ses_v2', 3),
  row('msg_05', 'system', 112, { text: 'The working directory changed.', time: { created: 112 } }, 'ses_v2', 4),
  row('msg_06', 'compaction', 120, { reason: 'auto', summary: 'Listed a.ts and b.ts.', recent: '', time: { created: 120 } }, 'ses_v2', 5),
];

describe("opencode's session_message rows", () => {
  it('reads a session kept only there: prompt, step with its usage, tool calls paired with their results, shell command, injected context and compaction', () => {
    const store = readOpencodeStore({ sessions: [session('ses_v2')], messages: [], parts: [], sessionMessages: [...V2_ROWS].reverse() });
    expect(store.problems).toEqual([]);
    expect(store.sessions.map((s) => s.sessionId)).toEqual(['ses_v2']);
    const imported = importText(JSON.stringify(store.sessions[0]!.document));
    expect(imported.entries.map((entry) => [entry.role, entry.kind, entry.id])).toEqual([
      ['user', 'message', 'msg_01'],
      ['assistant', 'message', 'msg_03'],
      ['tool', 'message', 'msg_03/call_1'],
      ['tool', 'message', 'msg_03/call_2'],
      ['assistant', 'message', 'msg_04'],
      ['tool', 'message', 'msg_04/sh_1'],
      ['user', 'message', 'msg_05'],
      ['user', 'event', 'msg_06.request'],
      ['summary', 'compaction', 'msg_06'],
    ]);
    const step = imported.entries[1]!;
    expect(step.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call', 'tool_call']);
    expect(step.usage).toEqual({ input: 450, output: 12, cacheRead: 400 });
    expect(step.model).toBe('claude-sonnet-4');
    expect(imported.entries[2]!.blocks).toEqual([{ type: 'tool_result', callId: 'call_1', callEntryId: 'msg_03', toolName: 'bash', isError: false, content: [{ type: 'text', text: 'a.ts\nb.ts' }] }]);
    expect(imported.entries[3]!.blocks).toEqual([{ type: 'tool_result', callId: 'call_2', callEntryId: 'msg_03', toolName: 'read', isError: true, content: [{ type: 'text', text: 'no such file' }] }]);
    expect(imported.entries[4]!.blocks).toEqual([{ type: 'tool_call', callId: 'sh_1', name: 'bash', input: { command: 'git status' }, resultEntryId: 'msg_04/sh_1' }]);
    expect(imported.entries[6]!.flags).toEqual({ injected: true });
    expect(imported.entries[8]!.blocks).toEqual([{ type: 'text', text: 'Listed a.ts and b.ts.' }]);
  });

  it("reads a session that has message rows from them, and skips opencode's copies of those messages in session_message", () => {
    const store = readOpencodeStore({
      sessions: [session('ses_old')],
      messages: [message('msg_a', 'ses_old', 1, { role: 'user' })],
      parts: [{ id: 'prt_a', sessionId: 'ses_old', messageId: 'msg_a', timeCreated: 1, data: JSON.stringify({ type: 'text', text: 'from part' }) }],
      sessionMessages: [row('msg_a', 'user', 1, { text: 'from session_message' }, 'ses_old')],
    });
    expect(store.problems).toEqual([]);
    const messages = store.sessions[0]!.document.messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]!.parts).toEqual([{ type: 'text', text: 'from part', id: 'prt_a', sessionID: 'ses_old', messageID: 'msg_a' }]);
  });

  it('names each row it cannot read by table and id: data not JSON or not an object, an unknown type, a missing session, rows beside message rows', () => {
    const store = readOpencodeStore({
      sessions: [session('ses_v2'), session('ses_old')],
      messages: [message('msg_a', 'ses_old', 1, { role: 'user' })],
      parts: [],
      sessionMessages: [
        row('sm_ok', 'user', 1, { text: 'hi' }),
        row('sm_cut', 'assistant', 2, '{"content":['),
        row('sm_arr', 'user', 3, '[1, 2]'),
        row('sm_new', 'handoff', 4, { text: 'x' }),
        row('sm_lost', 'user', 5, { text: 'x' }, 'ses_gone'),
        row('sm_extra', 'user', 6, { text: 'x' }, 'ses_old'),
        row('sm_extra2', 'user', 7, { text: 'y' }, 'ses_old'),
      ],
    });
    expect(store.problems).toEqual([
      { key: 'session_message/sm_cut', message: expect.stringMatching(/^data is not valid JSON \(.+\); left out$/) },
      { key: 'session_message/sm_arr', message: 'data is an array, expected a JSON object; left out' },
      { key: 'session_message/sm_new', message: 'type "handoff" is not one Foldlab reads (user, assistant, synthetic, system, shell, compaction); left out' },
      { key: 'session_message/sm_lost', message: 'its session ses_gone is not in the session table; left out' },
      { key: 'session_message/ses_old', message: "2 rows beside the session's message rows and matching none of them; the session is read from its message rows and these are left out" },
    ]);
    expect(store.sessions.map((s) => [s.sessionId, s.document.messages.map((m) => m.info.id)])).toEqual([['ses_old', ['msg_a']], ['ses_v2', ['sm_ok']]]);
  });

  it('leaves out a session whose only rows say nothing (a switch of model) as empty', () => {
    const store = readOpencodeStore({ sessions: [session('ses_v2')], messages: [], parts: [], sessionMessages: [row('sm_m', 'model-switched', 1, { model: { id: 'x', providerID: 'y' } })] });
    expect(store.sessions).toEqual([]);
    expect(store.empty).toBe(1);
    expect(store.problems).toEqual([]);
  });
});
