import { describe, expect, it } from 'vitest';
import { isOpencodeTables, readOpencodeStore, type DataRow, type SessionRow } from './opencode-store.ts';
import { importText } from './run.ts';

const session = (id: string, extra: SessionRow = {}): SessionRow => ({ id, project_id: 'p1', parent_id: null, slug: `s-${id}`, directory: '/work', title: `Title ${id}`, version: '1.2.10', time_created: 1_000, time_updated: 2_000, ...extra });
const message = (id: string, sessionId: string, timeCreated: number, data: unknown): DataRow => ({ id, sessionId, timeCreated, data: typeof data === 'string' ? data : JSON.stringify(data) });
const part = (id: string, messageId: string, data: unknown): DataRow => ({ id, sessionId: 'ses_a', messageId, timeCreated: 0, data: typeof data === 'string' ? data : JSON.stringify(data) });

describe("opencode's SQLite store rows", () => {
  it('is recognized by its session, message and part tables', () => {
    expect(isOpencodeTables(['project', 'session', 'message', 'part', 'todo'])).toBe(true);
    expect(isOpencodeTables(['session', 'message'])).toBe(false);
    expect(isOpencodeTables(['ItemTable', 'cursorDiskKV'])).toBe(false);
  });

  it("builds the document opencode export prints: the session's columns as its info, messages by creation time, parts by id, ids from the columns", () => {
    const store = readOpencodeStore({
      sessions: [session('ses_a', { share_url: 'https://opncd.ai/s/x', time_archived: null })],
      messages: [
        message('msg_2', 'ses_a', 20, { role: 'assistant', modelID: 'gpt-5', tokens: { input: 10, output: 3, reasoning: 0, cache: { read: 0, write: 0 } } }),
        message('msg_1', 'ses_a', 10, { role: 'user', time: { created: 10 } }),
      ],
      parts: [part('prt_b', 'msg_2', { type: 'text', text: 'done' }), part('prt_a', 'msg_2', { type: 'step-start' }), part('prt_c', 'msg_1', { type: 'text', text: 'hi' })],
    });
    expect(store.problems).toEqual([]);
    expect(store.empty).toBe(0);
    expect(store.sessions).toHaveLength(1);
    const doc = store.sessions[0]!.document;
    expect(doc.info).toEqual({ id: 'ses_a', projectID: 'p1', slug: 's-ses_a', directory: '/work', title: 'Title ses_a', version: '1.2.10', time: { created: 1_000, updated: 2_000 }, share: { url: 'https://opncd.ai/s/x' } });
    expect(doc.messages.map((m) => m.info.id)).toEqual(['msg_1', 'msg_2']);
    expect(doc.messages[1]!.parts).toEqual([
      { type: 'step-start', id: 'prt_a', sessionID: 'ses_a', messageID: 'msg_2' },
      { type: 'text', text: 'done', id: 'prt_b', sessionID: 'ses_a', messageID: 'msg_2' },
    ]);
    expect(doc.messages[0]!.info).toEqual({ role: 'user', time: { created: 10 }, id: 'msg_1', sessionID: 'ses_a' });
    expect(importText(JSON.stringify(doc)).entries.map((entry) => [entry.role, entry.id])).toEqual([['user', 'msg_1'], ['assistant', 'msg_2']]);
  });

  it('links a subagent session to its parent by parent_id and leaves out sessions without a message', () => {
    const store = readOpencodeStore({
      sessions: [session('ses_a'), session('ses_b', { parent_id: 'ses_a', title: 'Find callers (@explore subagent)' }), session('ses_c', { title: '' })],
      messages: [message('msg_a', 'ses_a', 1, { role: 'user' }), message('msg_b', 'ses_b', 2, { role: 'user' })],
      parts: [],
    });
    expect(store.sessions.map((s) => [s.sessionId, s.name, s.parentId])).toEqual([['ses_a', 'Title ses_a', undefined], ['ses_b', 'Find callers (@explore subagent)', 'ses_a']]);
    expect(store.empty).toBe(1);
  });

  it('names every row it cannot read by its table and id', () => {
    const store = readOpencodeStore({
      sessions: [session('ses_a'), { id: null, title: 'x' }],
      messages: [
        message('msg_ok', 'ses_a', 1, { role: 'user' }),
        message('msg_cut', 'ses_a', 2, '{"role":"assist'),
        message('msg_arr', 'ses_a', 3, '[1]'),
        message('msg_norole', 'ses_a', 4, { time: {} }),
        message('msg_lost', 'ses_gone', 5, { role: 'user' }),
      ],
      parts: [part('prt_ok', 'msg_ok', { type: 'text', text: 'hi' }), part('prt_orphan', 'msg_cut', { type: 'text', text: 'x' }), part('prt_null', 'msg_ok', 'null'), part('prt_notype', 'msg_ok', { text: 'x' })],
    });
    expect(store.sessions[0]!.document.messages.map((m) => [m.info.id, m.parts.length])).toEqual([['msg_ok', 1]]);
    expect(store.problems).toEqual([
      { key: 'session/null', message: 'has no text id; left out' },
      { key: 'message/msg_cut', message: expect.stringMatching(/^data is not valid JSON \(.+\); left out$/) },
      { key: 'message/msg_arr', message: 'data is an array, expected a JSON object; left out' },
      { key: 'message/msg_norole', message: 'data has no string "role"; left out' },
      { key: 'message/msg_lost', message: 'its session ses_gone is not in the session table; left out' },
      { key: 'part/prt_notype', message: 'data has no string "type"; left out' },
      { key: 'part/prt_null', message: 'data is null, expected a JSON object; left out' },
      { key: 'part/prt_orphan', message: 'its message msg_cut is not a readable row of the message table; left out' },
    ]);
  });
});
