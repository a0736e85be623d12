import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from './run.ts';

/** A Kimi CLI session folder in the shape kimi-cli 1.49 writes (see public/samples/NOTICE.md). */
const DIR = '../../../public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35';
const WIRE = readFileSync(new URL(`${DIR}/wire.jsonl`, import.meta.url), 'utf8');
const CONTEXT = readFileSync(new URL(`${DIR}/context_1.jsonl`, import.meta.url), 'utf8');

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}
const wire = (type: string, payload: unknown, timestamp = 1789371000) => ({ timestamp, message: { type, payload } });

describe('Kimi CLI wire.jsonl', () => {
  it('reads the sample as counted by hand: one response per step with its usage, the subagent as a linked thread, the compaction, the interrupted step', () => {
    const result = importText(WIRE, { fileName: 'wire.jsonl' });
    expect(result.format).toBe('kimi');
    expect(result.meta.version).toBe('wire 1.9');
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}${entry.lineEnd ? `-${entry.lineEnd}` : ''}`)).toEqual([
      'user:2', 'assistant:4-7', 'tool:9', 'assistant:11-12', 'tool:23', 'assistant:25', 'tool:29', 'assistant:31', 'tool:33', 'assistant:35', 'summary:39', 'user:40', 'assistant:42',
    ]);
    // metadata, 6 StepBegin, 5 StatusUpdate, approval request and response, 2 TurnEnd, CompactionBegin,
    // StepInterrupted; in the subagent: 2 StepBegin, 2 StatusUpdate, its TurnEnd.
    expect(result.ignoredLines).toBe(23);
    expect(result.issues).toEqual([]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
    const first = result.entries[1]!;
    // Two streamed pieces of one thought are one thinking block.
    expect(first.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(first.blocks[0]).toEqual({ type: 'thinking', text: 'The user wants a --dry-run flag. I need to see how release.py parses its arguments and how it runs each step before changing anything.' });
    expect(first.blocks[2]).toMatchObject({ callId: 'ReadFile:0', name: 'ReadFile', input: { path: 'scripts/release.py' } });
    expect(first.usage).toEqual({ input: 12083, output: 96, cacheRead: 10240 });
    expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.usage!.input)).toEqual([12083, 12444, 12849, 13098, 13177]);
    // The edit's result is its message when the output is empty.
    expect(entryText(result.entries[6]!)).toBe('File successfully edited. Applied 2 edit(s) with 2 total replacement(s).');
    expect(result.entries[10]).toMatchObject({ kind: 'compaction', marker: { source: 'kimi.compaction' } });
    expect(result.entries[12]).toMatchObject({ flags: { aborted: true } });
    expect(result.entries[12]!.usage).toBeUndefined();

    expect(result.threads).toHaveLength(1);
    const thread = result.threads![0]!;
    expect(thread.meta).toEqual({ title: 'explore subagent', subagent: { agentId: 'a7c3e91f', parentToolUseId: 'Agent:1', agentType: 'explore' } });
    expect(thread.entries.map((entry) => `${entry.role}:${entry.line}`)).toEqual(['user:14', 'assistant:16', 'tool:18', 'assistant:20']);
    expect(entryText(thread.entries[0]!)).toMatch(/^Find every place that calls scripts\/release\.py/);
    expect(thread.entries.filter((entry) => entry.usage).map((entry) => entry.usage)).toEqual([{ input: 3310, output: 64 }, { input: 3546, output: 71, cacheRead: 3328 }]);
    expect(linkReport(thread.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('joins streamed call arguments, marks error results, and reports an unknown message type and a broken record by line', () => {
    const result = importText(jsonl(
      { type: 'metadata', protocol_version: '1.9' },
      wire('TurnBegin', { user_input: 'Run it' }),
      wire('StepBegin', { n: 1 }),
      wire('ToolCall', { type: 'function', id: 'Shell:0', function: { name: 'Shell', arguments: '{"command": "ma' } }),
      wire('ToolCallPart', { arguments_part: 'ke"}' }),
      wire('ToolResult', { tool_call_id: 'Shell:0', return_value: { is_error: true, output: 'make: *** No targets.', message: 'Command failed with exit code: 2.' } }),
      wire('HologramBegin', { beam: 1 }),
      { timestamp: 1, message: { type: 'ContentPart' } },
      { hello: 'world' },
      wire('ToolCallPart', { arguments_part: 'x' }),
    ));
    expect(result.format).toBe('kimi');
    expect(result.entries[1]!.blocks[0]).toMatchObject({ type: 'tool_call', input: { command: 'make' } });
    expect(result.entries[2]!.blocks[0] as ToolResultBlock).toMatchObject({ isError: true, content: [{ type: 'text', text: 'make: *** No targets.' }] });
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      '7 unsupported wire message type "HologramBegin" is not one Foldlab knows (payload keys: beam); skipped',
      '8 malformed a wire message needs a "type" and a "payload" object, got "payload" nothing (the field is missing); skipped',
      '9 malformed expected a Kimi CLI wire record {timestamp, message: {type, payload}} or a context message {role, content}, got keys hello; skipped',
      '10 malformed a ToolCallPart with no call before it in the step; skipped',
    ]);
  });
});

describe('Kimi CLI context.jsonl', () => {
  it('reads the sample as counted by hand: the system prompt, the request, thinking and calls, results, a checkpoint note flagged injected', () => {
    const result = importText(CONTEXT, { fileName: 'context.jsonl' });
    expect(result.format).toBe('kimi');
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}`)).toEqual(['system:1', 'user:3', 'assistant:5', 'tool:6', 'user:8', 'assistant:10', 'tool:11']);
    // 2 checkpoints, 2 usage records.
    expect(result.ignoredLines).toBe(4);
    expect(result.entries[4]!.flags).toEqual({ injected: true });
    expect(result.entries[2]!.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.entries.some((entry) => entry.usage)).toBe(false);
  });

  it('reports a record of another role by line', () => {
    const result = importText(jsonl({ role: '_system_prompt', content: 'You are Kimi.' }, { role: 'user', content: 'hi' }, { role: '_mystery', x: 1 }));
    expect(result.issues).toEqual([{ line: 3, kind: 'unsupported', message: 'context record role "_mystery" is not one Foldlab knows (user, assistant, tool, system, _system_prompt, _usage, _checkpoint); skipped' }]);
  });
});
