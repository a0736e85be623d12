import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { branchLeaves } from '../journal/tree.ts';
import { importText } from './run.ts';

const JSONL = readFileSync(new URL('../../../public/samples/gemini-cli/jsonl_v040.jsonl', import.meta.url), 'utf8');
const DOCUMENT = readFileSync(new URL('../../../public/samples/gemini-cli/large.json', import.meta.url), 'utf8');

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

const HEADER = { sessionId: 's-1', projectHash: 'ab'.repeat(32), startTime: '2026-04-29T21:39:22.319Z', lastUpdated: '2026-04-29T21:39:22.319Z', kind: 'main' };
const call = (id: string, output: string, status = 'success') => ({ id, name: 'run_shell_command', args: { command: id }, status, timestamp: '2026-04-29T21:39:35.364Z', result: [{ functionResponse: { id, name: 'run_shell_command', response: status === 'error' ? { error: output } : { output } } }] });

describe('Gemini CLI chats', () => {
  it('reads the JSONL sample as written by hand: a prompt, a call with its result, the answer, usage per response', () => {
    const result = importText(JSONL, { fileName: 'jsonl_v040.jsonl' });
    expect(result.format).toBe('gemini-cli');
    expect(result.meta).toMatchObject({ sessionId: 'gemini_stage0_jsonl', model: 'gemini-3-flash-preview', createdAt: Date.UTC(2026, 3, 29, 21, 39, 22, 319) });
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}:${entry.line}`)).toEqual([
      'g-user-1:user:2', 'g-assistant-1:assistant:4', 'g-assistant-1/run_shell_command_stage0:tool:4', 'g-assistant-2:assistant:5',
    ]);
    expect(result.ignoredLines).toBe(2);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.entries[1]!.usage).toEqual({ input: 11855, output: 81 });
    expect(result.entries[3]!.usage).toEqual({ input: 12069, output: 147, cacheRead: 11502 });
    expect(result.entries[1]!.blocks).toMatchObject([{ type: 'tool_call', callId: 'run_shell_command_stage0', name: 'run_shell_command', input: { command: 'ls -F', description: 'List files in the current directory.' } }]);
    expect(entryText(result.entries[2]!)).toBe('Output: AgentSessions/\nREADME.md\nProcess Group PGID: 12345');
  });

  it('reads the JSON document sample: thoughts as thinking, info as a harness event, a message of another type reported by line', () => {
    const result = importText(DOCUMENT, { fileName: 'large.json' });
    expect(result.format).toBe('gemini-cli');
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}:${entry.kind}`)).toEqual([
      'm1:user:message', 'm2:assistant:message', 'm2/run_shell_command-1:tool:message', 'm2b:assistant:message', 'm2b/run_shell_command-2:tool:message', 'm3:system:event', 'm5:user:message',
    ]);
    expect(result.entries[1]!.blocks[0]).toEqual({ type: 'thinking', text: 'Placeholder thoughts for schema coverage.' });
    expect(result.entries[1]!.usage).toEqual({ input: 100, output: 10 });
    expect(result.entries[3]!.usage).toBeUndefined();
    expect(entryText(result.entries[5]!)).toBe('[info] Request cancelled.');
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      '76 unsupported message "m4" has type "model" (expected user, gemini, info, warning or error); skipped',
      '88 unsupported message "m6" has type "model" (expected user, gemini, info, warning or error); skipped',
    ]);
    // The message after a skipped one still follows the last entry: one branch.
    expect(branchLeaves(result.entries)).toHaveLength(1);
  });

  it('keeps the last copy of a message written again, and makes what was rewound a side branch', () => {
    const text = jsonl(
      HEADER,
      { id: 'u1', timestamp: '2026-04-29T21:39:33.155Z', type: 'user', content: [{ text: 'List files' }] },
      { $set: { lastUpdated: '2026-04-29T21:39:33.156Z' } },
      { id: 'g1', timestamp: '2026-04-29T21:39:35.125Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'ls' }, status: 'executing' }] },
      { id: 'g1', timestamp: '2026-04-29T21:39:35.125Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', thoughts: [{ subject: 'Listing', description: 'I will run ls.', timestamp: 'x' }], tokens: { input: 900, output: 20, cached: 800, thoughts: 30, tool: 5, total: 955 }, toolCalls: [call('c1', 'a.txt'), call('c2', 'permission denied', 'error'), { id: 'c3', name: 'read_file', args: {}, status: 'cancelled' }] },
      { id: 'u2', timestamp: '2026-04-29T21:40:00.000Z', type: 'user', content: 'Delete a.txt' },
      { $rewindTo: 'u2' },
      { id: 'u3', timestamp: '2026-04-29T21:41:00.000Z', type: 'user', content: 'Keep a.txt' },
      { $set: { summary: 'Listing files' } },
    );
    const result = importText(text);
    expect(result.format).toBe('gemini-cli');
    expect(result.meta.title).toBe('Listing files');
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    const g1 = byId.get('g1')!;
    expect([g1.line, g1.lineEnd]).toEqual([4, 5]);
    expect(g1.blocks.map((block) => block.type)).toEqual(['thinking', 'tool_call', 'tool_call', 'tool_call']);
    expect(g1.usage).toEqual({ input: 905, output: 50, cacheRead: 800, reasoning: 30 });
    // The cancelled call has no result: an orphan, as the file records it.
    expect(linkReport(result.entries)).toEqual({ toolCalls: 3, toolResults: 2, orphanToolCalls: 1, orphanToolResults: 0 });
    expect((byId.get('g1/c2')!.blocks[0] as ToolResultBlock).isError).toBe(true);
    expect(entryText(byId.get('g1/c2')!)).toBe('permission denied');
    // u2 was rewound: u3 follows the last result of g1, beside it.
    expect(byId.get('u2')!.parentId).toBe('g1/c2');
    expect(byId.get('u3')!.parentId).toBe('g1/c2');
    expect(branchLeaves(result.entries)).toHaveLength(2);
  });

  it('reports a record it does not understand by line and keys, and reads a one-line legacy record', () => {
    const result = importText(jsonl(HEADER, { id: 'u1', timestamp: 't', type: 'user', content: 'hi' }, { hello: 'world' }, { id: 'g1', timestamp: 't', type: 'gemini', content: 'Hi!' }));
    expect(result.issues).toEqual([{ line: 3, kind: 'unsupported', message: 'a record with keys "hello" is not a Gemini CLI message, metadata, "$set" or "$rewindTo" record; skipped' }]);
    expect(result.entries.map((entry) => entry.id)).toEqual(['u1', 'g1']);
    const legacy = importText(JSON.stringify({ ...HEADER, messages: [{ id: 'u1', timestamp: 't', type: 'user', content: 'hi' }, 'junk', { id: 'g1', timestamp: 't', type: 'gemini', content: 'Hi!' }] }));
    expect(legacy.format).toBe('gemini-cli');
    expect(legacy.entries.map((entry) => entry.id)).toEqual(['u1', 'g1']);
    expect(legacy.issues).toEqual([{ line: 1, kind: 'malformed', message: 'messages[1] is a string "junk"; skipped' }]);
  });

  it('keeps a message when a later copy of it has a type Gemini CLI does not write', () => {
    const result = importText(jsonl(HEADER, { id: 'u1', timestamp: 't', type: 'user', content: 'hi' }, { id: 'u1', timestamp: 't', type: ' user', content: 'hi' }, { id: 'g1', timestamp: 't', type: 'gemini', content: 'Hi!' }));
    expect(result.entries.map((entry) => `${entry.id}:${entry.line}`)).toEqual(['u1:2', 'g1:4']);
    expect(result.issues).toEqual([{ line: 3, kind: 'unsupported', message: 'message "u1" is written again with type " user" (expected user, gemini, info, warning or error); the copy on line 2 is kept' }]);
  });

  it('reads a pretty-printed chat when the format is forced', () => {
    const result = importText(DOCUMENT, { format: 'gemini-cli' });
    expect(result.entries).toHaveLength(7);
  });
});
