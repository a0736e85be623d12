import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { cursorTranscriptPath } from './cursor.ts';
import { importText } from './run.ts';

const sample = (name: string) => readFileSync(new URL(`../../../public/samples/cursor/${name}`, import.meta.url), 'utf8');

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}
const user = (text: string) => ({ role: 'user', message: { content: [{ type: 'text', text }] } });
const assistant = (...content: unknown[]) => ({ role: 'assistant', message: { content } });

describe('Cursor agent transcripts', () => {
  it('reads the transcript sample as Cursor writes it: requests in <user_query>, calls without ids or results', () => {
    const result = importText(sample('test-session.jsonl'), { fileName: 'test-session.jsonl' });
    expect(result.format).toBe('cursor');
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['l1:user', 'l2:assistant', 'l3:assistant', 'l4:user', 'l5:assistant', 'l6:assistant']);
    expect(result.meta.title).toBe('run ls command');
    expect(entryText(result.entries[0]!)).toBe('<user_query>\nrun ls command\n</user_query>');
    expect(result.entries[1]!.blocks[1]).toEqual({ type: 'tool_call', callId: 'l2.t1', name: 'Shell', input: { command: 'ls -la /tmp', description: 'List directory contents' } });
    // Cursor records no tool results: both calls stay unanswered, as in the file.
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 0, orphanToolCalls: 2, orphanToolResults: 0 });
    expect(result.issues).toEqual([]);
  });

  it('pairs the results an export carries with the calls in order, thinking kept', () => {
    const result = importText(sample('large.jsonl'), { fileName: 'large.jsonl' });
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual([
      'l1:user', 'l2:assistant', 'l3:tool', 'l4:assistant', 'l5:user', 'l6:assistant', 'l7:tool', 'l8:assistant', 'l9:user', 'l10:assistant',
    ]);
    expect(result.entries[1]!.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(result.entries[1]!.blocks[0]).toEqual({ type: 'thinking', text: 'Let me check the directory.' });
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.entries[2]!.blocks[0]).toMatchObject({ type: 'tool_result', callId: 'l2.t1', callEntryId: 'l2' });
    expect(entryText(result.entries[6]!)).toBe('hello world');
  });

  it('keeps an unknown block\'s text and reports it by line, reads a model and skips role-less markers', () => {
    const result = importText(sample('schema_drift.jsonl'), { fileName: 'schema_drift.jsonl' });
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['l1:user', 'l2:assistant', 'l3:tool', 'l4:assistant']);
    expect(result.entries[1]!.model).toBe('cursor-auto');
    expect(entryText(result.entries[1]!)).toContain('Cursor added an unknown block with visible text.');
    expect(result.issues).toEqual([{ line: 2, kind: 'unsupported', message: 'content block type "custom_block" is not a Cursor text, thinking, image, tool call or tool result block; its text was kept' }]);
    const marker = importText(jsonl(user('Run ls.'), assistant({ type: 'text', text: 'Running.' }), { type: 'turn_ended', status: 'success' }));
    expect(marker.entries).toHaveLength(2);
    expect(marker.ignoredLines).toBe(1);
  });

  it('answers the call a result names, else the oldest open one; a result with nothing to answer is kept and reported', () => {
    const text = jsonl(
      user('two reads'),
      assistant({ type: 'tool_use', id: 'a', name: 'Read', input: { path: 'a' } }, { type: 'tool_use', id: 'b', name: 'Read', input: { path: 'b' } }),
      { role: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'b', content: 'B' }, { type: 'tool_result', tool_use_id: 'zz', content: [{ type: 'text', text: 'A' }], is_error: true }] } },
      { role: 'user', message: { content: [{ type: 'tool_result', content: 'stray' }] } },
    );
    const result = importText(text);
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['l1:user', 'l2:assistant', 'l3.r1:tool', 'l3.r2:tool', 'l4:tool']);
    expect(result.entries[2]!.blocks[0]).toMatchObject({ callId: 'b', isError: false });
    expect(result.entries[3]!.blocks[0]).toMatchObject({ callId: 'a', isError: true });
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 3, orphanToolCalls: 0, orphanToolResults: 1 });
    expect(result.issues).toEqual([{ line: 4, kind: 'unsupported', message: 'a tool result with no call before it to answer; kept unpaired' }]);
  });

  it('refuses a line of another role or without content by line, and imports the rest', () => {
    const text = `${JSON.stringify(user('hi'))}\n{"role":"user","message":{"content":[{"type":"text","text":"cut`+`\n${JSON.stringify({ role: 'system', message: { content: 'x' } })}\n${JSON.stringify({ role: 'assistant', message: {} })}\n${JSON.stringify(assistant({ type: 'text', text: 'hello' }))}\n`;
    const result = importText(text, { fileName: 'broken.jsonl' });
    expect(result.entries.map((entry) => entry.id)).toEqual(['l1', 'l5']);
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      expect.stringMatching(/^2 malformed not valid JSON/),
      '3 unsupported "role" is a string "system" (expected "user" or "assistant"); skipped',
      '4 malformed "message.content" is nothing (the field is missing) (expected an array of content blocks or a string); skipped',
    ]);
  });

  it('takes the session from the file name and a subagent\'s parent from its folder', () => {
    expect(cursorTranscriptPath('agent-transcripts/3f2a.jsonl')).toEqual({ sessionId: '3f2a' });
    expect(cursorTranscriptPath('projects/p/agent-transcripts/3f2a/subagents/9b1c.jsonl')).toEqual({ sessionId: '9b1c', parentSessionId: '3f2a' });
    expect(cursorTranscriptPath('session/subagents/agent-a1.jsonl')).toBeUndefined();
    expect(cursorTranscriptPath('notes.json')).toBeUndefined();
    expect(importText(sample('agent-transcripts/parent.jsonl'), { fileName: 'parent.jsonl' }).meta.sessionId).toBe('parent');
    expect(importText(sample('large.jsonl')).meta.sessionId).toBeUndefined();
  });
});
