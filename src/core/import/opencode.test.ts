import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { isOpencodeStorage, readOpencodeFolder, type FolderFile } from './opencode-folder.ts';
import { importText } from './run.ts';

const STORAGE = 'public/samples/opencode/storage';

function folder(dir: string): FolderFile[] {
  const out: FolderFile[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ path: relative(dir, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

const SES = 'ses_6aade4081ffe216ygZUgcUQdR1';
const part = (messageID: string, id: string, body: Record<string, unknown>) => ({ id, sessionID: SES, messageID, ...body });
/** An export as `opencode export` prints it: a prompt, one assistant message of two steps (a call, then the answer), a compaction. */
const EXPORT = {
  info: { id: SES, version: '0.9.6', projectID: 'global', directory: '/work/toji', title: 'Print the working directory', time: { created: 1758069898000, updated: 1758069921000 } },
  messages: [
    { info: { id: 'msg_u1', sessionID: SES, role: 'user', time: { created: 1758069899000 } }, parts: [part('msg_u1', 'prt_u1a', { type: 'text', text: 'pwd' }), part('msg_u1', 'prt_u1b', { type: 'text', text: 'Called the Read tool', synthetic: true }), part('msg_u1', 'prt_u1c', { type: 'text', text: 'hidden', ignored: true })] },
    {
      info: { id: 'msg_a1', sessionID: SES, role: 'assistant', modelID: 'grok-code', providerID: 'opencode', time: { created: 1758069899229, completed: 1758069901481 }, tokens: { input: 40, output: 25, reasoning: 363, cache: { write: 0, read: 19648 } }, cost: 0 },
      parts: [
        part('msg_a1', 'prt_a1', { type: 'step-start' }),
        part('msg_a1', 'prt_a2', { type: 'reasoning', text: 'The user wants the working directory.', time: { start: 1, end: 2 } }),
        part('msg_a1', 'prt_a3', { type: 'tool', callID: 'call_1', tool: 'bash', state: { status: 'completed', input: { command: 'pwd' }, output: '/work/toji\n', title: 'pwd', metadata: {}, time: { start: 3, end: 4 } } }),
        part('msg_a1', 'prt_a4', { type: 'tool', callID: 'call_2', tool: 'read', state: { status: 'error', input: { filePath: '/nope' }, error: 'File not found: /nope', time: { start: 3, end: 4 } } }),
        part('msg_a1', 'prt_a5', { type: 'step-finish', reason: 'tool-calls', tokens: { input: 40, output: 12, reasoning: 266, cache: { write: 0, read: 9600 } }, cost: 0 }),
        part('msg_a1', 'prt_a6', { type: 'step-start' }),
        part('msg_a1', 'prt_a7', { type: 'text', text: '/work/toji' }),
        part('msg_a1', 'prt_a8', { type: 'step-finish', reason: 'stop', tokens: { total: 10171, input: 13, output: 13, reasoning: 97, cache: { write: 0, read: 10048 } }, cost: 0 }),
        part('msg_a1', 'prt_a9', { type: 'patch', hash: 'abc', files: [] }),
      ],
    },
    { info: { id: 'msg_u2', sessionID: SES, role: 'user', time: { created: 1758069930000 } }, parts: [part('msg_u2', 'prt_u2', { type: 'compaction', auto: true })] },
    { info: { id: 'msg_a2', sessionID: SES, role: 'assistant', summary: true, modelID: 'grok-code', time: { created: 1758069931000 }, tokens: { input: 10000, output: 80, reasoning: 0, cache: { read: 0, write: 0 } } }, parts: [part('msg_a2', 'prt_s1', { type: 'text', text: 'We printed the working directory.' })] },
    { info: { id: 'msg_u3', sessionID: SES, role: 'user', time: { created: 1758069940000 } }, parts: [part('msg_u3', 'prt_u3', { type: 'hologram' }), part('msg_u3', 'prt_u3b', { type: 'text', text: 'thanks' })] },
    { info: { id: 'msg_a3', sessionID: SES, role: 'assistant', modelID: 'grok-code', time: { created: 1758069941000 }, error: { name: 'MessageAbortedError', data: { message: 'aborted' } } }, parts: [part('msg_a3', 'prt_a3x', { type: 'tool', callID: 'call_3', tool: 'bash', state: { status: 'running', input: { command: 'sleep 100' }, time: { start: 5 } } })] },
  ],
};

describe('opencode sessions', () => {
  it('reads an export: one entry per step with its tokens, results paired, the compaction as a marker', () => {
    const result = importText(JSON.stringify(EXPORT, null, 2), { fileName: `${SES}.json` });
    expect(result.format).toBe('opencode');
    expect(result.meta).toMatchObject({ sessionId: SES, title: 'Print the working directory', model: 'grok-code', version: '0.9.6', cwd: '/work/toji', createdAt: 1758069898000 });
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}:${entry.kind}`)).toEqual([
      'msg_u1:user:message', 'msg_a1:assistant:message', 'msg_a1/call_1:tool:message', 'msg_a1/call_2:tool:message', 'msg_a1.s1:assistant:message',
      'msg_u2:user:event', 'msg_a2:summary:compaction', 'msg_u3:user:message', 'msg_a3:assistant:message', 'msg_a3/call_3:tool:message',
    ]);
    expect(entryText(result.entries[0]!)).toBe('pwd\nCalled the Read tool');
    expect(result.entries[1]!.blocks.map((block) => block.type)).toEqual(['thinking', 'tool_call', 'tool_call']);
    // Step tokens: input plus cache; without a total, the stored output; with one, the total less the input.
    expect(result.entries[1]!.usage).toEqual({ input: 9640, output: 12, cacheRead: 9600, reasoning: 266 });
    expect(result.entries[4]!.usage).toEqual({ input: 10061, output: 110, cacheRead: 10048, reasoning: 97 });
    expect((result.entries[3]!.blocks[0] as ToolResultBlock)).toMatchObject({ isError: true, toolName: 'read', content: [{ type: 'text', text: 'File not found: /nope' }] });
    expect(result.entries[6]!.marker).toEqual({ source: 'opencode.compaction' });
    expect(entryText(result.entries[6]!)).toBe('We printed the working directory.');
    expect(result.entries[8]!.flags).toEqual({ aborted: true });
    expect(entryText(result.entries[9]!)).toBe('[Tool execution was interrupted]');
    expect(linkReport(result.entries)).toEqual({ toolCalls: 3, toolResults: 3, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.issues).toEqual([{ line: expect.any(Number) as number, kind: 'unsupported', message: 'user part type "hologram" (first in message msg_u3) is not read; those parts are skipped (later ones are not reported)' }]);
  });

  it('assembles the storage folder sample into its session, whatever order its files come in', () => {
    const files = folder(STORAGE);
    expect(isOpencodeStorage(files.map((file) => file.path))).toBe(true);
    const { sessions, problems } = readOpencodeFolder([...files].reverse());
    expect(problems).toEqual([]);
    expect(sessions.map((session) => [session.sessionId, session.name, session.document.messages.map((message) => [message.info.id, message.parts.length])])).toEqual([
      ['s_stage0_large', 'OpenCode Large', [['m_user_large_1', 1], ['m_assistant_large_1', 8], ['m_user_large_2', 1], ['m_assistant_large_2', 1]]],
    ]);
    const result = importText(JSON.stringify(sessions[0]!.document), { format: 'opencode' });
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.usage)).toEqual([{ input: 120, output: 16 }]);
    // The session file's directory and time.created.
    expect(result.meta).toMatchObject({ cwd: '/tmp/large', createdAt: 1730000100000 });
  });

  it('names a file of the folder that is no opencode record, and links a subagent session to its parent', () => {
    const child = { id: 'ses_child', projectID: 'p', directory: '/d', parentID: SES, title: 'Explore', time: { created: 2 } };
    const { sessions, problems } = readOpencodeFolder([
      { path: 'session/p/ses_child.json', text: JSON.stringify(child) },
      { path: 'message/ses_child/msg_c.json', text: JSON.stringify({ id: 'msg_c', sessionID: 'ses_child', role: 'user', time: { created: 3 } }) },
      { path: 'part/msg_c/prt_c.json', text: JSON.stringify({ id: 'prt_c', sessionID: 'ses_child', messageID: 'msg_c', type: 'text', text: 'look around' }) },
      { path: 'part/msg_c/broken.json', text: '{"id": ' },
      { path: 'part/msg_c/odd.json', text: '{"id": "x", "colour": "red"}' },
    ]);
    expect(problems.map((problem) => problem.path)).toEqual(['part/msg_c/broken.json', 'part/msg_c/odd.json']);
    expect(problems[0]!.message).toMatch(/^not valid JSON/);
    expect(sessions).toHaveLength(1);
    const result = importText(JSON.stringify(sessions[0]!.document), { format: 'opencode' });
    expect(result.meta.subagent).toEqual({ parentSessionId: SES, agentId: 'ses_child' });
  });
});
